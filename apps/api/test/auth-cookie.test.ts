/**
 * The refresh cookie of the embedded panel (issue 13 point 1, decision 012): set at sign-in and on every
 * refresh (rotated), HttpOnly, Secure, SameSite=None, Partitioned (CHIPS), sent only to /v1/auth/; a
 * refresh by cookie only from the service's own origin (CSRF); cleared at logout and when refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp, type TokenPair } from './helper.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ seed: true });
});
afterEach(async () => {
  await t.close();
});

const OWN = 'http://panel.test';

/** The Set-Cookie line of the refresh cookie in an answer. */
function refreshCookie(res: { headers: Record<string, string | string[] | number | undefined> }): string | undefined {
  const raw = res.headers['set-cookie'];
  const lines = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  return lines.find((l) => l.startsWith('tp_refresh='));
}
const valueOf = (line: string | undefined) => line?.split(';')[0]?.slice('tp_refresh='.length) ?? '';

async function signIn(email: string) {
  const r1 = await t.app.inject({ method: 'POST', url: '/v1/auth/signInOrRegisterAndSignIn', payload: { email } });
  const session = r1.json<{ sessionId: string }>().sessionId;
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/verifyLoginRequest',
    payload: { email, session, otp: t.mail.lastCodeFor(email) },
  });
  expect(res.statusCode).toBe(200);
  return { tokens: res.json<TokenPair>(), cookie: refreshCookie(res) };
}

const refreshByCookie = (cookie: string, origin: string | null) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/auth/refresh',
    payload: {},
    cookies: { tp_refresh: cookie },
    headers: origin ? { origin } : {},
  });

describe('the refresh cookie', () => {
  it('is set at sign-in with the refresh token: HttpOnly, Secure, SameSite=None, Partitioned, on /v1/auth/', async () => {
    const { tokens, cookie } = await signIn('alice@example.com');
    expect(valueOf(cookie)).toBe(tokens.refreshToken);
    const attrs = cookie!.split(/;\s*/).map((a) => a.toLowerCase());
    expect(attrs).toEqual(
      expect.arrayContaining(['httponly', 'secure', 'samesite=none', 'partitioned', 'path=/v1/auth/']),
    );
    expect(attrs).toContain(`max-age=${t.config.refreshTokenTtlSeconds}`);
  });

  it('refreshes from the service’s own origin and is rotated on every use', async () => {
    const { cookie } = await signIn('alice@example.com');
    const r = await refreshByCookie(valueOf(cookie), OWN);
    expect(r.statusCode).toBe(200);
    const next = r.json<TokenPair>();
    expect(valueOf(refreshCookie(r))).toBe(next.refreshToken);
    expect(next.refreshToken).not.toBe(valueOf(cookie));
    expect((await t.app.inject({ url: '/v1/auth/me', headers: bearer(next.accessToken) })).statusCode).toBe(200);
    // A refresh with the token in the body (the standalone panel) rotates the cookie too.
    const body = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/refresh',
      payload: { refreshToken: next.refreshToken },
    });
    expect(valueOf(refreshCookie(body))).toBe(body.json<TokenPair>().refreshToken);
  });

  it('is not usable from another site or without Origin: no token, no rotation', async () => {
    const { cookie } = await signIn('alice@example.com');
    for (const origin of ['http://evil.test', 'null']) {
      const r = await refreshByCookie(valueOf(cookie), origin);
      expect(r.statusCode).toBe(403);
      expect(r.json()).toEqual({ message: 'api.auth.cross_site_request' });
      expect(refreshCookie(r)).toBeUndefined();
    }
    const r = await refreshByCookie(valueOf(cookie), null);
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual({ message: 'api.auth.token_not_authorized' });
    // The holder's cookie was not rotated by those attempts: it still works from the panel.
    expect((await refreshByCookie(valueOf(cookie), OWN)).statusCode).toBe(200);
  });

  it('is cleared when refused and at logout; a logged-out cookie no longer refreshes', async () => {
    const refused = await refreshByCookie('not-a-token', OWN);
    expect(refused.statusCode).toBe(401);
    expect(refreshCookie(refused)).toMatch(/^tp_refresh=;.*Expires=Thu, 01 Jan 1970/i);
    expect(refreshCookie(refused)).toMatch(/Partitioned/);

    const { tokens, cookie } = await signIn('bob@example.com');
    const out = await t.app.inject({ url: '/v1/auth/logout', headers: bearer(tokens.accessToken) });
    expect(out.statusCode).toBe(204);
    expect(refreshCookie(out)).toMatch(/^tp_refresh=;.*Expires=Thu, 01 Jan 1970/i);
    expect((await refreshByCookie(valueOf(cookie), OWN)).statusCode).toBe(401);
  });

  it('without cookie and without body token is 401', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/v1/auth/refresh', payload: {}, headers: { origin: OWN } });
    expect(r.statusCode).toBe(401);
  });
});

