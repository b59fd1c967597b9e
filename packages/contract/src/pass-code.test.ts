import { describe, expect, it } from 'vitest';
import * as ed from '@noble/ed25519';
import {
  claimedUserId,
  createDeviceCode,
  fromBase64Url,
  passStep,
  PASS_CODE_MAX_LENGTH,
  PASS_CODE_PREFIX,
  publicKeyOf,
  signCertificate,
  signServerCode,
  signTicketCode,
  toBase64Url,
  verifyPassCode,
} from './pass-code.js';

const ttl = 30;
const now = 1_790_000_015; // a fixed instant, unix seconds
const step = passStep(now, ttl);
const serverKey = ed.utils.randomSecretKey();
const otherKey = ed.utils.randomSecretKey();
const deviceKey = ed.utils.randomSecretKey();
const sessionId = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

async function keys() {
  return { pub: await publicKeyOf(serverKey), otherPub: await publicKeyOf(otherKey) };
}
async function cert(expiresAt = now + 3600, signer = serverKey) {
  return signCertificate(signer, {
    userId: 42,
    sessionId,
    devicePublicKey: await publicKeyOf(deviceKey),
    expiresAt,
  });
}
const deviceSign = (m: Uint8Array) => ed.signAsync(m, deviceKey);
const opts = (publicKey: Uint8Array | Uint8Array[], nowSeconds = now) => ({
  publicKey,
  nowSeconds,
  ttlSeconds: ttl,
  skewSteps: 1,
});
/** Flips one bit of the code's body at byte `at`. */
function tamper(code: string, at: number): string {
  const body = fromBase64Url(code.slice(PASS_CODE_PREFIX.length))!;
  body[at] ^= 1;
  return PASS_CODE_PREFIX + toBase64Url(body);
}

describe('server codes', () => {
  it('verify with the public key alone for the current and previous step', async () => {
    const { pub } = await keys();
    const code = await signServerCode(serverKey, 42, step);
    expect(code.length).toBeLessThan(110);
    expect(await verifyPassCode(code, opts(pub))).toEqual({ userId: 42, step, kind: 'server' });
    expect(await verifyPassCode(code, opts(pub, now + ttl))).toMatchObject({ userId: 42 });
    expect(await verifyPassCode(code, opts(pub, now + 2 * ttl))).toBeNull();
    expect(await verifyPassCode(code, opts(pub, now - ttl))).toBeNull(); // a future step
  });
  it('refuse a tampered code, another key and garbage', async () => {
    const { pub, otherPub } = await keys();
    const code = await signServerCode(serverKey, 42, step);
    expect(await verifyPassCode(tamper(code, 4), opts(pub))).toBeNull(); // userId 42 -> 43
    expect(await verifyPassCode(tamper(code, 40), opts(pub))).toBeNull(); // signature
    expect(await verifyPassCode(code, opts(otherPub))).toBeNull();
    expect(await verifyPassCode(code, opts([otherPub, pub]))).toMatchObject({ userId: 42 }); // rotation
    for (const junk of ['', 'TP2.', 'TP2.!!', 'TP1.42.1.abc', code + 'A', code.slice(0, -2)])
      expect(await verifyPassCode(junk, opts(pub))).toBeNull();
  });
});

describe('device codes', () => {
  it('verify with the server public key alone and carry the session', async () => {
    const { pub } = await keys();
    const code = await createDeviceCode(await cert(), step, deviceSign);
    expect(code.length).toBeLessThan(260);
    expect(await verifyPassCode(code, opts(pub))).toEqual({
      userId: 42,
      step,
      kind: 'device',
      sessionId,
      certificateExpiresAt: now + 3600,
    });
  });
  it('accept current-2 … current+1 with skewSteps 1, and refuse a 3-step-old or 2-step-future code', async () => {
    const { pub } = await keys();
    const c = await cert();
    const at = async (s: number) => verifyPassCode(await createDeviceCode(c, s, deviceSign), opts(pub));
    expect(await at(step)).not.toBeNull();
    expect(await at(step - 1)).not.toBeNull();
    expect(await at(step - 2)).not.toBeNull();
    expect(await at(step + 1)).not.toBeNull();
    expect(await at(step - 3)).toBeNull();
    expect(await at(step + 2)).toBeNull();
    const strict = { ...opts(pub), skewSteps: 0 };
    expect(await verifyPassCode(await createDeviceCode(c, step - 2, deviceSign), strict)).toBeNull();
  });
  it('refuse an expired certificate', async () => {
    const { pub } = await keys();
    const code = await createDeviceCode(await cert(now), step, deviceSign);
    expect(await verifyPassCode(code, opts(pub))).toBeNull();
  });
  it('refuse a certificate signed by another key, a tampered certificate, step or signature', async () => {
    const { pub } = await keys();
    const forged = await createDeviceCode(await cert(now + 3600, otherKey), step, deviceSign);
    expect(await verifyPassCode(forged, opts(pub))).toBeNull();
    const code = await createDeviceCode(await cert(), step, deviceSign);
    expect(await verifyPassCode(tamper(code, 4), opts(pub))).toBeNull(); // userId
    expect(await verifyPassCode(tamper(code, 30), opts(pub))).toBeNull(); // device key
    expect(await verifyPassCode(tamper(code, 124), opts(pub))).toBeNull(); // step
    expect(await verifyPassCode(tamper(code, 150), opts(pub))).toBeNull(); // device signature
  });
  it('refuse a code signed by a key other than the certified device key', async () => {
    const { pub } = await keys();
    const code = await createDeviceCode(await cert(), step, (m) => ed.signAsync(m, otherKey));
    expect(await verifyPassCode(code, opts(pub))).toBeNull();
  });
});

