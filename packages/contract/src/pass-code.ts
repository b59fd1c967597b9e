/**
 * The entry pass code (spec section 2, QR; decision record docs/decisions/010-offline-pass.md): its two
 * formats and a pure, isomorphic verifier used by the API (Node) and the door scanner (browser).
 * Only standard web APIs (TextEncoder, atob/btoa, WebCrypto) are used. Signatures go through one
 * {@link Ed25519} interface with three implementations: {@link nobleEd25519} (pure JavaScript, the default and
 * the fallback), {@link webCryptoEd25519} (browsers with WebCrypto Ed25519; {@link browserEd25519} picks) and the
 * API's `node:crypto` one (apps/api/src/lib/ed25519.ts, KeyObjects made once, about 25x faster than noble).
 *
 * A code is the text `TP2.<base64url(body)>`; `body[0]` is the kind:
 *
 * - server code (kind 1, 73 bytes): `1 | userId u32 | step u32 | serverSig 64`. serverSig is the
 *   server's Ed25519 signature over `"tp-pass-server-v2" | body[0..9)`. Shown by an online phone
 *   (GET /auth/access/qr) and verifiable with the server's public key alone.
 * - device code (kind 2, 189 bytes): `2 | certificate 56 | certSig 64 | step u32 | deviceSig 64`, where
 *   certificate = `userId u32 | sessionId 16 (UUID bytes) | devicePublicKey 32 | expiresAt u32`
 *   (unix seconds, UTC). certSig is the server's signature over `"tp-pass-cert-v2" | certificate`;
 *   deviceSig is the device key's signature over `"tp-pass-device-v2" | body[0..125)` (the kind, the
 *   certificate, its signature and the step), so a step cannot be re-signed without the device key.
 *
 * - ticket code (kind 3, 81 bytes; wallet passes, decision 029): `3 | userTicketId u32 | holderId u32 |
 *   validFrom u32 | validUntil u32 | serverSig 64` (unix seconds, UTC). serverSig is the server's signature over
 *   `"tp-pass-ticket-v1" | body[0..17)`. One ticket of one holder, static between validFrom and validUntil
 *   (an Apple Wallet barcode cannot rotate); the online door admits it only while that holder still holds
 *   that ticket. Shown by an Apple Wallet pass, bare.
 * - rotating ticket code (kind 4, 81 bytes; Google Wallet, decision 029): the ticket code's layout with kind 4,
 *   signed over `"tp-pass-ticket-rotating-v1" | body[0..17)`. A Google Wallet rotating barcode shows
 *   `<rotating ticket code>.<unix seconds>.<TOTP value>`: the verifier checks the signature and answers the
 *   suffix (`totp`); a door that has the pass's TOTP secret checks its freshness (`wallet-totp.ts`). Without its
 *   suffix a kind-4 code is refused, so stripping the rotating part off a Google barcode admits nothing; it
 *   cannot be turned into a kind-3 code without the signing key. (A kind-3 code with a suffix is still read:
 *   Google objects written before kind 4 show it until they are written again.)
 *
 * Integers are big-endian. step = floor(unix seconds / ttlSeconds).
 */
import * as ed from '@noble/ed25519';

/** Text prefix of every pass code of this format family. */
export const PASS_CODE_PREFIX = 'TP2.';
const KIND_SERVER = 1;
const KIND_DEVICE = 2;
const KIND_TICKET = 3;
const KIND_ROTATING_TICKET = 4;
/** Certificate length in bytes: userId 4, sessionId 16, device public key 32, expiresAt 4. */
export const CERTIFICATE_BYTES = 56;
const SERVER_BODY = 1 + 4 + 4 + 64;
const DEVICE_SIGNED = 1 + CERTIFICATE_BYTES + 64 + 4;
const DEVICE_BODY = DEVICE_SIGNED + 64;
const TICKET_SIGNED = 1 + 4 + 4 + 4 + 4;
const TICKET_BODY = TICKET_SIGNED + 64;
/** Characters of base64url (no padding) for `bytes` bytes. */
const base64UrlLength = (bytes: number) => Math.ceil((bytes * 4) / 3);
/**
 * The longest pass code this format family produces, in characters: a device code, `TP2.` and 189 bytes
 * in base64url (256). Door inputs (the scanner's code field) and request limits must take at least this.
 */
