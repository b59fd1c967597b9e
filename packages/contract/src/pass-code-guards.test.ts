/**
 * The pass code's guards and its Ed25519 implementations (issue 43: the mutants pass-code.test.ts let live).
 * Encoders refuse what they cannot encode (RangeError) rather than write a code no door reads; the verifier refuses
 * a malformed suffix and text before any signature is checked; WebCrypto and noble agree, and a malformed key or
 * signature is "not signed", never a throw.
 */
import { describe, expect, it } from 'vitest';
import * as ed from '@noble/ed25519';
import {
  boundedCache,
  browserEd25519,
  CERTIFICATE_BYTES,
  claimedUserId,
  createDeviceCode,
  decodeCertificate,
  deviceCodeMessage,
  encodeCertificate,
  encodeDeviceCode,
  encodeServerCode,
  fromBase64Url,
  nobleEd25519,
  passStep,
  PASS_CODE_PREFIX,
  publicKeyOf,
  serverCodeMessage,
  signCertificate,
  signServerCode,
  signTicketCode,
  toBase64Url,
  verifyPassCode,
  webCryptoEd25519,
} from './pass-code.js';

const ttl = 30;
const now = 1_790_000_015;
const step = passStep(now, ttl);
const serverKey = ed.utils.randomSecretKey();
const sessionId = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const devicePublicKey = new Uint8Array(32).fill(7);
const opts = (publicKey: Uint8Array | Uint8Array[]) => ({ publicKey, nowSeconds: now, ttlSeconds: ttl });

describe('encoders refuse what does not fit the format', () => {
  it('user ids and steps are u32: negative, fractional or past 2^32 - 1 throw RangeError', async () => {
    for (const bad of [-1, 1.5, 2 ** 32, Number.NaN]) {
      expect(() => serverCodeMessage(bad, step)).toThrow(new RangeError(`not a u32: ${bad}`));
      expect(() => serverCodeMessage(42, bad)).toThrow(RangeError);
    }
    expect(serverCodeMessage(0, 0xffffffff)).toHaveLength('tp-pass-server-v2'.length + 9);
    await expect(signServerCode(serverKey, -1, step)).rejects.toThrow(RangeError);
  });

  it('a server code needs a 64-byte signature', () => {
    expect(() => encodeServerCode(42, step, new Uint8Array(63))).toThrow('signature must be 64 bytes');
    expect(() => encodeServerCode(42, step, new Uint8Array(65))).toThrow(RangeError);
    expect(encodeServerCode(42, step, new Uint8Array(64)).startsWith(PASS_CODE_PREFIX)).toBe(true);
  });

  it('a certificate needs a 32-byte device key and a UUID session, and reads back as written', () => {
    const c = { userId: 42, sessionId, devicePublicKey, expiresAt: now + 60 };
    expect(() => encodeCertificate({ ...c, devicePublicKey: new Uint8Array(31) })).toThrow(
      'device public key must be 32 bytes',
    );
    expect(() => encodeCertificate({ ...c, devicePublicKey: new Uint8Array(33) })).toThrow(RangeError);
    for (const bad of [
      'not-a-uuid',
      sessionId.slice(0, -1),
      `${sessionId}0`,
      `0${sessionId}`,
      sessionId.replace('6', 'g'),
    ])
      expect(() => encodeCertificate({ ...c, sessionId: bad })).toThrow(`not a UUID: ${bad}`);
    expect(() => encodeCertificate({ ...c, expiresAt: -1 })).toThrow(RangeError);
    const bytes = encodeCertificate(c);
    expect(bytes).toHaveLength(CERTIFICATE_BYTES);
    expect(decodeCertificate(bytes)).toEqual(c);
    // Upper-case UUID hex is the same session.
    expect(decodeCertificate(encodeCertificate({ ...c, sessionId: sessionId.toUpperCase() }))?.sessionId).toBe(
      sessionId,
    );
    expect(decodeCertificate(bytes.subarray(1))).toBeNull();
    expect(decodeCertificate(new Uint8Array(CERTIFICATE_BYTES + 1))).toBeNull();
  });

  it('a device code needs a 120-byte signed certificate and a 64-byte device signature', () => {
    const signed = new Uint8Array(CERTIFICATE_BYTES + 64);
    expect(() => deviceCodeMessage(signed.subarray(1), step)).toThrow('signed certificate must be 120 bytes');
    expect(() => deviceCodeMessage(new Uint8Array(121), step)).toThrow(RangeError);
    expect(deviceCodeMessage(signed, step)).toHaveLength('tp-pass-device-v2'.length + 1 + 120 + 4);
    expect(() => encodeDeviceCode(signed.subarray(1), step, new Uint8Array(64))).toThrow(
      'signed certificate must be 120 bytes',
    );
    expect(() => encodeDeviceCode(signed, step, new Uint8Array(63))).toThrow('signature must be 64 bytes');
    expect(encodeDeviceCode(signed, step, new Uint8Array(64))).toHaveLength(256);
  });

  it('a ticket code refuses a field that is not a u32', async () => {
    const f = { userTicketId: 7, holderId: 42, validFrom: now, validUntil: now + 60 };
    await expect(signTicketCode(serverKey, { ...f, validUntil: 2 ** 32 })).rejects.toThrow(RangeError);
    await expect(signTicketCode(serverKey, { ...f, holderId: -1 }, undefined, 'rotating')).rejects.toThrow(RangeError);
  });
});