describe('claimedUserId', () => {
  it('reads the user id of both kinds without verifying, null for other text', async () => {
    expect(claimedUserId(await signServerCode(otherKey, 42, step))).toBe(42);
    expect(claimedUserId(await createDeviceCode(await cert(), step, deviceSign))).toBe(42);
    expect(claimedUserId('TP1.42.1.x')).toBeNull();
    expect(claimedUserId('TP2.AAAA')).toBeNull();
  });
});

describe('PASS_CODE_MAX_LENGTH', () => {
  it('is the length of the longest code: a device code (256), longer than a server code', async () => {
    const device = await createDeviceCode(await cert(0xffffffff), 0xffffffff, deviceSign);
    const server = await signServerCode(serverKey, 0xffffffff, 0xffffffff);
    expect(device.length).toBe(PASS_CODE_MAX_LENGTH);
    expect(PASS_CODE_MAX_LENGTH).toBe(256);
    expect(server.length).toBeLessThan(PASS_CODE_MAX_LENGTH);
  });
});

describe('ticket codes (wallet passes, decision 029)', () => {
  const fields = { userTicketId: 7, holderId: 42, validFrom: now - 3600, validUntil: now + 3600 };
  it('verify inside their validity with the public key alone, naming the ticket and its holder', async () => {
    const { pub, otherPub } = await keys();
    const code = await signTicketCode(serverKey, fields);
    expect(code.length).toBeLessThanOrEqual(PASS_CODE_MAX_LENGTH);
    expect(await verifyPassCode(code, opts(pub))).toEqual({ userId: 42, step, kind: 'ticket', userTicketId: 7 });
    expect(claimedUserId(code)).toBe(42);
    expect(await verifyPassCode(code, opts(otherPub))).toBeNull();
    expect(await verifyPassCode(code, opts(pub, fields.validFrom - 1))).toBeNull();
    expect(await verifyPassCode(code, opts(pub, fields.validUntil))).toBeNull();
  });
  it("take Google's rotating suffix `.<seconds>.<totp>`, and only on a ticket code", async () => {
    const { pub } = await keys();
    const code = await signTicketCode(serverKey, fields);
    expect((await verifyPassCode(`${code}.${now}.123456`, opts(pub)))?.userTicketId).toBe(7);
    expect(await verifyPassCode(`${code}.${now}`, opts(pub))).toBeNull();
    expect(await verifyPassCode(`${code}.x.123456`, opts(pub))).toBeNull();
    const server = await signServerCode(serverKey, 42, step);
    expect(await verifyPassCode(`${server}.${now}.123456`, opts(pub))).toBeNull();
  });
  it("a Google pass's rotating ticket code (kind 4) admits only with its suffix; stripped, or relabelled as a static code, nothing", async () => {
    const { pub } = await keys();
    const rotating = await signTicketCode(serverKey, fields, undefined, 'rotating');
    expect(rotating.length).toBe((await signTicketCode(serverKey, fields)).length);
    expect(await verifyPassCode(`${rotating}.${now}.12345678`, opts(pub))).toEqual({
      userId: 42,
      step,
      kind: 'ticket',
      userTicketId: 7,
      totp: { timestampSeconds: now, value: '12345678' },
    });
    expect(claimedUserId(`${rotating}.${now}.12345678`)).toBe(42);
    // The suffix stripped (issue 39, item 13): refused.
    expect(await verifyPassCode(rotating, opts(pub))).toBeNull();
    // Its kind byte turned into a static ticket code's: the signature no longer holds.
    const body = fromBase64Url(rotating.slice(4))!;
    body[0] = 3;
    expect(await verifyPassCode(`TP2.${toBase64Url(body)}`, opts(pub))).toBeNull();
  });
});
