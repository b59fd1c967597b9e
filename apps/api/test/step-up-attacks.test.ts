/**
 * Step-up (issue 47, decision 048) under attack: someone holds a victim's access or refresh token (taken from a
 * device) but not the mailbox, and wants a ticket or money to move without the e-mailed code. Each probe tries one
 * way to get or stretch the proof without the code: refresh rotation, a console token, another session's code, a
 * logged-out or deleted session, hostile bodies, guessing across new codes, the clock's edges. Parallel guesses on
 * two instances are in step-up-race.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const MINUTE = 60_000;
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ seed: true, config: { adminKey: ADMIN } });
});
afterEach(async () => {
  await t.close();
});

const post = (token: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: bearer(token),
    ...(payload !== undefined ? { payload: payload as object | string } : {}),
  });
const ask = (token: string, action = 'gift') => post(token, '/v1/auth/step-up', { action });
const check = (token: string, otp: unknown) => post(token, '/v1/auth/step-up/verify', { otp });
/** Signing out everywhere: a step-up route with no body, so the step-up check is what answers. */
const signOutOthers = (token: string) => post(token, '/v1/auth/logout-others');
const messageOf = (r: { body: string }) => (JSON.parse(r.body) as { message?: string }).message;

/** A sign-in of `email` whose proof (the sign-in itself) is stale: older than 5 minutes. */
async function staleSignIn(email = 'alice@example.com') {
  const pair = await t.signIn(email);
  t.clock.advance(5 * MINUTE); // the sign-in helper already moved the clock 61 s on
  return pair;
}