export const PASS_CODE_MAX_LENGTH =
  PASS_CODE_PREFIX.length + Math.max(base64UrlLength(SERVER_BODY), base64UrlLength(DEVICE_BODY));
const enc = new TextEncoder();
const SERVER_LABEL = enc.encode('tp-pass-server-v2');
const CERT_LABEL = enc.encode('tp-pass-cert-v2');
const DEVICE_LABEL = enc.encode('tp-pass-device-v2');
const TICKET_LABEL = enc.encode('tp-pass-ticket-v1');
const ROTATING_TICKET_LABEL = enc.encode('tp-pass-ticket-rotating-v1');
/** Strict RFC 8032 verification (rejects non-canonical encodings), as WebCrypto does. */
const STRICT = { zip215: false } as const;

/**
 * The Ed25519 operations a pass code needs (RFC 8032, pure Ed25519; keys are raw 32-byte seeds and raw
 * 32-byte public keys, signatures 64 bytes). Every implementation produces the same signatures (Ed25519 is
 * deterministic) and verifies strictly: a malformed key or signature is `false`, never a throw.
 */
export interface Ed25519 {
  /** The 64-byte signature of `message` by the 32-byte secret key (seed). */
  sign(message: Uint8Array, secretKey: Uint8Array): Promise<Uint8Array>;
  /** True when `signature` is `publicKey`'s signature of `message`. */
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): Promise<boolean>;
  /** The raw 32-byte public key of a 32-byte secret key (seed). */
  publicKey(secretKey: Uint8Array): Promise<Uint8Array>;
}

/** @noble/ed25519 (pure JavaScript, SHA-512 from WebCrypto): runs everywhere; the default. */
export const nobleEd25519: Ed25519 = {
  sign: (message, secretKey) => ed.signAsync(message, secretKey),
  async verify(signature, message, publicKey) {
    try {
      return await ed.verifyAsync(signature, message, publicKey, STRICT);
    } catch {
      return false; // a malformed key or signature point is simply "not signed by this key"
    }
  },
  publicKey: (secretKey) => ed.getPublicKeyAsync(secretKey),
};

