/**
 * The console gap of decision 048, closed (issue 47): the organiser routes that grant lasting access or move money (a
 * new API key, a new member, the organisation's payout account) want, from a console token, a fresh proof of presence
 * of the holder sign-in the token was opened from: 403 `api.auth.step_up_required` with the action without it, and
 * the same console token goes through once that sign-in stepped up (an e-mailed code or a passkey, asked for with its
 * holder token). An organisation API key (a machine) is never asked. The routes are read from the API document: a
 * new organiser write route fails the first test until it asks for a step-up or is named below with its reason.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { auth } from '@tp/contract';
import { bearer, createTestApp, type TestApp } from './helper.js';
import { testAuthenticator } from './passkey-authenticator.js';

const ADMIN = 'admin-key-for-tests';
const MINUTE = 60_000;
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ config: { adminKey: ADMIN } });
});
afterEach(async () => {
  await t.close();
});

/** Organiser routes that change something and want no step-up from the console, and why. */
const NO_STEP_UP: Record<string, string> = {
  revokeOrgApiKey: 'takes access away: a key stops working',
  removeMember: 'takes access away: a member loses the console (the last owner stays)',
  upsertEvent: "the organisation's own event details",
  cancelEvent: "cancels the organisation's own event; refunds go to buyers through the shop, not to the caller",
  upsertTicketType: "the organisation's own ticket types and prices",
  upsertTicket: 'issues or changes a ticket to a holder named by e-mail; it pays the caller nothing',
  revokeTicket: "voids a ticket of the organisation's own; nothing moves to the caller",
  resendTicketMail: "mails the ticket again to its holder's own address",
  importTickets: 'issues tickets to holders named by e-mail, as upsertTicket',
  updateOrganisation: "the organisation's name, colours and logo",
  createWebhook:
    'sends ticket events to a URL the organisation names; grants no access to act (a candidate for a later step-up: ' +
    'decision 048 keeps to keys, members and the payout account)',
  deleteWebhook: 'stops a webhook',
  redeliverWebhook: 'sends a past event again to the same webhook',
  postOrgDoorKeys:
    "admits tickets at the door of the organisation's events only, and door staff make them at the gate (a candidate " +
    'for a later step-up, as createWebhook)',
  deleteOrgDoorKeysById: 'takes door access away',
  putEventExchange: "the event's exchange rules",
  releaseToExchange:
    "offers the organisation's tickets for sale; the money goes to the payout account set up with a step-up",
  setRefundPolicy: "the event's refund rules",
  approveRefundRequest: "records the organiser's refund, made in their own shop to the ticket's buyer",
  declineRefundRequest: 'declines a refund request: nothing moves',
};

/** A request that passes each organiser step-up route's validation, so that the step-up check is what answers. */
const SAMPLE: Record<string, { payload?: object; action: string }> = {
  createOrgApiKey: { action: 'api_key' },
  addMember: { payload: { email: 'new-member@harbour.example', role: 'staff' }, action: 'member_add' },
  connectOrganisationPayoutAccount: { payload: { country: 'AU' }, action: 'payout_account' },
  completeOrganisationSandboxOnboarding: {
    payload: { country: 'AU', firstName: 'A', lastName: 'B', birthdate: '1990-01-02', bankAccount: '062-000 12345678' },
    action: 'payout_account',
  },
};

interface Operation {
  method: string;
  path: string;
  operationId: string;
  description?: string;
}

/** The organiser API's routes that change something (not GET), from the API document. */
async function organiserWrites(): Promise<Operation[]> {
  const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json<{
    paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'> & { security?: object[] }>>;
  }>();
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method, op]) => method !== 'get' && op.security?.some((s) => 'organisationApiKey' in s))
      .map(([method, op]) => ({ operationId: op.operationId, description: op.description, method, path })),
  );
}

const asksStepUp = (op: Operation) => op.description?.includes('api.auth.step_up_required') ?? false;

const post = (url: string, token: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(token), ...(payload ? { payload } : {}) });

/** The URL of each organiser step-up route. */
const URL_OF: Record<string, string> = {
  createOrgApiKey: '/v1/org/api-keys',
  addMember: '/v1/org/members',
  connectOrganisationPayoutAccount: '/v1/org/payout-account',
  completeOrganisationSandboxOnboarding: '/v1/org/payout-account/sandbox-onboarding',
};

/** Calls each organiser step-up route in turn with `token` and its sample body. */
async function stepUpCalls(token: string) {
  const answers = [];
  for (const [operationId, sample] of Object.entries(SAMPLE))
    answers.push({
      operationId,
      action: sample.action,
      answer: await post(URL_OF[operationId], token, sample.payload),
    });
  return answers;
}

const messageOf = (body: string): unknown => (body ? (JSON.parse(body) as { message?: unknown }).message : undefined);

/** An organisation owned by `email`, signed in: its API key, the holder token and a console token of that sign-in. */
async function owner(email = 'owner@harbour.example') {
  const org = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug: 'harbour', name: 'Harbour', ownerEmail: email },
  });
  expect(org.statusCode, org.body).toBe(201);
  const { id, apiKey } = org.json<{ id: number; apiKey: string }>();
  const { accessToken } = await t.signIn(email);
  const session = await post('/v1/console/session', accessToken, { organisationId: id });
  expect(session.statusCode, session.body).toBe(200);
  return { apiKey, holderToken: accessToken, consoleToken: session.json<{ accessToken: string }>().accessToken };
}

