/**
 * Issue 24: one contract API (`Ed25519` in @tp/contract/pass-code), three implementations: node:crypto
 * (the API), WebCrypto (browsers with Ed25519) and noble (the fallback). They must produce and accept the
 * same codes, and refuse the same forgeries.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createDeviceCode,
  fromBase64Url,
  nobleEd25519,
  PASS_CODE_PREFIX,
  passStep,
  publicKeyOf,
  signCertificate,
  signServerCode,
  toBase64Url,
  verifyPassCode,
  webCryptoEd25519,
  type Ed25519,
} from '@tp/contract/pass-code';
import { nodeEd25519 } from '../src/lib/ed25519.js';

const impls: [string, Ed25519][] = [
  ['node:crypto', nodeEd25519()],
  ['webcrypto', webCryptoEd25519()],
  ['noble', nobleEd25519],
];
const ttl = 30;
const now = 1_790_000_015;
const step = passStep(now, ttl);
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

/** The signature with S replaced by S + L: the same point equation, a non-canonical encoding (RFC 8032 refuses it). */
function malleate(sig: Uint8Array): Uint8Array {
  let s = 0n;
  for (let i = 31; i >= 0; i--) s = (s << 8n) | BigInt(sig[32 + i]);
  s += L;
  const out = sig.slice();
  for (let i = 0; i < 32; i++) out[32 + i] = Number((s >> BigInt(8 * i)) & 0xffn);
  return out;
}

describe('Ed25519 implementations agree', () => {
  const seeds = Array.from({ length: 8 }, () => new Uint8Array(randomBytes(32)));
  const message = new TextEncoder().encode('tp-pass-server-v2 and some bytes');

  it('same public keys and byte-identical signatures; each verifies every other one', async () => {
    for (const seed of seeds) {
      const pubs = await Promise.all(impls.map(([, i]) => i.publicKey(seed)));
      const sigs = await Promise.all(impls.map(([, i]) => i.sign(message, seed)));
      for (const p of pubs) expect(toBase64Url(p)).toBe(toBase64Url(pubs[0]));
      for (const s of sigs) expect(toBase64Url(s)).toBe(toBase64Url(sigs[0]));
      for (const [name, impl] of impls) {
        expect([name, await impl.verify(sigs[0], message, pubs[0])]).toEqual([name, true]);
        const other = message.slice();
        other[0] ^= 1;
        expect([name, await impl.verify(sigs[0], other, pubs[0])]).toEqual([name, false]);
      }
    }
  });

  it('refuse the same malformed keys and non-canonical signatures, without throwing', async () => {
    const seed = seeds[0];
    const pub = await nobleEd25519.publicKey(seed);
    const sig = await nobleEd25519.sign(message, seed);
    const cases: [string, Uint8Array, Uint8Array][] = [
      ['S + L', malleate(sig), pub],
      ['short signature', sig.subarray(0, 63), pub],
      ['short key', sig, pub.subarray(0, 31)],
      ['key off the curve', sig, new Uint8Array(32).fill(0xff)],
      ['zero signature', new Uint8Array(64), pub],
    ];
    for (const [what, s, k] of cases)
      for (const [name, impl] of impls)
        expect([what, name, await impl.verify(s, message, k)]).toEqual([what, name, false]);
  });

  it('pass codes made by any implementation verify with every implementation', async () => {
    const server = seeds[1];
    const device = seeds[2];
    const codes: string[] = [];
    for (const [, maker] of impls) {
      const pub = await publicKeyOf(server, maker);
      codes.push(await signServerCode(server, 42, step, maker));
      const cert = await signCertificate(
        server,
        {
          userId: 42,
          sessionId: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
          devicePublicKey: await maker.publicKey(device),
          expiresAt: now + 3600,
        },
        maker,
      );
      const deviceCode = await createDeviceCode(cert, step, (m) => maker.sign(m, device));
      for (const [name, checker] of impls) {
        const opts = { publicKey: pub, nowSeconds: now, ttlSeconds: ttl, skewSteps: 1, ed25519: checker };
        expect([name, await verifyPassCode(codes.at(-1)!, opts)]).toEqual([name, { userId: 42, step, kind: 'server' }]);
        expect([name, (await verifyPassCode(deviceCode, opts))?.kind]).toEqual([name, 'device']);
        const body = fromBase64Url(deviceCode.slice(PASS_CODE_PREFIX.length))!;
        body[150] ^= 1; // the device signature
        expect([name, await verifyPassCode(PASS_CODE_PREFIX + toBase64Url(body), opts)]).toEqual([name, null]);
      }
    }
    expect(new Set(codes).size).toBe(1); // deterministic: the same text from every implementation
  });
});