describe('base64url', () => {
  it('writes no padding and the URL alphabet, and reads back every byte', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = toBase64Url(all);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(text).toContain('-');
    expect(text).toContain('_');
    expect(fromBase64Url(text)).toEqual(all);
    for (const n of [0, 1, 2, 3, 4]) expect(fromBase64Url(toBase64Url(all.subarray(0, n)))).toEqual(all.subarray(0, n));
  });

  it('refuses characters outside the URL alphabet and a length no encoding has (4n + 1)', () => {
    for (const bad of ['ab+c', 'ab/c', 'ab=c', 'ab c', 'abcde', 'A']) expect(fromBase64Url(bad)).toBeNull();
    expect(fromBase64Url('')).toEqual(new Uint8Array());
    expect(fromBase64Url('_-8')).toEqual(new Uint8Array([0xff, 0xef]));
  });
});

describe('the verifier refuses malformed text before any signature', () => {
  it('text that is not a string, lacks the prefix or has a suffix not of two 1–12 digit parts', async () => {
    const pub = await publicKeyOf(serverKey);
    const ticket = await signTicketCode(
      serverKey,
      { userTicketId: 7, holderId: 42, validFrom: now - 60, validUntil: now + 60 },
      undefined,
      'rotating',
    );
    expect(await verifyPassCode(`${ticket}.${now}.123456`, opts(pub))).toMatchObject({ userTicketId: 7 });
    expect(await verifyPassCode(`${ticket}.1.1`, opts(pub))).toMatchObject({
      totp: { timestampSeconds: 1, value: '1' },
    });
    expect(await verifyPassCode(`${ticket}.123456789012.1`, opts(pub))).not.toBeNull();
    for (const suffix of [
      `.${now}.123456.1`,
      `.${now}`,
      `.1234567890123.1`,
      `.${now}.`,
      `..1`,
      `.${now}.12a`,
      `.${now}.a12`,
      `.${now}.-1`,
    ])
      expect(await verifyPassCode(`${ticket}${suffix}`, opts(pub))).toBeNull();
    expect(await verifyPassCode(ticket.replace('TP2.', 'tp2.'), opts(pub))).toBeNull();
    expect(await verifyPassCode(42 as unknown as string, opts(pub))).toBeNull(); // an API client's JSON number
    expect(await verifyPassCode(`${PASS_CODE_PREFIX}${'A'.repeat(500)}`, opts(pub))).toBeNull();
  });

  it('a verify that throws (a broken implementation) is not caught as "not signed": the caller sees it', async () => {
    const pub = await publicKeyOf(serverKey);
    const code = await signServerCode(serverKey, 42, step);
    const broken = { ...nobleEd25519, verify: () => Promise.reject(new Error('broken')) };
    await expect(verifyPassCode(code, { ...opts(pub), ed25519: broken })).rejects.toThrow('broken');
  });

  it('reads a body by its length AND kind byte, whatever a signature check would say', async () => {
    // A verifier that takes every signature: only the structure checks stand between these bodies and a pass.
    const anySignature = { ...nobleEd25519, verify: () => Promise.resolve(true) };
    const pub = await publicKeyOf(serverKey);
    const check = (kind: number, length: number, suffix = '') => {
      const body = new Uint8Array(length);
      body[0] = kind;
      new DataView(body.buffer).setUint32(1, 42);
      new DataView(body.buffer).setUint32(5, step); // a server code's step; a ticket code's holder
      new DataView(body.buffer).setUint32(9, now - 60); // a ticket code's validFrom
      new DataView(body.buffer).setUint32(13, now + 60); // its validUntil
      if (length === 189) {
        new DataView(body.buffer).setUint32(53, now + 60); // a device certificate's expiresAt
        new DataView(body.buffer).setUint32(121, step); // a device code's step
      }
      return verifyPassCode(`${PASS_CODE_PREFIX}${toBase64Url(body)}${suffix}`, {
        ...opts(pub),
        ed25519: anySignature,
      });
    };
    expect(await check(1, 73)).toMatchObject({ kind: 'server', userId: 42 });
    expect(await check(3, 81)).toMatchObject({ kind: 'ticket', userTicketId: 42 });
    expect(await check(2, 189)).toMatchObject({ kind: 'device', userId: 42 });
    for (const [kind, length] of [
      [3, 73],
      [4, 73],
      [5, 73],
      [2, 73],
      [1, 81],
      [2, 81],
      [5, 81],
      [1, 189],
      [3, 189],
      [5, 189],
      [1, 74],
    ])
      expect(await check(kind, length), `kind ${kind}, ${length} bytes`).toBeNull();
    expect(await check(1, 81, `.${now}.1`)).toBeNull();
  });

  it('a ticket code admits from its first second; device codes allow one step of skew by default', async () => {
    const pub = await publicKeyOf(serverKey);
    const ticket = await signTicketCode(serverKey, {
      userTicketId: 7,
      holderId: 42,
      validFrom: now,
      validUntil: now + 1,
    });
    expect(await verifyPassCode(ticket, opts(pub))).toMatchObject({ userTicketId: 7 });
    const deviceKey = ed.utils.randomSecretKey();
    const signed = await signCertificate(serverKey, {
      userId: 42,
      sessionId,
      devicePublicKey: await publicKeyOf(deviceKey),
      expiresAt: now + 60,
    });
    const at = async (s: number) =>
      verifyPassCode(await createDeviceCode(signed, s, (m) => ed.signAsync(m, deviceKey)), opts(pub));
    expect(await at(step - 2)).toMatchObject({ kind: 'device' });
    expect(await at(step + 1)).toMatchObject({ kind: 'device' });
    expect(await at(step - 3)).toBeNull();
  });

  it('tries every key of a rotation, and fails with none that signed', async () => {
    const pub = await publicKeyOf(serverKey);
    const other = await publicKeyOf(ed.utils.randomSecretKey());
    const code = await signServerCode(serverKey, 42, step);
    expect(await verifyPassCode(code, opts([other, other, pub]))).toMatchObject({ userId: 42 });
    expect(await verifyPassCode(code, opts([other, other]))).toBeNull();
    expect(await verifyPassCode(code, opts([]))).toBeNull();
  });
});