describe('the console step-up: which organiser routes want it (from the route table)', () => {
  it('every organiser route that changes something asks for a step-up or is named as needing none', async () => {
    const ops = await organiserWrites();
    const unclassified = ops.filter((op) => !asksStepUp(op) && !(op.operationId in NO_STEP_UP));
    expect(unclassified.map((op) => `${op.method} ${op.path} (${op.operationId})`)).toEqual([]);
    expect(
      ops
        .filter(asksStepUp)
        .map((op) => op.operationId)
        .sort(),
    ).toEqual(Object.keys(SAMPLE).sort());
    const ids = new Set(ops.map((op) => op.operationId));
    expect(Object.keys(NO_STEP_UP).filter((id) => !ids.has(id) || SAMPLE[id])).toEqual([]);
  });
});

describe('the console step-up', () => {
  it('each refuses a console token whose sign-in is older than 5 minutes, and takes it after an e-mailed code', async () => {
    const { holderToken, consoleToken } = await owner();
    t.clock.advance(5 * MINUTE); // the sign-in helper already moved the clock 61 s on
    for (const { operationId, action, answer } of await stepUpCalls(consoleToken)) {
      expect(answer.statusCode, `${operationId}: ${answer.body}`).toBe(403);
      expect(answer.json(), operationId).toEqual({
        message: 'api.auth.step_up_required',
        action,
        maxAgeSeconds: 300,
        detail: expect.stringContaining('console token') as string,
      });
    }
    // The step-up is asked for and checked with the holder token of the same sign-in; the mail names the action.
    expect((await post('/v1/auth/step-up', holderToken, { action: 'api_key' })).statusCode).toBe(200);
    const mail = t.mail.sent.at(-1)!;
    expect(mail.subject).toMatch(/is your code to create an API key for your organisation$/);
    const otp = t.mail.lastCodeFor('owner@harbour.example');
    expect((await post('/v1/auth/step-up/verify', holderToken, { otp })).statusCode).toBe(200);
    for (const { operationId, answer } of await stepUpCalls(consoleToken))
      expect(messageOf(answer.body), `${operationId}: ${answer.body}`).not.toBe('api.auth.step_up_required');
    const key = await post('/v1/org/api-keys', consoleToken);
    expect(key.statusCode, key.body).toBe(201);
    expect(key.json<{ apiKey: string }>().apiKey).toMatch(/^tpk_/);
  });

  it("a passkey of the owner's account is a proof too", async () => {
    const { holderToken, consoleToken } = await owner();
    const device = testAuthenticator(t.config.publicUrl);
    type CreationOptions = z.infer<typeof auth.passkeyCreationOptions>;
    type RequestOptions = z.infer<typeof auth.passkeyRequestOptions>;
    const { options } = (await post('/v1/auth/passkeys/register/options', holderToken)).json<{
      options: CreationOptions;
    }>();
    const made = device.register(options);
    expect((await post('/v1/auth/passkeys/register', holderToken, { response: made.response })).statusCode).toBe(201);
    t.clock.advance(6 * MINUTE);
    expect(messageOf((await post('/v1/org/api-keys', consoleToken)).body)).toBe('api.auth.step_up_required');
    const asked = await post('/v1/auth/step-up/passkey/options', holderToken);
    const response = device.assert(made.passkey, asked.json<{ options: RequestOptions }>().options);
    expect((await post('/v1/auth/step-up/passkey', holderToken, { response })).statusCode).toBe(200);
    expect((await post('/v1/org/api-keys', consoleToken)).statusCode).toBe(201);
  });

  it("another sign-in's step-up proves nothing for this console token", async () => {
    const { consoleToken } = await owner();
    t.clock.advance(6 * MINUTE);
    const { accessToken: other } = await t.signIn('owner@harbour.example');
    expect((await post('/v1/auth/step-up', other, { action: 'api_key' })).statusCode).toBe(200);
    const otp = t.mail.lastCodeFor('owner@harbour.example');
    expect((await post('/v1/auth/step-up/verify', other, { otp })).statusCode).toBe(200);
    expect(messageOf((await post('/v1/org/api-keys', consoleToken)).body)).toBe('api.auth.step_up_required');
  });

  it('an organisation API key (a machine) is never asked, however old any sign-in is', async () => {
    const { apiKey } = await owner();
    t.clock.advance(60 * MINUTE);
    for (const { operationId, answer } of await stepUpCalls(apiKey))
      expect(messageOf(answer.body), `${operationId}: ${answer.body}`).not.toBe('api.auth.step_up_required');
    expect((await post('/v1/org/api-keys', apiKey)).statusCode).toBe(201);
  });

  it('the routes that need none never ask a stale console token', async () => {
    const { consoleToken } = await owner();
    t.clock.advance(10 * MINUTE);
    // The console token's own lifetime (15 minutes) is not over; one that needs no step-up still answers.
    const ops = (await organiserWrites()).filter((op) => op.operationId in NO_STEP_UP);
    for (const op of ops) {
      const r = await t.app.inject({
        method: op.method.toUpperCase() as 'POST',
        url: op.path.replace(/\{(\w+)\}/g, 'x1'),
        headers: bearer(consoleToken),
      });
      expect(messageOf(r.body), op.operationId).not.toBe('api.auth.step_up_required');
    }
  });
});