describe('step-up: the proof cannot be had or stretched without the code', () => {
  it('refresh rotation gives new tokens of the same session, not a new proof', async () => {
    const { refreshToken } = await staleSignIn();
    const refreshed = await t.app.inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refreshToken } });
    expect(refreshed.statusCode).toBe(200);
    const { accessToken } = refreshed.json<{ accessToken: string }>();
    expect(messageOf(await signOutOthers(accessToken))).toBe('api.auth.step_up_required');
  });

  it("a console token is not a holder's token: it reaches neither a step-up route nor the step-up code", async () => {
    const org = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/admin/organisations',
        headers: bearer(ADMIN),
        payload: { slug: 'shows', name: 'Shows', ownerEmail: 'alice@example.com' },
      })
    ).json<{ id: number }>();
    const { accessToken } = await t.signIn('alice@example.com');
    const opened = await post(accessToken, '/v1/console/session', { organisationId: org.id });
    expect(opened.statusCode, opened.body).toBe(200);
    const consoleToken = opened.json<{ accessToken: string }>().accessToken;
    for (const r of [await signOutOthers(consoleToken), await ask(consoleToken), await check(consoleToken, '123456')])
      expect(r.statusCode, r.body).toBe(401);
  });

  it("a code asked for in the victim's other sign-in proves nothing in the thief's", async () => {
    const thief = (await staleSignIn()).accessToken;
    const victim = (await t.signIn('alice@example.com')).accessToken;
    t.clock.advance(5 * MINUTE);
    expect((await ask(victim)).statusCode).toBe(200);
    const code = t.mail.lastCodeFor('alice@example.com');
    expect(messageOf(await check(thief, code))).toBe('api.auth.step_up_no_code');
    expect((await check(victim, code)).statusCode).toBe(200);
    // The victim's proof is the victim's session's alone.
    expect(messageOf(await signOutOthers(thief))).toBe('api.auth.step_up_required');
  });

  it('a logged-out session asks for no code and checks none, even one asked for before', async () => {
    const { accessToken } = await staleSignIn();
    expect((await ask(accessToken)).statusCode).toBe(200);
    const code = t.mail.lastCodeFor('alice@example.com');
    const sent = t.mail.sent.length;
    expect((await t.app.inject({ url: '/v1/auth/logout', headers: bearer(accessToken) })).statusCode).toBe(204);
    t.clock.advance(MINUTE);
    expect((await ask(accessToken)).statusCode).toBe(401);
    expect((await check(accessToken, code)).statusCode).toBe(401);
    expect(t.mail.sent.length).toBe(sent);
  });

  it('an account deleted with a code pending: its session is over, and housekeeping removes both', async () => {
    // A new account (no tickets to wait for): deletion goes through at once.
    const { accessToken } = await t.signIn('carol@example.com');
    expect((await ask(accessToken, 'account_deletion')).statusCode).toBe(200);
    const code = t.mail.lastCodeFor('carol@example.com');
    const deleted = await t.app.inject({ method: 'DELETE', url: '/v1/auth/account', headers: bearer(accessToken) });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await check(accessToken, code)).statusCode).toBe(401);
    t.clock.advance(8 * 24 * 60 * MINUTE); // past the housekeeping's 7 days after the session's end
    expect(await t.app.services.housekeeping.runOnce()).toMatchObject({ sessions: 1 });
    const left = await rawQuery<{ n: number }>(t.database.db, 'select count(*)::int as n from step_up_requests');
    expect(Number(left.rows[0].n)).toBe(0);
  });

  it('hostile bodies answer 400, never 500, and cost the code no try', async () => {
    const { accessToken } = await staleSignIn();
    expect((await ask(accessToken)).statusCode).toBe(200);
    const code = t.mail.lastCodeFor('alice@example.com');
    const fullWidth = [...code].map((d) => String.fromCharCode(0xff10 + Number(d))).join('');
    const arabicIndic = [...code].map((d) => String.fromCharCode(0x0660 + Number(d))).join('');
    const hostile: unknown[] = [
      [code],
      Number(code),
      null,
      {},
      fullWidth,
      arabicIndic,
      `${code}\n`,
      ` ${code}`,
      `${code}0`,
      code.slice(1),
      '9'.repeat(100_000),
      `${code}\u0000`,
    ];
    for (const otp of hostile) {
      const r = await check(accessToken, otp);
      expect(r.statusCode, JSON.stringify(otp).slice(0, 40)).toBe(400);
      expect(messageOf(r)).toBe('api.invalid_request_body');
    }
    for (const body of [{ otp: code, extra: 1 }, [{ otp: code }], 'otp=' + code]) {
      const r = await post(accessToken, '/v1/auth/step-up/verify', body);
      expect([400, 415], r.body).toContain(r.statusCode);
    }
    for (const action of [['gift'], 'GIFT', 'gift ', '__proto__', 'constructor', null]) {
      const r = await ask(accessToken, action as string);
      expect(r.statusCode, r.body).toBe(400);
    }
    const big = await post(accessToken, '/v1/auth/step-up', { action: 'gift', pad: 'x'.repeat(2_000_000) });
    expect(big.statusCode).toBeGreaterThanOrEqual(400);
    expect(big.statusCode).toBeLessThan(500);
    // None of them counted as a try: the code still works.
    expect((await check(accessToken, code)).statusCode).toBe(200);
  });

  it('guessing across new codes: one code a minute, five tries each, and a new code closes the old', async () => {
    const { accessToken } = await staleSignIn();
    let tried = 0;
    for (let minute = 0; minute < 3; minute++) {
      expect((await ask(accessToken)).statusCode).toBe(200);
      // More codes within the minute: refused, nothing mailed.
      const sent = t.mail.sent.length;
      expect((await ask(accessToken)).statusCode).toBe(429);
      expect(t.mail.sent.length).toBe(sent);
      const code = t.mail.lastCodeFor('alice@example.com');
      for (let guess = 0; guess < 20; guess++) {
        const otp = String((Number(code) + 1 + guess) % 1_000_000).padStart(6, '0');
        const m = messageOf(await check(accessToken, otp));
        if (m === 'api.auth.wrong_otp' || m === 'api.auth.otp_attempts_exceeded') tried++;
        else expect(m).toBe('api.auth.step_up_no_code');
      }
      t.clock.advance(MINUTE);
    }
    expect(tried).toBe(15);
    // A new code supersedes the one before it: the old code is dead even unexhausted.
    expect((await ask(accessToken)).statusCode).toBe(200);
    const first = t.mail.lastCodeFor('alice@example.com');
    t.clock.advance(MINUTE);
    expect((await ask(accessToken)).statusCode).toBe(200);
    if (first !== t.mail.lastCodeFor('alice@example.com'))
      expect(messageOf(await check(accessToken, first))).toBe('api.auth.wrong_otp');
  });

  it('the clock edges: a code is dead at its expiry instant, a proof at 300 s is still alive, at 300.001 s not', async () => {
    const signedIn = await t.signIn('alice@example.com');
    expect((await ask(signedIn.accessToken)).statusCode).toBe(200);
    const code = t.mail.lastCodeFor('alice@example.com');
    t.clock.advance(10 * MINUTE); // exactly its expiry
    // A new access token of the same session (the first would outlive its 15 minutes below).
    const { accessToken } = (
      await t.app.inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refreshToken: signedIn.refreshToken } })
    ).json<{ accessToken: string }>();
    expect(messageOf(await check(accessToken, code))).toBe('api.auth.otp_expired');
    expect(messageOf(await check(accessToken, code))).toBe('api.auth.step_up_no_code');

    expect((await ask(accessToken)).statusCode).toBe(200);
    expect((await check(accessToken, t.mail.lastCodeFor('alice@example.com'))).statusCode).toBe(200);
    t.clock.advance(300_000);
    // 300 s: fresh (the route answers its own rule: alice has no other session to sign out).
    expect((await signOutOthers(accessToken)).statusCode).toBe(200);
    t.clock.advance(1);
    expect(messageOf(await signOutOthers(accessToken))).toBe('api.auth.step_up_required');
  });

  it('the refusal comes before the handler: a stale session learns nothing of tickets that are not its own', async () => {
    const { accessToken } = await staleSignIn();
    for (const userTicketId of [1, 2_000_000_000]) {
      const r = await post(accessToken, '/v1/mobile/giftTicket', { userTicketId, username: 'bob#7315' });
      expect(r.json()).toEqual({ message: 'api.auth.step_up_required', action: 'gift', maxAgeSeconds: 300 });
    }
  });
});