describe('claimedUserId', () => {
  it('reads each kind at its place, a ticket code its holder; null for a known length of the wrong kind', async () => {
    const ticket = await signTicketCode(serverKey, { userTicketId: 7, holderId: 42, validFrom: 0, validUntil: 1 });
    expect(claimedUserId(ticket)).toBe(42);
    expect(
      claimedUserId(
        await signTicketCode(
          serverKey,
          { userTicketId: 7, holderId: 43, validFrom: 0, validUntil: 1 },
          undefined,
          'rotating',
        ),
      ),
    ).toBe(43);
    const body = fromBase64Url(ticket.slice(4))!;
    for (const kind of [0, 1, 2, 5]) {
      body[0] = kind;
      expect(claimedUserId(`TP2.${toBase64Url(body)}`)).toBeNull();
    }
    const server = fromBase64Url((await signServerCode(serverKey, 42, step)).slice(4))!;
    for (const kind of [2, 3, 4, 5]) {
      server[0] = kind;
      expect(claimedUserId(`TP2.${toBase64Url(server)}`)).toBeNull();
    }
    const device = new Uint8Array(189);
    for (const kind of [1, 3, 5]) {
      device[0] = kind;
      expect(claimedUserId(`TP2.${toBase64Url(device)}`)).toBeNull();
    }
    expect(claimedUserId(`XX2.${ticket.slice(4)}`)).toBeNull();
    expect(claimedUserId('TP2.!!')).toBeNull();
  });
});

