/**
 * The first QR drawn before the app (issue 30, decision 023): whose stored pass it may draw. The certificate's
 * user must be the access token's `sub`, the certificate must not have expired, and the last `qrCodeData` the
 * service worker cached must not say the pass appears later (issue 21).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeCertificate, toBase64Url } from '@tp/contract/pass-code';
import { tokenUserId, type DevicePass } from './pass/device-pass';
import { storedPassSrc } from './first-qr';

const stored = vi.hoisted(() => ({ pass: null as DevicePass | null }));
vi.mock('./pass/device-pass', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  loadDevicePass: () => Promise.resolve(stored.pass),
  deviceCodeFor: (_pass: unknown, step: number) => Promise.resolve(`TP2.code-${step}`),
}));
vi.mock('./pass/draw-qr', () => ({ qrDataUrl: (code: string) => `data:image/png;base64,${btoa(code)}` }));

const NOW = Date.parse('2026-11-27T10:00:00Z');
const jwt = (claims: object) => `h.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.s`;

function passOf(userId: number, expiresAtMs = NOW + 3600_000): DevicePass {
  const certificate = encodeCertificate({
    userId,
    sessionId: '0b8f6c4e-8a55-4d7b-9a4e-2f7d7c1b2a3c',
    devicePublicKey: new Uint8Array(32),
    expiresAt: Math.floor(expiresAtMs / 1000),
  });
  const signed = new Uint8Array(120);
  signed.set(certificate);
  return {
    privateKey: {} as CryptoKey,
    certificate: toBase64Url(signed),
    expiresAtMs,
    issuedAtMs: NOW - 3600_000,
    ttl: 30,
    clockOffsetMs: 0,
  };
}

/** The service worker's cache of personal answers, holding `qrCodeData` (or nothing). */
function cacheQrCodeData(body: object | null) {
  vi.stubGlobal('caches', {
    open: () =>
      Promise.resolve({ match: () => Promise.resolve(body ? new Response(JSON.stringify(body)) : undefined) }),
  });
}

beforeEach(() => {
  stored.pass = passOf(7);
  cacheQrCodeData({ ttl: 30, passRevealAt: null });
});
afterEach(() => vi.unstubAllGlobals());

describe('tokenUserId', () => {
  it('reads the access token’s sub', () => {
    expect(tokenUserId(jwt({ sub: '7', sid: 'x' }))).toBe(7);
  });
  it('is null for no token, a malformed one or a sub that is not a user id', () => {
    expect(tokenUserId(null)).toBeNull();
    expect(tokenUserId('not-a-jwt')).toBeNull();
    expect(tokenUserId('a.%%%.b')).toBeNull();
    expect(tokenUserId(jwt({ sub: 'alice' }))).toBeNull();
    expect(tokenUserId(jwt({}))).toBeNull();
  });
});

describe('storedPassSrc', () => {
  it('draws the current step’s code of the signed-in account’s stored pass', async () => {
    const step = Math.floor(NOW / 1000 / 30);
    expect(await storedPassSrc(7, NOW)).toBe(`data:image/png;base64,${btoa(`TP2.code-${step}`)}`);
  });
  it('never draws another account’s pass', async () => {
    expect(await storedPassSrc(8, NOW)).toBeNull();
  });
  it('draws nothing without a stored pass, or with an expired certificate', async () => {
    stored.pass = null;
    expect(await storedPassSrc(7, NOW)).toBeNull();
    stored.pass = passOf(7, NOW - 1000);
    expect(await storedPassSrc(7, NOW)).toBeNull();
  });
  it('draws nothing when the last qrCodeData says the pass appears later', async () => {
    cacheQrCodeData({ ttl: 30, passRevealAt: '2030-03-06T08:00:00.000Z' });
    expect(await storedPassSrc(7, NOW)).toBeNull();
  });
  it('draws without a cached qrCodeData (the QR screen forgets the pass when it learns of a reveal)', async () => {
    cacheQrCodeData(null);
    expect(await storedPassSrc(7, NOW)).not.toBeNull();
  });
});
