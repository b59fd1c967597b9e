/**
 * Step-up (issue 47, decision 048): every route that moves a ticket or money wants a proof of presence from the last
 * STEP_UP_MAX_AGE_SECONDS: the sign-in, or a step-up code e-mailed to the account and verified. The routes are read
 * from the API document (the route table), not listed by hand: a new holder route that changes something must either
 * ask for a step-up or be named below with the reason it moves nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auth, type MyTicket } from '@tp/contract';
import { bearer, createTestApp, onboardSandboxSeller, type TestApp } from './helper.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ seed: true });
});
afterEach(async () => {
  await t.close();
});

const MINUTE = 60_000;

/** Holder routes that change something but move no ticket or money, and why. */
const MOVES_NOTHING: Record<string, string> = {
  updateProfile: "the holder's own name, phone and address (the e-mail cannot be changed)",
  updateUsername: "the holder's own nickname",
  uploadAvatar: "the holder's own picture",
  setReminders: 'reminder e-mails on or off',
  issuePassCredential: "a device key for this phone's offline pass; it moves nothing",
  verifyGift: 'only asks whether a ticket could be gifted',
  requestRefund:
    "asks the organiser, who refunds the ticket's buyer in their own shop; nothing moves until they approve",
  withdrawRefundRequest: 'withdraws that request',
  unlockBenefit: "unlocks an add-on on the holder's own ticket",
  confirmSwap: 'confirms a swap already started (start_swap asked) and paid at the checkout',
  cancelSwap: 'gives up a started swap; the ticket stays',
  calculateResalePrice: 'a price calculation',
  unlistResale: "takes the holder's own listing off sale: the ticket comes back",
  redeemResale: 'receives a bought ticket',
  joinExchange: 'joins a queue; a purchase is paid at the checkout',
  leaveExchange: 'leaves the queue',
  declineExchangeOffer: 'declines an offer',
  checkoutExchangeOffer: "opens the payment provider's checkout, where the payer proves themselves",
  withdrawFromExchange: 'takes a return back before it sold: the ticket stays',
  openConsoleSession: 'opens the console of an organisation the account is a member of (organiser routes)',
  requestStepUpCode: 'asks for the step-up code itself',
  verifyStepUpCode: 'checks the step-up code itself',
  passkeyStepUpOptions: 'asks for a passkey step-up challenge',
  verifyPasskeyStepUp: 'checks the passkey step-up itself',
};

/** A request that passes each step-up route's validation, so that the step-up check is what answers. */
const SAMPLE: Record<string, { payload?: object; path?: Record<string, string> }> = {
  giftTicket: { payload: { userTicketId: 1, username: 'bob#7315' } },
  createResale: { payload: { userTicketId: 1, amountCount: 1, price: 10, currencyCode: 'AUD', currencySymbol: '$' } },
  connectPayoutAccount: { payload: { accountType: 'custom', country: 'AU' } },
  completeSandboxOnboarding: {
    payload: { country: 'AU', firstName: 'A', lastName: 'B', birthdate: '1990-01-02', bankAccount: '062-000 12345678' },
  },
  returnToExchange: { payload: { userTicketId: 1 } },
  startSwap: { payload: { baseTicketId: 1, swapPairId: 1, swapQuantity: 1 } },
  logoutOtherSessions: {},
  deleteAccount: {},
  passkeyRegistrationOptions: {},
  registerPasskey: {
    payload: {
      response: {
        id: 'AA',
        rawId: 'AA',
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: 'e30', attestationObject: 'oA' },
      },
    },
  },
  removePasskey: { path: { id: 'AA' } },
};

interface Operation {
  method: string;
  path: string;
  operationId: string;
  description?: string;
  security?: Record<string, unknown>[];
}

async function holderWrites(): Promise<Operation[]> {
  const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json<{
    paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
  }>();
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method, op]) => method !== 'get' && op.security?.some((s) => 'holderBearer' in s))
      .map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  );
}

const call = (op: Operation, token: string) => {
  const sample = SAMPLE[op.operationId] ?? {};
  return t.app.inject({
    method: op.method as 'POST',
    url: op.path.replace(/\{(\w+)\}/g, (_, k: string) => sample.path?.[k] ?? '1'),
    headers: bearer(token),
    ...(sample.payload ? { payload: sample.payload } : {}),
  });
};

/** The `message` of an answer's body (undefined for an empty or non-error body). */
const messageOf = (body: string): unknown => (body ? (JSON.parse(body) as { message?: unknown }).message : undefined);

/** Asks for a step-up code for `action` and verifies it; the code e-mail's subject. */
async function stepUp(token: string, email: string, action = 'gift') {
  const asked = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/step-up',
    headers: bearer(token),
    payload: { action },
  });
  expect(asked.statusCode).toBe(200);
  const mail = t.mail.sent.at(-1)!;
  expect(mail.to).toBe(email);
  const verified = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/step-up/verify',
    headers: bearer(token),
    payload: { otp: t.mail.lastCodeFor(email) },
  });
  expect(verified.statusCode).toBe(200);
  return { mail, asked: asked.json<{ sentTo: string }>(), verified: verified.json<{ steppedUpUntil: string }>() };
}