describe('Ed25519 implementations', () => {
  const message = new TextEncoder().encode('pass');

  it('WebCrypto signs as noble does, verifies strictly, and answers false (never throws) on malformed input', async () => {
    const web = webCryptoEd25519();
    const pub = await nobleEd25519.publicKey(serverKey);
    expect(await web.publicKey(serverKey)).toEqual(pub);
    const sig = await web.sign(message, serverKey);
    expect(sig).toEqual(await nobleEd25519.sign(message, serverKey));
    expect(await web.sign(message, serverKey)).toEqual(sig); // the cached key signs the same
    expect(await web.verify(sig, message, pub)).toBe(true);
    expect(await web.verify(sig, new TextEncoder().encode('other'), pub)).toBe(false);
    expect(await web.verify(sig.subarray(1), message, pub)).toBe(false);
    expect(await web.verify(sig, message, pub.subarray(1))).toBe(false);
    expect(await web.verify(new Uint8Array(64).fill(0xff), message, pub)).toBe(false);
    // 32 bytes that are no curve point: WebCrypto may refuse the import or the verify; either way, false.
    expect(await web.verify(sig, message, new Uint8Array(32).fill(0xff))).toBe(false);
    expect(await nobleEd25519.verify(sig, message, new Uint8Array(32).fill(0xff))).toBe(false);
    expect(await nobleEd25519.verify(sig.subarray(1), message, pub)).toBe(false);
  });

  it('WebCrypto keeps one key per key bytes: seeds whose bytes read alike unpadded (01 23… and 12 03…) sign apart', async () => {
    const web = webCryptoEd25519();
    const a = new Uint8Array(32).fill(9);
    const b = new Uint8Array(32).fill(9);
    a.set([0x01, 0x23]);
    b.set([0x12, 0x03]);
    expect(await web.sign(message, a)).toEqual(await nobleEd25519.sign(message, a));
    expect(await web.sign(message, b)).toEqual(await nobleEd25519.sign(message, b));
    const sigA = await nobleEd25519.sign(message, a);
    const pubA = await nobleEd25519.publicKey(a);
    const pubB = await nobleEd25519.publicKey(b);
    expect(await web.verify(sigA, message, pubA)).toBe(true);
    expect(await web.verify(sigA, message, pubB)).toBe(false);
  });

  it('a WebCrypto whose verify throws answers false', async () => {
    const subtle = globalThis.crypto.subtle;
    const throwing = Object.create(subtle, {
      importKey: { value: subtle.importKey.bind(subtle) },
      verify: { value: () => Promise.reject(new Error('no')) },
    }) as SubtleCrypto;
    const pub = await nobleEd25519.publicKey(serverKey);
    const sig = await nobleEd25519.sign(message, serverKey);
    expect(await webCryptoEd25519(throwing).verify(sig, message, pub)).toBe(false);
  });

  it('a WebCrypto that cannot import a public key answers false', async () => {
    const subtle = globalThis.crypto.subtle;
    const refusing = Object.create(subtle, {
      importKey: { value: () => Promise.reject(new Error('no')) },
    }) as SubtleCrypto;
    const sig = await nobleEd25519.sign(message, serverKey);
    expect(await webCryptoEd25519(refusing).verify(sig, message, await nobleEd25519.publicKey(serverKey))).toBe(false);
  });

  it('the browser choice is WebCrypto where it verifies RFC 8032, and is made once', async () => {
    const impl = await browserEd25519();
    expect(await browserEd25519()).toBe(impl);
    expect(impl).not.toBe(nobleEd25519); // Node 20+ has WebCrypto Ed25519
    const sig = await nobleEd25519.sign(message, serverKey);
    expect(await impl.verify(sig, message, await nobleEd25519.publicKey(serverKey))).toBe(true);
  });

  it('a certificate signed by WebCrypto verifies with noble', async () => {
    const web = webCryptoEd25519();
    const signed = await signCertificate(serverKey, { userId: 1, sessionId, devicePublicKey, expiresAt: now }, web);
    const cert = signed.subarray(0, CERTIFICATE_BYTES);
    const msg = new Uint8Array([...new TextEncoder().encode('tp-pass-cert-v2'), ...cert]);
    expect(await nobleEd25519.verify(signed.subarray(CERTIFICATE_BYTES), msg, await publicKeyOf(serverKey))).toBe(true);
  });
});