/** DER prefix of a PKCS #8 Ed25519 private key: the 32-byte seed follows (RFC 8410). */
export const ED25519_PKCS8_PREFIX = new Uint8Array([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);
/** DER prefix of an SPKI Ed25519 public key: the raw 32-byte key follows (RFC 8410). */
export const ED25519_SPKI_PREFIX = new Uint8Array([
  0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
]);
const hexOf = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** A small map that forgets its oldest entry past `max` (key objects made once per key, bounded). */
export function boundedCache<V>(max: number): (key: string, make: () => V) => V {
  const map = new Map<string, V>();
  return (key, make) => {
    let v = map.get(key);
    if (v === undefined) {
      v = make();
      map.set(key, v);
      if (map.size > max) map.delete(map.keys().next().value as string);
    }
    return v;
  };
}

/**
 * WebCrypto Ed25519 (`crypto.subtle`, browsers since 2025 and Node 20): imported keys are kept (by key
 * bytes, at most 256) so each key is imported once. Use {@link browserEd25519} to fall back to noble
 * where the browser lacks Ed25519.
 */
export function webCryptoEd25519(subtle: SubtleCrypto = globalThis.crypto.subtle): Ed25519 {
  const alg = { name: 'Ed25519' };
  const privateKeys = boundedCache<Promise<CryptoKey>>(16);
  const publicKeys = boundedCache<Promise<CryptoKey | null>>(256);
  const privateKey = (seed: Uint8Array, extractable = false) =>
    subtle.importKey('pkcs8', concat(ED25519_PKCS8_PREFIX, seed) as BufferSource, alg, extractable, ['sign']);
  return {
    async sign(message, secretKey) {
      const key = await privateKeys(hexOf(secretKey), () => privateKey(secretKey));
      return new Uint8Array(await subtle.sign(alg, key, message as BufferSource));
    },
    async verify(signature, message, publicKey) {
      if (signature.length !== 64 || publicKey.length !== 32) return false;
      const key = await publicKeys(hexOf(publicKey), () =>
        subtle.importKey('raw', publicKey as BufferSource, alg, false, ['verify']).catch(() => null),
      );
      if (!key) return false;
      try {
        return await subtle.verify(alg, key, signature as BufferSource, message as BufferSource);
      } catch {
        return false;
      }
    },
    async publicKey(secretKey) {
      const jwk = await subtle.exportKey('jwk', await privateKey(secretKey, true));
      return fromBase64Url(jwk.x ?? '') ?? new Uint8Array();
    },
  };
}

/** RFC 8032 section 7.1, test 1: public key and signature of the empty message. */
const RFC8032_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const RFC8032_SIGNATURE =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';
const fromHex = (h: string) => new Uint8Array(h.match(/../g)!.map((x) => parseInt(x, 16)));

let browserChoice: Promise<Ed25519> | null = null;
/**
 * The browser's implementation: WebCrypto where it verifies the RFC 8032 test vector, else noble.
 * Decided once per page.
 */
export function browserEd25519(): Promise<Ed25519> {
  browserChoice ??= (async () => {
    try {
      const web = webCryptoEd25519();
      if (await web.verify(fromHex(RFC8032_SIGNATURE), new Uint8Array(), fromHex(RFC8032_PUBLIC))) return web;
    } catch {
      // no crypto.subtle (insecure context) or no Ed25519: noble below
    }
    return nobleEd25519;
  })();
  return browserChoice;
}

/** What a valid pass code says. `step` = floor(unix seconds / ttlSeconds). */
export interface VerifiedPass {
  userId: number;
  /** Server and device codes: the code's step; ticket codes: the verifier's current step. */
  step: number;
  kind: 'server' | 'device' | 'ticket';
  /** Ticket codes (wallet passes): the one ticket the code admits, while `userId` holds it. */
  userTicketId?: number;
  /**
   * Ticket codes shown by a Google rotating barcode: the suffix's timestamp (unix seconds) and TOTP value, for a
   * door that has the pass's secret to check freshness (`wallet-totp.ts`). Always there on a rotating ticket code
   * (kind 4: without it the code is refused); absent on a bare ticket code (Apple).
   */
  totp?: { timestampSeconds: number; value: string };
  /** Device codes: the sign-in session (auth_sessions.id, UUID text) the certificate was issued to. */
  sessionId?: string;
  /** Device codes: when the certificate stops being valid, unix seconds UTC. */
  certificateExpiresAt?: number;
}

/** The fields of a device certificate. */
export interface PassCertificate {
  userId: number;
  /** auth_sessions.id (UUID text). */
  sessionId: string;
  /** Raw 32-byte Ed25519 public key of the device. */
  devicePublicKey: Uint8Array;
  /** Unix seconds UTC. */
  expiresAt: number;
}

/** Options of {@link verifyPassCode}. */
export interface VerifyOptions {
  /** The server's raw 32-byte Ed25519 public key, or several (current first, then previous ones during a rotation). */
  publicKey: Uint8Array | readonly Uint8Array[];
  /** The verifier's clock, unix seconds UTC. */
  nowSeconds: number;
  /** Seconds per time step (config QR_TTL_SECONDS). */
  ttlSeconds: number;
  /**
   * Clock-skew allowance in steps for DEVICE codes (the phone's clock computes their step): accepted
   * steps are current-1-skewSteps … current+skewSteps. Server codes always accept current-1 … current
   * (the server's clock made them). Default 1.
   */
  skewSteps?: number;
  /** The Ed25519 implementation (default {@link nobleEd25519}). */
  ed25519?: Ed25519;
}

export function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const u32 = (n: number) => {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new RangeError('not a u32: ' + n);
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};
const readU32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset + at, 4).getUint32(0);