describe('step-up: which routes want it (from the route table)', () => {
  it('every holder route that changes something asks for a step-up or is named as moving nothing', async () => {
    const ops = await holderWrites();
    const stepUpOps = ops.filter((op) => op.description?.includes('api.auth.step_up_required'));
    const unclassified = ops.filter((op) => !stepUpOps.includes(op) && !(op.operationId in MOVES_NOTHING));
    expect(unclassified.map((op) => `${op.method} ${op.path} (${op.operationId})`)).toEqual([]);
    // The issue's list: gift, resale listing, exchange return, swap, payout account, account deletion, sign out
    // everywhere; and adding or removing a passkey (decision 049).
    expect(stepUpOps.map((op) => op.operationId).sort()).toEqual(Object.keys(SAMPLE).sort());
    // A name in MOVES_NOTHING that no longer exists, or that now asks for a step-up, is a stale entry.
    const ids = new Set(ops.map((op) => op.operationId));
    expect(Object.keys(MOVES_NOTHING).filter((id) => !ids.has(id) || SAMPLE[id])).toEqual([]);
  });

  it('each refuses a sign-in older than 5 minutes (403 with its action), and takes a fresh step-up', async () => {
    const ops = (await holderWrites()).filter((op) => op.description?.includes('api.auth.step_up_required'));
    const { accessToken } = await t.signIn('alice@example.com');
    t.clock.advance(5 * MINUTE); // the sign-in helper already moved the clock 61 s on
    const seen = new Set<string>();
    for (const op of ops) {
      const r = await call(op, accessToken);
      expect(r.statusCode, `${op.operationId}: ${r.body}`).toBe(403);
      const body = r.json<{ message: string; action: string; maxAgeSeconds: number }>();
      expect(body).toEqual({ message: 'api.auth.step_up_required', action: body.action, maxAgeSeconds: 300 });
      expect(auth.STEP_UP_ACTIONS).toContain(body.action);
      seen.add(body.action);
    }
    // Every action but the console's own (console-step-up.test.ts; `payout_account` is both).
    const consoleOnly = ['api_key', 'member_add'];
    expect([...seen].sort()).toEqual(auth.STEP_UP_ACTIONS.filter((a) => !consoleOnly.includes(a)).sort());
    await stepUp(accessToken, 'alice@example.com', 'account_deletion');
    // Fresh: no route answers step_up_required (each answers its own rule instead). Deletion and sign-out last.
    const order = (op: Operation) => ['deleteAccount', 'logoutOtherSessions'].indexOf(op.operationId);
    for (const op of [...ops].sort((a, b) => order(a) - order(b))) {
      const r = await call(op, accessToken);
      expect(messageOf(r.body), op.operationId).not.toBe('api.auth.step_up_required');
    }
  });

  it('the routes that move nothing never ask for one', async () => {
    const ops = (await holderWrites()).filter((op) => op.operationId in MOVES_NOTHING);
    const { accessToken } = await t.signIn('bob@example.com');
    t.clock.advance(10 * MINUTE);
    for (const op of ops) {
      const r = await call(op, accessToken);
      expect(messageOf(r.body), op.operationId).not.toBe('api.auth.step_up_required');
    }
  });
});