describe('boundedCache', () => {
  it('makes each value once and forgets the oldest past its bound', () => {
    const cache = boundedCache<number>(2);
    let made = 0;
    const make = () => ++made;
    expect(cache('a', make)).toBe(1);
    expect(cache('a', make)).toBe(1);
    expect(cache('b', make)).toBe(2);
    expect(cache('c', make)).toBe(3); // 'a' forgotten
    expect(cache('b', make)).toBe(2);
    expect(cache('a', make)).toBe(4);
  });
});

describe('known answers: the format is fixed (doors in the field read codes of every panel version)', () => {
  // Ed25519 is deterministic: seed 01…01 signs these exact codes; a changed label, kind byte or layout changes them.
  const seed = new Uint8Array(32).fill(1);
  const server =
    'TP2.AQAAACoAAAPoJUJjekDCvwgDAolw_2bAokhdrLX8xxGK2RlOPF7dGLNKRJomX0jG6kdcQFo24rEi63F0mlAJw9ew6bnBXYAKBA';
  const ticket =
    'TP2.AwAAAAcAAAAqAAAD6AAAB9AgS4XjDuIHhMBvLC_wWqhsl9fR9iOvwOy8SeWcd64mDM8Plhy_vcIZ0JSeIYKNjjON9KSDz21WGO9xmao9GMYM';
  const rotating =
    'TP2.BAAAAAcAAAAqAAAD6AAAB9A5g0VkWJCVyv6FzngaueD4mm8cBpC-pOTB-b9hU3W0jY6JdWvWO7j9LKY-1gxOvAhiZwgzrSCmX3p_MN7k2r8A';
  const device =
    'TP2.AgAAACpvHCo7TV5PYIp7nA0eLzpLgTl3Dqh9F19Wo1Rmw0x-zMuNipG07jeiXfYPW4_Js5QAAAfQO22SEAG1QVnCS2WVXu3cSmG5JpIyYasDj9CfkEPLqE2EA3zhkuJU2HMIiUgy5jzZXh9bGEHJ6AiNhi4Mw5MvCAAAA-ggzjzlsmAZxYSiqY8twCZpM-e6Le6SvJuexsEStpgmsTh7-CPx3EoPBONAdZgCRkpzv9uQfB2YPS7-6lTJXYUB';
  const fields = { userTicketId: 7, holderId: 42, validFrom: 1000, validUntil: 2000 };
  const at = async (code: string) =>
    verifyPassCode(code, { publicKey: await publicKeyOf(seed), nowSeconds: 1000, ttlSeconds: 1 });

  it('signs them', async () => {
    expect(await signServerCode(seed, 42, 1000)).toBe(server);
    expect(await signTicketCode(seed, fields)).toBe(ticket);
    expect(await signTicketCode(seed, fields, undefined, 'rotating')).toBe(rotating);
    const dev = new Uint8Array(32).fill(2);
    const signed = await signCertificate(seed, {
      userId: 42,
      sessionId,
      devicePublicKey: await publicKeyOf(dev),
      expiresAt: 2000,
    });
    expect(await createDeviceCode(signed, 1000, (m) => ed.signAsync(m, dev))).toBe(device);
  });

  it('verifies them', async () => {
    expect(await at(server)).toEqual({ userId: 42, step: 1000, kind: 'server' });
    expect(await at(ticket)).toMatchObject({ userId: 42, userTicketId: 7 });
    expect(await at(`${rotating}.1000.123456`)).toMatchObject({ userId: 42, userTicketId: 7 });
    expect(await at(device)).toMatchObject({ userId: 42, kind: 'device', sessionId, certificateExpiresAt: 2000 });
  });
});