function uuidBytes(uuid: string): Uint8Array {
  const hex = uuid.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new RangeError('not a UUID: ' + uuid);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
function uuidText(b: Uint8Array): string {
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The time step of an instant: floor(unix seconds / ttlSeconds). */
export function passStep(nowSeconds: number, ttlSeconds: number): number {
  return Math.floor(nowSeconds / ttlSeconds);
}

/** The bytes the server signs for a server code of `userId` at `step`. */
export function serverCodeMessage(userId: number, step: number): Uint8Array {
  return concat(SERVER_LABEL, new Uint8Array([KIND_SERVER]), u32(userId), u32(step));
}

/** Builds a server code from the server's signature over {@link serverCodeMessage}. */
export function encodeServerCode(userId: number, step: number, signature: Uint8Array): string {
  if (signature.length !== 64) throw new RangeError('signature must be 64 bytes');
  return PASS_CODE_PREFIX + toBase64Url(concat(new Uint8Array([KIND_SERVER]), u32(userId), u32(step), signature));
}

/** The certificate's 56 bytes. @throws RangeError on a malformed field. */
export function encodeCertificate(c: PassCertificate): Uint8Array {
  if (c.devicePublicKey.length !== 32) throw new RangeError('device public key must be 32 bytes');
  return concat(u32(c.userId), uuidBytes(c.sessionId), c.devicePublicKey, u32(c.expiresAt));
}

/** Parses the certificate's 56 bytes. */
export function decodeCertificate(b: Uint8Array): PassCertificate | null {
  if (b.length !== CERTIFICATE_BYTES) return null;
  return {
    userId: readU32(b, 0),
    sessionId: uuidText(b.subarray(4, 20)),
    devicePublicKey: b.slice(20, 52),
    expiresAt: readU32(b, 52),
  };
}

/** The bytes the server signs to certify a device key: `"tp-pass-cert-v2" | certificate`. */
export function certificateMessage(certificate: Uint8Array): Uint8Array {
  return concat(CERT_LABEL, certificate);
}

/**
 * The bytes the device signs for `step`, given the certificate and the server's signature on it
 * (`signedCertificate` = certificate 56 | certSig 64, as the API hands it out).
 */
export function deviceCodeMessage(signedCertificate: Uint8Array, step: number): Uint8Array {
  if (signedCertificate.length !== CERTIFICATE_BYTES + 64) throw new RangeError('signed certificate must be 120 bytes');
  return concat(DEVICE_LABEL, new Uint8Array([KIND_DEVICE]), signedCertificate, u32(step));
}

/** Builds a device code from the signed certificate, the step and the device's signature over {@link deviceCodeMessage}. */
export function encodeDeviceCode(signedCertificate: Uint8Array, step: number, deviceSignature: Uint8Array): string {
  if (signedCertificate.length !== CERTIFICATE_BYTES + 64) throw new RangeError('signed certificate must be 120 bytes');
  if (deviceSignature.length !== 64) throw new RangeError('signature must be 64 bytes');
  return (
    PASS_CODE_PREFIX + toBase64Url(concat(new Uint8Array([KIND_DEVICE]), signedCertificate, u32(step), deviceSignature))
  );
}

async function signedByServer(
  sig: Uint8Array,
  msg: Uint8Array,
  keys: readonly Uint8Array[],
  impl: Ed25519,
): Promise<boolean> {
  for (const key of keys) if (await impl.verify(sig, msg, key)) return true;
  return false;
}

/**
 * Verifies a scanned pass code with the server's public key(s) alone (no database, no network).
 * @returns what the code says, or null when it is malformed, forged, signed by another key, outside the
 *   accepted steps (see {@link VerifyOptions.skewSteps}) or, for a device code, its certificate has expired
 *   (expiresAt ≤ nowSeconds). Never says which: a door shows one "invalid pass".
 * Revocation (a logged-out session) is NOT checked here: an online verifier must also check
 * `sessionId` (the API's check-in does).
 */
export async function verifyPassCode(text: string, opts: VerifyOptions): Promise<VerifiedPass | null> {
  if (typeof text !== 'string' || !text.startsWith(PASS_CODE_PREFIX) || text.length > 400) return null;
  const [encoded, ...suffix] = text.slice(PASS_CODE_PREFIX.length).split('.');
  const body = fromBase64Url(encoded);
  if (!body) return null;
  if (suffix.length > 0 && !(suffix.length === 2 && suffix.every((p) => /^[0-9]{1,12}$/.test(p)))) return null;
  const keys: readonly Uint8Array[] = opts.publicKey instanceof Uint8Array ? [opts.publicKey] : opts.publicKey;
  const impl = opts.ed25519 ?? nobleEd25519;
  const current = passStep(opts.nowSeconds, opts.ttlSeconds);
  if (body.length === TICKET_BODY && (body[0] === KIND_TICKET || body[0] === KIND_ROTATING_TICKET)) {
    const rotating = body[0] === KIND_ROTATING_TICKET;
    // A Google pass's code is never shown without its rotating suffix (decision 029).
    if (rotating && suffix.length !== 2) return null;
    const fields = decodeTicketFields(body);
    if (opts.nowSeconds < fields.validFrom || opts.nowSeconds >= fields.validUntil) return null;
    const message = ticketCodeMessage(fields, rotating ? 'rotating' : 'static');
    if (!(await signedByServer(body.subarray(TICKET_SIGNED), message, keys, impl))) return null;
    return {
      userId: fields.holderId,
      step: current,
      kind: 'ticket',
      userTicketId: fields.userTicketId,
      ...(suffix.length === 2 && { totp: { timestampSeconds: Number(suffix[0]), value: suffix[1] } }),
    };
  }
  if (suffix.length > 0) return null; // only a wallet's ticket code carries the rotating suffix
  if (body.length === SERVER_BODY && body[0] === KIND_SERVER) {
    const userId = readU32(body, 1);
    const step = readU32(body, 5);
    if (step !== current && step !== current - 1) return null;
    if (!(await signedByServer(body.subarray(9), serverCodeMessage(userId, step), keys, impl))) return null;
    return { userId, step, kind: 'server' };
  }
  if (body.length === DEVICE_BODY && body[0] === KIND_DEVICE) {
    const skew = Math.max(0, Math.floor(opts.skewSteps ?? 1));
    const certBytes = body.subarray(1, 1 + CERTIFICATE_BYTES);
    const cert = decodeCertificate(certBytes)!;
    const step = readU32(body, 1 + CERTIFICATE_BYTES + 64);
    if (step < current - 1 - skew || step > current + skew) return null;
    if (cert.expiresAt <= opts.nowSeconds) return null;
    const certSig = body.subarray(1 + CERTIFICATE_BYTES, 1 + CERTIFICATE_BYTES + 64);
    if (!(await signedByServer(certSig, certificateMessage(certBytes), keys, impl))) return null;
    const deviceSig = body.subarray(DEVICE_SIGNED);
    const deviceMsg = concat(DEVICE_LABEL, body.subarray(0, DEVICE_SIGNED));
    if (!(await impl.verify(deviceSig, deviceMsg, cert.devicePublicKey))) return null;
    return {
      userId: cert.userId,
      step,
      kind: 'device',
      sessionId: cert.sessionId,
      certificateExpiresAt: cert.expiresAt,
    };
  }
  return null;
}

/** What a ticket code (kind 3, wallet passes; decision 029) says. Times are unix seconds, UTC. */
export interface TicketCodeFields {
  userTicketId: number;
  /** The holder the code was issued to; the door admits only while they still hold the ticket. */
  holderId: number;
  /** First second the code admits. */
  validFrom: number;
  /** First second it no longer admits (the event's end). */
  validUntil: number;
}

function decodeTicketFields(body: Uint8Array): TicketCodeFields {
  return {
    userTicketId: readU32(body, 1),
    holderId: readU32(body, 5),
    validFrom: readU32(body, 9),
    validUntil: readU32(body, 13),
  };
}

/**
 * Which wallet a ticket code is for: `static` (kind 3, Apple Wallet's bare barcode) or `rotating` (kind 4, Google
 * Wallet's rotating barcode, admitted only with its TOTP suffix).
 */
export type TicketCodeMedium = 'static' | 'rotating';

/**
 * The bytes the server signs for a ticket code: `"tp-pass-ticket-v1" | 3 | the four u32 fields` (static), or
 * `"tp-pass-ticket-rotating-v1" | 4 | the four u32 fields` (rotating). @throws RangeError
 */
export function ticketCodeMessage(f: TicketCodeFields, medium: TicketCodeMedium = 'static'): Uint8Array {
  const rotating = medium === 'rotating';
  return concat(
    rotating ? ROTATING_TICKET_LABEL : TICKET_LABEL,
    new Uint8Array([rotating ? KIND_ROTATING_TICKET : KIND_TICKET]),
    u32(f.userTicketId),
    u32(f.holderId),
    u32(f.validFrom),
    u32(f.validUntil),
  );
}

/**
 * A ticket code (wallet passes, decision 029) signed with the server's 32-byte Ed25519 secret key:
 * `TP2.<base64url(81 bytes)>`, 112 characters; `medium` `rotating` for a Google Wallet pass (kind 4, shown with
 * its TOTP suffix). @throws RangeError on a field that is not a u32.
 */
export async function signTicketCode(
  secretKey: Uint8Array,
  f: TicketCodeFields,
  impl: Ed25519 = nobleEd25519,
  medium: TicketCodeMedium = 'static',
): Promise<string> {
  const message = ticketCodeMessage(f, medium);
  const signature = await impl.sign(message, secretKey);
  const label = medium === 'rotating' ? ROTATING_TICKET_LABEL : TICKET_LABEL;
  return PASS_CODE_PREFIX + toBase64Url(concat(message.subarray(label.length), signature));
}

/**
 * A server code for `userId` at `step`, signed with the server's 32-byte Ed25519 secret key.
 * @param impl the Ed25519 implementation (default noble; the API passes its node:crypto one).
 */
export async function signServerCode(
  secretKey: Uint8Array,
  userId: number,
  step: number,
  impl: Ed25519 = nobleEd25519,
): Promise<string> {
  return encodeServerCode(userId, step, await impl.sign(serverCodeMessage(userId, step), secretKey));
}

/**
 * Certifies a device key: returns the signed certificate (certificate 56 | certSig 64 = 120 bytes) that
 * the device puts in every device code. @throws RangeError on a malformed field.
 */
export async function signCertificate(
  secretKey: Uint8Array,
  c: PassCertificate,
  impl: Ed25519 = nobleEd25519,
): Promise<Uint8Array> {
  const cert = encodeCertificate(c);
  return concat(cert, await impl.sign(certificateMessage(cert), secretKey));
}

/**
 * A device code for `step`: `sign` signs bytes with the device's private key (WebCrypto Ed25519 in the
 * panel, so the key never leaves the browser's key store).
 */
export async function createDeviceCode(
  signedCertificate: Uint8Array,
  step: number,
  sign: (message: Uint8Array) => Promise<Uint8Array>,
): Promise<string> {
  return encodeDeviceCode(signedCertificate, step, await sign(deviceCodeMessage(signedCertificate, step)));
}

/** The raw 32-byte public key of a 32-byte Ed25519 secret key (seed). */
export function publicKeyOf(secretKey: Uint8Array, impl: Ed25519 = nobleEd25519): Promise<Uint8Array> {
  return impl.publicKey(secretKey);
}

/**
 * The user id a code CLAIMS, without verifying anything (both kinds carry it at body bytes 1–4): for a
 * scanner that debounces repeated reads of one holder's phone. Never an admission decision.
 * @returns null when the text is not a `TP2.` code of a known kind.
 */
export function claimedUserId(text: string): number | null {
  if (!text.startsWith(PASS_CODE_PREFIX)) return null;
  const body = fromBase64Url(text.slice(PASS_CODE_PREFIX.length).split('.')[0]);
  if (
    !body ||
    !(
      (body.length === SERVER_BODY && body[0] === KIND_SERVER) ||
      (body.length === DEVICE_BODY && body[0] === KIND_DEVICE) ||
      (body.length === TICKET_BODY && (body[0] === KIND_TICKET || body[0] === KIND_ROTATING_TICKET))
    )
  )
    return null;
  return readU32(body, body[0] === KIND_TICKET || body[0] === KIND_ROTATING_TICKET ? 5 : 1);
}
