/** QR pass: ttl config, signed code per time step, PNG rendered once per holder per step. */
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
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
    expect(r.json()).toEqual({ ttl: 30, passRevealAt: null });
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

  it('draws one pixel per module plus a 4-module quiet zone, and decodes to the signed code', async () => {
    const png = PNG.sync.read(Buffer.from((await qr(alice)).body, 'base64'));
    expect(png.width).toBe(png.height);
    // A version-v symbol is 4v + 17 modules wide; plus 4 white modules on each side.
    const modules = png.width - 8;
    expect((modules - 17) % 4).toBe(0);
    expect(png.width).toBeLessThan(100);
    const dark = (x: number, y: number) => png.data[(y * png.width + x) * 4] < 128;
    for (let i = 0; i < png.width; i++)
      for (const edge of [0, 3, png.width - 4, png.width - 1]) {
        expect(dark(i, edge) || dark(edge, i)).toBe(false);
      }
    expect(dark(4, 4)).toBe(true); // the finder pattern's corner
    // Scaled up with nearest-neighbour sampling, as the panel's `image-rendering: pixelated` does.
    const k = 8;
    const side = png.width * k;
    const big = new Uint8ClampedArray(side * side * 4);
    for (let y = 0; y < side; y++)
      for (let x = 0; x < side; x++) {
        const from = (Math.floor(y / k) * png.width + Math.floor(x / k)) * 4;
        big.set(png.data.subarray(from, from + 4), (y * side + x) * 4);
      }
    const decoded = jsQR(big, side, side);
    const me = (await t.app.inject({ url: '/v1/auth/me', headers: bearer(alice) })).json<{ email: string }>();
    expect(me.email).toBe('alice@example.com');
    const step = Math.floor(t.clock.now().getTime() / 30_000);
    expect(decoded?.data).toMatch(/^TP2\./);
    const pass = await t.app.services.access.verifyCode(decoded!.data);
    expect(pass).toMatchObject({ step, kind: 'server' });
    expect(decoded!.data).toBe(await t.app.services.access.codeFor(pass!.userId, step));
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
    const code = await access.codeFor(1, step);
    expect(await access.verifyCode(code)).toMatchObject({ userId: 1, kind: 'server' });
    expect(await access.verifyCode(await access.codeFor(1, step - 1))).toMatchObject({ userId: 1 });
    expect(await access.verifyCode(await access.codeFor(1, step - 2))).toBeNull();
    expect(await access.verifyCode(await access.codeFor(1, step + 1))).toBeNull();
    const body = Buffer.from(code.slice(4), 'base64url');
    body[4] ^= 1; // another user id under the same signature
    expect(await access.verifyCode('TP2.' + body.toString('base64url'))).toBeNull();
  });

  it('requires sign-in', async () => {
    expect((await t.app.inject({ url: '/v1/auth/access/qr' })).statusCode).toBe(401);
  });
});
