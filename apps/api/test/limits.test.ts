/**
 * Limits added by issue 19, break 8: wrong organisation and admin keys per IP (one bucket for both), the
 * organisation API per organisation, account export and pass-credential issue per holder, door sync per IP.
 * Each test sets a small limit and shows the request past it answering 429 `api.too_many_requests`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const KEY = 'door-key-for-tests';
let t: TestApp;
afterEach(async () => {
  await t.close();
});

async function statuses(n: number, send: () => Promise<{ statusCode: number }>): Promise<number[]> {
  const out = [];
  for (let i = 0; i < n; i++) out.push((await send()).statusCode);
  return out;
}

describe('issue 19 limits', () => {
  it('wrong organisation and admin keys share one per-IP bucket of failures; past it the address is locked out of the admin API, the right key too', async () => {
    t = await createTestApp({ config: { adminKey: ADMIN, keyFailuresPerMinute: 4 } });
    const admin = (key: string, remoteAddress = '203.0.113.5') =>
      t.app.inject({
        method: 'POST',
        url: '/v1/admin/organisations',
        headers: bearer(key),
        payload: { slug: `s${Math.random().toString(36).slice(2, 8)}`, name: 'X' },
        remoteAddress,
      });
    const org = (key: string) =>
      t.app.inject({ url: '/v1/org/webhooks', headers: bearer(key), remoteAddress: '203.0.113.5' });
    const wrong = [
      ...(await statuses(2, () => admin('guess'))),
      ...(await statuses(2, () => org('tpk_abcdefgh_wrong'))),
      ...(await statuses(2, () => admin('guess-again'))),
    ];
    expect(wrong).toEqual([401, 401, 401, 401, 429, 429]);
    expect((await admin('guess', '203.0.113.6')).statusCode).toBe(401);
    // Issue 39 item 11: the right ADMIN_KEY gets the same 429 from the locked-out address (else a 429 only means
    // "wrong" and guessing goes on), and is answered from any other.
    const locked = await admin(ADMIN);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ message: 'api.too_many_requests' });
    expect((await admin(ADMIN, '198.51.100.20')).statusCode).toBe(201);
    // Organisation keys are random, never guessed: a right one still passes from the locked-out address.
    const { apiKey } = (await admin(ADMIN, '198.51.100.20')).json<{ apiKey: string }>();
    expect((await org(apiKey)).statusCode).toBe(200);
  });

  it('limits the organisation API per organisation, whatever the client address', async () => {
    t = await createTestApp({ config: { adminKey: ADMIN, orgApiPerMinute: 3 } });
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/organisations',
      headers: bearer(ADMIN),
      payload: { slug: 'acme', name: 'Acme' },
    });
    const { apiKey } = created.json<{ apiKey: string }>();
    let ip = 0;
    const list = () =>
      t.app.inject({ url: '/v1/org/webhooks', headers: bearer(apiKey), remoteAddress: `198.51.100.${++ip}` });
    expect(await statuses(4, list)).toEqual([200, 200, 200, 429]);
  });

  it('limits account exports and pass credentials per holder', async () => {
    t = await createTestApp({ seed: true, config: { accountExportsPerMinute: 2, passCredentialsPerMinute: 2 } });
    const { accessToken } = await t.signIn('alice@example.com');
    const exportData = () => t.app.inject({ url: '/v1/auth/export', headers: bearer(accessToken) });
    expect(await statuses(3, exportData)).toEqual([200, 200, 429]);
    const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify']);
    const pub = Buffer.from(await crypto.subtle.exportKey('raw', pair.publicKey)).toString('base64url');
    const credential = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/auth/access/pass-credential',
        headers: bearer(accessToken),
        payload: { devicePublicKey: pub },
      });
    expect(await statuses(3, credential)).toEqual([200, 200, 429]);
  });

  it('limits door sync batches per IP with the right scanner key', async () => {
    t = await createTestApp({ seed: true, config: { scannerKey: KEY, doorSyncPerMinute: 2 } });
    const sync = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/access/sync',
        headers: { 'x-scanner-key': KEY },
        payload: { eventId: 1, items: [] },
      });
    const [a, b, c] = await statuses(3, sync);
    expect([a, b].every((s) => s !== 429)).toBe(true);
    expect(c).toBe(429);
  });
});
