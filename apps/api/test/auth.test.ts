/** Sign-in and token rules (issue: the spine; OWASP ASVS 2.7 / NIST 800-63B). */
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { loginRequests } from '../src/db/schema.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rawQuery, bearer, createTestApp, type TestApp, type SignInBody, type TokenPair } from './helper.js';
import type { ErrorBody, User } from '@tp/contract';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ seed: true });
});
afterEach(async () => {
  await t.close();
});

const requestCode = (email: string, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/v1/auth/signInOrRegisterAndSignIn', payload: { email }, remoteAddress: ip });
const verify = (email: string, session: string, otp: string) =>
  t.app.inject({ method: 'POST', url: '/v1/auth/verifyLoginRequest', payload: { email, session, otp } });
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('code request', () => {
  it('mails a 6-digit code and answers the same whether the account exists or not', async () => {
    const known = await requestCode('alice@example.com');
    const unknown = await requestCode('nobody@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(Object.keys(known.json())).toEqual(['sessionId', 'resendAfterSeconds']);
    expect(Object.keys(unknown.json())).toEqual(['sessionId', 'resendAfterSeconds']);
    expect(t.mail.lastCodeFor('alice@example.com')).toMatch(/^\d{6}$/);
    expect(t.mail.lastCodeFor('nobody@example.com')).toMatch(/^\d{6}$/);
  });

  it('stores only a salted hash of the code', async () => {
    await requestCode('alice@example.com');
    const code = t.mail.lastCodeFor('alice@example.com');
    const rows = await rawQuery<Record<string, unknown>>(t.database.db, 'select * from login_requests');
    const dump = JSON.stringify(rows.rows ?? rows);
    expect(dump).not.toContain(`"${code}"`);
    expect(dump).toMatch(/"salt":"[0-9a-f]{32}"/);
  });

  it('hashes the code with HMAC-SHA256 under the server pepper, not a slow hash on the event loop', async () => {
    await requestCode('alice@example.com');
    const code = t.mail.lastCodeFor('alice@example.com');
    const [row] = await t.database.db
      .select({ codeHash: loginRequests.codeHash, salt: loginRequests.salt })
      .from(loginRequests)
      .where(eq(loginRequests.email, 'alice@example.com'));
    const expected = createHmac('sha256', t.config.otpPepper).update(`${row.salt}:${code}`).digest('hex');
    expect(row.codeHash).toBe(expected);
    // The pepper is a key of its own: neither the JWT secret nor a hash anyone can recompute without it.
    expect(Buffer.from(t.config.otpPepper).equals(Buffer.from(t.config.jwtSecret))).toBe(false);
    expect(row.codeHash).not.toBe(createHmac('sha256', t.config.jwtSecret).update(`${row.salt}:${code}`).digest('hex'));
  });

  it('refuses a new code for the same e-mail within a minute (429 with Retry-After)', async () => {
    const first = await requestCode('alice@example.com');
    expect(first.statusCode).toBe(200);
    // The answer says how long until "Resend code" works (OTP_RESEND_SECONDS), so the OTP screen counts down.
    expect(first.json()).toMatchObject({ resendAfterSeconds: t.config.otpResendSeconds });
    expect(t.config.otpResendSeconds).toBe(60);
    t.clock.advance(20_000);
    const again = await requestCode('alice@example.com');
    expect(again.statusCode).toBe(429);
    // Issue 23: the code already sent is still open, so the answer names its session and the countdown.
    const firstSession = first.json<SignInBody>().sessionId;
    expect(again.json()).toEqual({
      message: 'api.auth.resend_too_soon',
      sessionId: firstSession,
      resendAfterSeconds: 40,
    });
    expect(Number(again.headers['retry-after'])).toBe(40);
    expect(t.mail.sent.filter((m) => m.to === 'alice@example.com')).toHaveLength(1);
    t.clock.advance(41_000);
    expect((await requestCode('alice@example.com')).statusCode).toBe(200);
  });

  it('the session named by resend_too_soon signs in with the code already mailed (issue 23)', async () => {
    await requestCode('alice@example.com');
    const code = t.mail.lastCodeFor('alice@example.com');
    t.clock.advance(5_000);
    const again = (await requestCode('alice@example.com')).json<ErrorBody>();
    const tokens = await verify('alice@example.com', again.sessionId!, code);
    expect(tokens.statusCode).toBe(200);
    expect(tokens.json<TokenPair>().accessToken).toBeTruthy();
  });

  it('names no session within the resend window once the code is used or out of attempts', async () => {
    const used = (await requestCode('alice@example.com')).json<SignInBody>();
    expect(
      (await verify('alice@example.com', used.sessionId, t.mail.lastCodeFor('alice@example.com'))).statusCode,
    ).toBe(200);
    const afterUse = await requestCode('alice@example.com');
    expect(afterUse.statusCode).toBe(429);
    expect(afterUse.json()).toEqual({ message: 'api.auth.resend_too_soon' });

    const spent = (await requestCode('bob@example.com')).json<SignInBody>();
    const code = t.mail.lastCodeFor('bob@example.com');
    for (let i = 0; i < t.config.otpMaxAttempts; i++) await verify('bob@example.com', spent.sessionId, wrong(code));
    const afterAttempts = await requestCode('bob@example.com');
    expect(afterAttempts.statusCode).toBe(429);
    expect(afterAttempts.json()).toEqual({ message: 'api.auth.resend_too_soon' });
  });

  it('limits code requests per IP', async () => {
    const limited = await createTestApp({ config: { otpRequestsPerIpPerMinute: 3 } });
    try {
      const codes = [];
      for (let i = 0; i < 4; i++) {
        codes.push(
          (
            await limited.app.inject({
              method: 'POST',
              url: '/v1/auth/signInOrRegisterAndSignIn',
              payload: { email: `u${i}@example.com` },
              remoteAddress: '10.0.0.9',
            })
          ).statusCode,
        );
      }
      expect(codes).toEqual([200, 200, 200, 429]);
      const other = await limited.app.inject({
        method: 'POST',
        url: '/v1/auth/signInOrRegisterAndSignIn',
        payload: { email: 'x@example.com' },
        remoteAddress: '10.0.0.10',
      });
      expect(other.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('limits code verifications per IP', async () => {
    const limited = await createTestApp({ config: { otpVerifiesPerIpPerMinute: 2 } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        statuses.push(
          (
            await limited.app.inject({
              method: 'POST',
              url: '/v1/auth/verifyLoginRequest',
              payload: { email: 'a@example.com', session: 'nope', otp: '123456' },
              remoteAddress: '10.0.0.9',
            })
          ).statusCode,
        );
      }
      expect(statuses).toEqual([400, 400, 429]);
    } finally {
      await limited.close();
    }
  });

  it('answers 400 with field errors for a bad e-mail, unknown fields and wrong types', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signInOrRegisterAndSignIn',
      payload: { email: 'not-an-email' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorBody>().message).toBe('api.invalid_request_body');
    expect(bad.json<ErrorBody>().fields).toHaveProperty('email');
    const extra = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signInOrRegisterAndSignIn',
      payload: { email: 'a@example.com', admin: true },
    });
    expect(extra.statusCode).toBe(400);
    const type = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signInOrRegisterAndSignIn',
      payload: { email: 42 },
    });
    expect(type.statusCode).toBe(400);
    const json = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signInOrRegisterAndSignIn',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({ message: 'api.invalid_request_body' });
  });
});

describe('code verification', () => {
  it('signs in a new e-mail, creating the account with a neutral nickname and a numeric suffix', async () => {
    const tokens = await t.signIn('New.Person@Example.com');
    const me = await t.app.inject({ url: '/v1/auth/me', headers: bearer(tokens.accessToken) });
    expect(me.statusCode).toBe(200);
    const user = me.json<User>();
    expect(user.email).toBe('new.person@example.com');
    expect(user.givenName).toBeNull();
    expect(user.preferredUsername).toMatch(/^guest#\d{4,}$/);
    expect(user.uniqueID).toBe(`#${user.preferredUsername.split('#').pop()}`);
  });

  it('accepts a code once only', async () => {
    const { sessionId } = (await requestCode('alice@example.com')).json<SignInBody>();
    const code = t.mail.lastCodeFor('alice@example.com');
    expect((await verify('alice@example.com', sessionId, code)).statusCode).toBe(200);
    const reuse = await verify('alice@example.com', sessionId, code);
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json<ErrorBody>().message).toBe('api.auth.login_session_failed');
  });

  it('refuses an expired code (10 minutes)', async () => {
    const { sessionId } = (await requestCode('alice@example.com')).json<SignInBody>();
    const code = t.mail.lastCodeFor('alice@example.com');
    t.clock.advance(10 * 60_000 + 1000);
    const r = await verify('alice@example.com', sessionId, code);
    expect(r.statusCode).toBe(400);
    expect(r.json<ErrorBody>().message).toBe('api.auth.otp_expired');
  });

  it('accepts a code just before it expires', async () => {
    const { sessionId } = (await requestCode('alice@example.com')).json<SignInBody>();
    const code = t.mail.lastCodeFor('alice@example.com');
    t.clock.advance(9 * 60_000 + 59_000);
    expect((await verify('alice@example.com', sessionId, code)).statusCode).toBe(200);
  });

  it('ends the sign-in after 5 wrong codes, even if the right one comes next', async () => {
    const { sessionId } = (await requestCode('alice@example.com')).json<SignInBody>();
    const code = t.mail.lastCodeFor('alice@example.com');
    const messages = [];
    for (let i = 0; i < 5; i++)
      messages.push((await verify('alice@example.com', sessionId, wrong(code))).json<ErrorBody>().message);
    expect(messages).toEqual([
      'api.auth.wrong_otp',
      'api.auth.wrong_otp',
      'api.auth.wrong_otp',
      'api.auth.wrong_otp',
      'api.auth.otp_attempts_exceeded',
    ]);
    const right = await verify('alice@example.com', sessionId, code);
    expect(right.statusCode).toBe(400);
    expect(right.json<ErrorBody>().message).toBe('api.auth.login_session_failed');
  });

  it('accepts the right code after 4 wrong ones', async () => {
    const { sessionId } = (await requestCode('alice@example.com')).json<SignInBody>();
    const code = t.mail.lastCodeFor('alice@example.com');
    for (let i = 0; i < 4; i++) await verify('alice@example.com', sessionId, wrong(code));
    expect((await verify('alice@example.com', sessionId, code)).statusCode).toBe(200);
  });

  it('only the latest code of an e-mail works: a newer code supersedes the earlier one', async () => {
    const first = (await requestCode('alice@example.com')).json<SignInBody>().sessionId;
    const firstCode = t.mail.lastCodeFor('alice@example.com');
    t.clock.advance(61_000);
    const second = (await requestCode('alice@example.com')).json<SignInBody>().sessionId;
    const secondCode = t.mail.lastCodeFor('alice@example.com');
    const old = await verify('alice@example.com', first, firstCode);
    expect(old.statusCode).toBe(400);
    expect(old.json<ErrorBody>().message).toBe('api.auth.login_session_failed');
    expect((await verify('alice@example.com', second, secondCode)).statusCode).toBe(200);
  });

  it('a spent sign-in answers with a new sessionId and mails a new code, within the code-request limits (issue 28)', async () => {
    const { sessionId } = (await requestCode('alice@example.com')).json<SignInBody>();
    const code = t.mail.lastCodeFor('alice@example.com');
    const mails = () => t.mail.sent.filter((m) => m.to === 'alice@example.com').length;
    for (let i = 0; i < 4; i++) await verify('alice@example.com', sessionId, wrong(code));
    // Attempts run out within the per-e-mail resend window: no new code yet, and Retry-After says when.
    const spent = await verify('alice@example.com', sessionId, wrong(code));
    expect(spent.json()).toEqual({ message: 'api.auth.otp_attempts_exceeded' });
    expect(Number(spent.headers['retry-after'])).toBeGreaterThan(0);
    expect(mails()).toBe(1);
    // After the window, the closed session hands out a new one with a new code; the old code stays dead.
    t.clock.advance(61_000);
    const closed = await verify('alice@example.com', sessionId, code);
    expect(closed.statusCode).toBe(400);
    const body = closed.json<ErrorBody>();
    expect(body.message).toBe('api.auth.login_session_failed');
    expect(body.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.sessionId).not.toBe(sessionId);
    expect(mails()).toBe(2);
    const next = t.mail.lastCodeFor('alice@example.com');
    // No new guessing budget past a code request's: spending the new session at once gives nothing more.
    for (let i = 0; i < 5; i++) await verify('alice@example.com', body.sessionId!, wrong(next));
    const again = await verify('alice@example.com', body.sessionId!, next);
    expect(again.json()).toEqual({ message: 'api.auth.login_session_failed' });
    expect(mails()).toBe(2);
    // An expired code answers with a new session too, and the next code signs in.
    t.clock.advance(10 * 60_000 + 1000);
    const expired = await verify('alice@example.com', body.sessionId!, next);
    expect(expired.json<ErrorBody>().message).toBe('api.auth.login_session_failed');
    const fresh = expired.json<ErrorBody>().sessionId!;
    expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
    expect((await verify('alice@example.com', fresh, t.mail.lastCodeFor('alice@example.com'))).statusCode).toBe(200);
  });

  it('an expired code answers otp_expired with a new session; unknown sessions send nothing', async () => {
    const { sessionId } = (await requestCode('alice@example.com')).json<SignInBody>();
    t.clock.advance(10 * 60_000 + 1000);
    const r = await verify('alice@example.com', sessionId, t.mail.lastCodeFor('alice@example.com'));
    expect(r.json<ErrorBody>().message).toBe('api.auth.otp_expired');
    const next = r.json<ErrorBody>().sessionId!;
    expect((await verify('alice@example.com', next, t.mail.lastCodeFor('alice@example.com'))).statusCode).toBe(200);
    const before = t.mail.sent.length;
    const unknown = await verify('bob@example.com', '00000000-0000-4000-8000-000000000000', '123456');
    expect(unknown.json()).toEqual({ message: 'api.auth.login_session_failed' });
    const other = await verify('bob@example.com', sessionId, '123456');
    expect(other.json()).toEqual({ message: 'api.auth.login_session_failed' });
    expect(t.mail.sent.length).toBe(before);
  });

  it('a new code from a spent sign-in counts against the per-IP code-request limit (issue 28)', async () => {
    const limited = await createTestApp({ config: { otpRequestsPerIpPerMinute: 1 } });
    try {
      const at = (url: string, payload: object) =>
        limited.app.inject({ method: 'POST', url: `/v1/auth/${url}`, payload, remoteAddress: '10.0.0.7' });
      const emails = ['a1@example.com', 'a2@example.com'];
      const sessions: string[] = [];
      for (const email of emails) {
        const r = await limited.app.inject({
          method: 'POST',
          url: '/v1/auth/signInOrRegisterAndSignIn',
          payload: { email },
          remoteAddress: `10.0.1.${sessions.length}`,
        });
        sessions.push(r.json<SignInBody>().sessionId);
      }
      limited.clock.advance(10 * 60_000 + 1000);
      const first = await at('verifyLoginRequest', { email: emails[0], session: sessions[0], otp: '000000' });
      expect(first.json<ErrorBody>().sessionId).toBeDefined();
      const second = await at('verifyLoginRequest', { email: emails[1], session: sessions[1], otp: '000000' });
      expect(second.json()).toEqual({ message: 'api.auth.otp_expired' });
    } finally {
      await limited.close();
    }
  });

  it('refuses a session presented with another e-mail', async () => {
    const { sessionId } = (await requestCode('alice@example.com')).json<SignInBody>();
    const r = await verify('bob@example.com', sessionId, t.mail.lastCodeFor('alice@example.com'));
    expect(r.json<ErrorBody>().message).toBe('api.auth.login_session_failed');
  });
});

describe('tokens', () => {
  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refreshToken } });

  it('rejects a missing, forged or expired access token with 401', async () => {
    expect((await t.app.inject({ url: '/v1/auth/me' })).statusCode).toBe(401);
    const { accessToken } = await t.signIn('alice@example.com');
    const [h, p] = accessToken.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    expect((await t.app.inject({ url: '/v1/auth/me', headers: bearer(none) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/v1/auth/me', headers: bearer(`${h}.${p}.AAAA`) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/v1/auth/me', headers: bearer(accessToken) })).statusCode).toBe(200);
    t.clock.advance(15 * 60_000 + 1000);
    const expired = await t.app.inject({ url: '/v1/auth/me', headers: bearer(accessToken) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ message: 'api.unauthorized' });
  });

  it('accepts a token only with HS256, its audience and issuer present, an unexpired exp and no future nbf', async () => {
    const { SignJWT } = await import('jose');
    const { accessToken } = await t.signIn('alice@example.com');
    const issued = JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const { sid, sub } = issued as { sid: string; sub: string };
    const now = Math.floor(t.clock.now().getTime() / 1000);
    // What we sign: our audience and issuer, when it was issued (the sign-in moved the clock), for 15 minutes.
    expect(issued).toEqual({
      sub,
      sid,
      aud: 'ticket-panel',
      iss: 'http://panel.test',
      iat: expect.any(Number) as number,
      exp: (issued.iat as number) + 900,
    });
    expect(issued.iat).toBeLessThanOrEqual(now);
    const token = (change: {
      alg?: string;
      aud?: string | null;
      iss?: string | null;
      exp?: number | null;
      nbf?: number;
    }) => {
      const jwt = new SignJWT({ sid, ...(change.nbf !== undefined && { nbf: change.nbf }) })
        .setProtectedHeader({ alg: change.alg ?? 'HS256' })
        .setSubject(sub)
        .setIssuedAt(now);
      if (change.aud !== null) jwt.setAudience(change.aud ?? 'ticket-panel');
      if (change.iss !== null) jwt.setIssuer(change.iss ?? 'http://panel.test');
      if (change.exp !== null) jwt.setExpirationTime(change.exp ?? now + 300);
      return jwt.sign(t.config.jwtSecret);
    };
    const status = async (jwt: Promise<string>) =>
      (await t.app.inject({ url: '/v1/auth/me', headers: bearer(await jwt) })).statusCode;
    // Signed by another library with the right claims: accepted (so each refusal below is for its one change).
    expect(await status(token({}))).toBe(200);
    expect(await status(token({ aud: 'someone-else' }))).toBe(401);
    expect(await status(token({ aud: 'ticket-console' }))).toBe(401);
    expect(await status(token({ aud: null }))).toBe(401);
    expect(await status(token({ iss: null }))).toBe(401);
    expect(await status(token({ iss: 'https://elsewhere.example' }))).toBe(401);
    expect(await status(token({ alg: 'HS512' }))).toBe(401);
    expect(await status(token({ exp: null }))).toBe(401);
    expect(await status(token({ exp: now }))).toBe(401);
    expect(await status(token({ nbf: now + 60 }))).toBe(401);
  });

  it('rotates the refresh token on every use', async () => {
    const first = await t.signIn('alice@example.com');
    const r = await refresh(first.refreshToken);
    expect(r.statusCode).toBe(200);
    const second = r.json<TokenPair>();
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect((await t.app.inject({ url: '/v1/auth/me', headers: bearer(second.accessToken) })).statusCode).toBe(200);
    expect((await refresh(second.refreshToken)).statusCode).toBe(200);
  });

  it('accepts a just-rotated token within the grace window (parallel tabs)', async () => {
    const first = await t.signIn('alice@example.com');
    expect((await refresh(first.refreshToken)).statusCode).toBe(200);
    t.clock.advance(5_000);
    expect((await refresh(first.refreshToken)).statusCode).toBe(200);
  });

  it('revokes the whole sign-in when a rotated token is replayed after the grace window', async () => {
    const first = await t.signIn('alice@example.com');
    const second = (await refresh(first.refreshToken)).json<TokenPair>();
    t.clock.advance(11_000);
    const replay = await refresh(first.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: 'api.auth.token_not_authorized' });
    // The thief's replay also kills the legitimate holder's newer tokens.
    expect((await refresh(second.refreshToken)).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/v1/auth/me', headers: bearer(second.accessToken) })).statusCode).toBe(401);
  });

  it('logout revokes the access and refresh tokens of that sign-in only', async () => {
    const a = await t.signIn('alice@example.com');
    const b = await t.signIn('alice@example.com');
    const out = await t.app.inject({ url: '/v1/auth/logout', headers: bearer(a.accessToken) });
    expect(out.statusCode).toBe(204);
    expect((await t.app.inject({ url: '/v1/auth/me', headers: bearer(a.accessToken) })).statusCode).toBe(401);
    expect((await refresh(a.refreshToken)).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/v1/auth/me', headers: bearer(b.accessToken) })).statusCode).toBe(200);
  });

  it('refresh tokens have an absolute lifetime', async () => {
    let tokens = await t.signIn('alice@example.com');
    for (let day = 0; day < 29; day++) {
      t.clock.advance(24 * 3600_000);
      const r = await refresh(tokens.refreshToken);
      expect(r.statusCode).toBe(200);
      tokens = r.json<TokenPair>();
    }
    t.clock.advance(2 * 24 * 3600_000);
    expect((await refresh(tokens.refreshToken)).statusCode).toBe(401);
  });

  it('an unknown refresh token is 401, a malformed body 400', async () => {
    expect((await refresh('nope')).statusCode).toBe(401);
    const malformed = { refreshToken: 5 };
    expect((await t.app.inject({ method: 'POST', url: '/v1/auth/refresh', payload: malformed })).statusCode).toBe(400);
    // No token in the body and no refresh cookie (decision 012): nothing to refresh.
    expect((await t.app.inject({ method: 'POST', url: '/v1/auth/refresh', payload: {} })).statusCode).toBe(401);
  });
});
