/** QR pass: ttl config, signed code per time step, PNG rendered once per holder per step. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helper.js';

let t: TestApp;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await createTestApp({
    seed: true,
    config: { qrTtlSeconds: 30 },
    start: new Date(Date.UTC(2026, 10, 23, 10, 0, 0)),
  });
  alice = (await t.signIn('alice@example.com')).accessToken;
  bob = (await t.signIn('bob@example.com')).accessToken;
});
afterAll(async () => {
  await t.close();
});

const qr = (token: string) => t.app.inject({ url: '/v1/auth/access/qr', headers: bearer(token) });

describe('QR pass', () => {
  it('gives the ttl in seconds', async () => {
    const r = await t.app.inject({ url: '/v1/auth/access/qrCodeData', headers: bearer(alice) });
    expect(r.json()).toEqual({ ttl: 30 });
  });

  it('serves a base64 PNG, not cached by anyone', async () => {
    const r = await qr(alice);
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(Buffer.from(r.body, 'base64').subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
  });

  it('keeps the image within a step and changes it every ttl', async () => {
    const a = (await qr(alice)).body;
    t.clock.advance(1000);
    expect((await qr(alice)).body).toBe(a);
    t.clock.advance(30_000);
    expect((await qr(alice)).body).not.toBe(a);
  });

  it('differs per holder and renders once per holder per step', async () => {
    t.clock.advance(30_000);
    const before = t.app.services.access.renderCount();
    const [a1, a2, b1, b2] = await Promise.all([qr(alice), qr(alice), qr(bob), qr(bob)]);
    await qr(alice);
    expect(a1.body).toBe(a2.body);
    expect(b1.body).toBe(b2.body);
    expect(a1.body).not.toBe(b1.body);
    expect(t.app.services.access.renderCount() - before).toBe(2);
  });

  it('signs the code: valid for this and the previous step only, forged codes refused', async () => {
    const access = t.app.services.access;
    const step = Math.floor(t.clock.now().getTime() / 30_000);
    const code = access.codeFor(1, step);
    expect(access.verifyCode(code)).toBe(1);
    expect(access.verifyCode(access.codeFor(1, step - 1))).toBe(1);
    expect(access.verifyCode(access.codeFor(1, step - 2))).toBeNull();
    expect(access.verifyCode(code.replace(/^TP1\.1\./, 'TP1.2.'))).toBeNull();
  });

  it('requires sign-in', async () => {
    expect((await t.app.inject({ url: '/v1/auth/access/qr' })).statusCode).toBe(401);
  });
});