/** A POST as a plain HTML form (or a no-CORS fetch) on another site could send it. */
function crossSitePost(url: string, body: string, contentType: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, payload: body, headers: { 'content-type': contentType, ...headers } });
}

describe('login CSRF by cookie planting (issue 19, break 2)', () => {
  it('refuses form-encoded, multipart and text/plain bodies to every cookie-setting route with 403, setting no cookie', async () => {
    const attacker = (await signIn('mallory@example.com')).tokens;
    const boundary = 'xyz';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="refreshToken"\r\n\r\n${attacker.refreshToken}\r\n--${boundary}--\r\n`;
    const bodies: [string, string][] = [
      [`refreshToken=${attacker.refreshToken}`, 'application/x-www-form-urlencoded'],
      [multipart, `multipart/form-data; boundary=${boundary}`],
      [JSON.stringify({ refreshToken: attacker.refreshToken }), 'text/plain'],
    ];
    for (const [body, type] of bodies)
      for (const origin of [{ origin: 'http://evil.test' }, { origin: OWN }, {}] as Record<string, string>[]) {
        const r = await crossSitePost('/v1/auth/refresh', body, type, origin);
        expect(r.statusCode, `${type} ${JSON.stringify(origin)}`).toBe(403);
        expect(r.json()).toEqual({ message: 'api.auth.cross_site_request' });
        expect(refreshCookie(r)).toBeUndefined();
      }
    const verify = await crossSitePost(
      '/v1/auth/verifyLoginRequest',
      'email=mallory%40example.com&session=x&otp=123456',
      'application/x-www-form-urlencoded',
      { origin: 'http://evil.test' },
    );
    expect(verify.statusCode).toBe(403);
    expect(refreshCookie(verify)).toBeUndefined();
  });

  it('refuses JSON that a browser marks as from another origin (Origin, or Sec-Fetch-Site without Origin)', async () => {
    const attacker = (await signIn('mallory@example.com')).tokens;
    const json = JSON.stringify({ refreshToken: attacker.refreshToken });
    for (const headers of [
      { origin: 'http://evil.test' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'http://evil.test', 'sec-fetch-site': 'same-origin' },
    ] as Record<string, string>[]) {
      const r = await crossSitePost('/v1/auth/refresh', json, 'application/json', headers);
      expect(r.statusCode, JSON.stringify(headers)).toBe(403);
      expect(refreshCookie(r)).toBeUndefined();
    }
  });

  it('answers JSON from its own pages and from clients that are not browsers (no Origin, no Sec-Fetch-Site)', async () => {
    const { tokens } = await signIn('mallory@example.com');
    const own = await crossSitePost(
      '/v1/auth/refresh',
      JSON.stringify({ refreshToken: tokens.refreshToken }),
      'application/json; charset=utf-8',
      { origin: OWN, 'sec-fetch-site': 'same-origin' },
    );
    expect(own.statusCode).toBe(200);
    const app = await crossSitePost(
      '/v1/auth/refresh',
      JSON.stringify({ refreshToken: own.json<TokenPair>().refreshToken }),
      'application/json',
    );
    expect(app.statusCode).toBe(200);
    expect(valueOf(refreshCookie(app))).toBe(app.json<TokenPair>().refreshToken);
  });
});