describe('step-up by e-mail code', () => {
  const aliceTicket = async (token: string) =>
    (await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(token) }))
      .json<MyTicket[]>()
      .find((x) => x.eventName === 'Aotearoa Sound')!;
  const gift = (token: string, userTicketId: number) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: bearer(token),
      payload: { userTicketId, username: 'bob#7315' },
    });

  it('a gift after 5 minutes asks for a code; the code (its own e-mail, naming the gift) lets it through', async () => {
    const { accessToken } = await t.signIn('alice@example.com');
    const tk = await aliceTicket(accessToken);
    const signInMail = t.mail.sent.at(-1)!;
    t.clock.advance(4 * MINUTE); // 61 s + 4 min: past 300 s
    const refused = await gift(accessToken, tk.userTicketId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'api.auth.step_up_required', action: 'gift', maxAgeSeconds: 300 });

    const { mail, asked, verified } = await stepUp(accessToken, 'alice@example.com');
    expect(asked.sentTo).toBe('alice@example.com');
    expect(mail.subject).toMatch(/^\d{6} is your code to gift a ticket$/);
    expect(mail.text).toContain('You asked to gift a ticket in your');
    expect(mail.subject).not.toBe(signInMail.subject);
    expect(signInMail.subject).toMatch(/sign-in code/);
    expect(new Date(verified.steppedUpUntil).getTime()).toBe(t.clock.now().getTime() + 300_000);

    expect((await gift(accessToken, tk.userTicketId)).statusCode).toBe(200);
  });

  it('a step-up older than 5 minutes is refused again', async () => {
    const { accessToken } = await t.signIn('alice@example.com');
    const tk = await aliceTicket(accessToken);
    t.clock.advance(4 * MINUTE); // the access token lives 15 minutes: the clock stays within them
    await stepUp(accessToken, 'alice@example.com');
    t.clock.advance(300_001);
    expect((await gift(accessToken, tk.userTicketId)).json()).toMatchObject({ message: 'api.auth.step_up_required' });
    t.clock.advance(-2); // 299.999 s after the step-up: still fresh
    expect((await gift(accessToken, tk.userTicketId)).statusCode).toBe(200);
  });

  it("a code is its session's alone, used once, and out after 5 wrong tries", async () => {
    const a = (await t.signIn('alice@example.com')).accessToken;
    const other = (await t.signIn('alice@example.com')).accessToken; // a second sign-in of the same account
    const ask = (token: string) =>
      t.app.inject({ method: 'POST', url: '/v1/auth/step-up', headers: bearer(token), payload: { action: 'gift' } });
    const check = (token: string, otp: string) =>
      t.app.inject({ method: 'POST', url: '/v1/auth/step-up/verify', headers: bearer(token), payload: { otp } });
    expect((await check(a, '123456')).json()).toEqual({ message: 'api.auth.step_up_no_code' });
    expect((await ask(a)).statusCode).toBe(200);
    const code = t.mail.lastCodeFor('alice@example.com');
    // Another session of the same account has no code of its own: this one proves nothing there.
    expect((await check(other, code)).json()).toEqual({ message: 'api.auth.step_up_no_code' });
    // One code a minute per session.
    const again = await ask(a);
    expect(again.statusCode).toBe(429);
    expect(again.json()).toEqual({ message: 'api.auth.resend_too_soon' });
    expect((await check(a, code)).statusCode).toBe(200);
    expect((await check(a, code)).json()).toEqual({ message: 'api.auth.step_up_no_code' });

    t.clock.advance(MINUTE);
    expect((await ask(a)).statusCode).toBe(200);
    const fresh = t.mail.lastCodeFor('alice@example.com');
    const wrong = fresh === '000000' ? '000001' : '000000';
    for (let i = 0; i < 4; i++) expect((await check(a, wrong)).json()).toEqual({ message: 'api.auth.wrong_otp' });
    expect((await check(a, wrong)).json()).toEqual({ message: 'api.auth.otp_attempts_exceeded' });
    expect((await check(a, fresh)).json()).toEqual({ message: 'api.auth.step_up_no_code' });

    t.clock.advance(MINUTE);
    expect((await ask(a)).statusCode).toBe(200);
    const late = t.mail.lastCodeFor('alice@example.com');
    t.clock.advance(10 * MINUTE + 1);
    expect((await check(a, late)).json()).toEqual({ message: 'api.auth.otp_expired' });
  });

  it('the code e-mail is in the account language, naming the action', async () => {
    const { accessToken } = await t.signIn('alice@example.com');
    await t.database.db.execute(`update users set locale = 'es' where email = 'alice@example.com'`);
    await onboardSandboxSeller(t.app, accessToken); // fresh sign-in: no step-up asked
    t.clock.advance(10 * MINUTE);
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/step-up',
      headers: bearer(accessToken),
      payload: { action: 'payout_account' },
    });
    expect(r.statusCode).toBe(200);
    const mail = t.mail.sent.at(-1)!;
    expect(mail.subject).toMatch(/^\d{6} es tu código para cambiar dónde se te pagan las ventas$/);
    expect(mail.text).toContain('Confirma que eres tú');
  });

  it("a session's codes are capped at stepUpCodesPerDay in 24 hours: then 429 until the oldest is a day old", async () => {
    const capped = await createTestApp({
      seed: true,
      config: { stepUpCodesPerDay: 3, accessTokenTtlSeconds: 2 * 86_400 },
    });
    try {
      const { accessToken } = await capped.signIn('alice@example.com');
      const ask = () =>
        capped.app.inject({
          method: 'POST',
          url: '/v1/auth/step-up',
          headers: bearer(accessToken),
          payload: { action: 'gift' },
        });
      for (let i = 0; i < 3; i++) {
        expect((await ask()).statusCode).toBe(200);
        capped.clock.advance(MINUTE);
      }
      const before = capped.mail.sent.length;
      const refused = await ask();
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ message: 'api.too_many_requests' });
      // The first code was asked for 3 minutes ago: the window frees it a day after it.
      expect(Number(refused.headers['retry-after'])).toBe(86_400 - 3 * 60);
      expect(capped.mail.sent.length).toBe(before);
      capped.clock.advance(86_400_000 - 3 * MINUTE);
      expect((await ask()).statusCode).toBe(200);
    } finally {
      await capped.close();
    }
  });

  it('an unknown action is refused before anything is sent', async () => {
    const { accessToken } = await t.signIn('alice@example.com');
    const before = t.mail.sent.length;
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/step-up',
      headers: bearer(accessToken),
      payload: { action: 'steal' },
    });
    expect(r.statusCode).toBe(400);
    expect(t.mail.sent.length).toBe(before);
  });
});
