/**
 * The entry pass code (spec section 2, QR; decision record docs/decisions/010-offline-pass.md): its two
 * formats and a pure, isomorphic verifier used by the API (Node 20) and the door scanner (browser).
 * Only standard web APIs (TextEncoder, atob/btoa, WebCrypto's SHA-512 through @noble/ed25519) are used.
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
 * Integers are big-endian. step = floor(unix seconds / ttlSeconds).
 */
import * as ed from '@noble/ed25519';

/** Text prefix of every pass code of this format family. */
export const PASS_CODE_PREFIX = 'TP2.';
const KIND_SERVER = 1;
const KIND_DEVICE = 2;
/** Certificate length in bytes: userId 4, sessionId 16, device public key 32, expiresAt 4. */
export const CERTIFICATE_BYTES = 56;
const SERVER_BODY = 1 + 4 + 4 + 64;
const DEVICE_SIGNED = 1 + CERTIFICATE_BYTES + 64 + 4;
const DEVICE_BODY = DEVICE_SIGNED + 64;
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
/** Strict RFC 8032 verification (rejects non-canonical encodings), as WebCrypto does. */
const STRICT = { zip215: false } as const;

/** What a valid pass code says. `step` = floor(unix seconds / ttlSeconds). */
export interface VerifiedPass {
  userId: number;
  step: number;
  kind: 'server' | 'device';
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

async function signedByServer(sig: Uint8Array, msg: Uint8Array, keys: readonly Uint8Array[]): Promise<boolean> {
  for (const key of keys) {
    try {
      if (await ed.verifyAsync(sig, msg, key, STRICT)) return true;
    } catch {
      // a malformed key or signature point is simply "not signed by this key"
    }
  }
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
  const body = fromBase64Url(text.slice(PASS_CODE_PREFIX.length));
  if (!body) return null;
  const keys: readonly Uint8Array[] = opts.publicKey instanceof Uint8Array ? [opts.publicKey] : opts.publicKey;
  const current = passStep(opts.nowSeconds, opts.ttlSeconds);
  if (body.length === SERVER_BODY && body[0] === KIND_SERVER) {
    const userId = readU32(body, 1);
    const step = readU32(body, 5);
    if (step !== current && step !== current - 1) return null;
    if (!(await signedByServer(body.subarray(9), serverCodeMessage(userId, step), keys))) return null;
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
    if (!(await signedByServer(certSig, certificateMessage(certBytes), keys))) return null;
    const deviceSig = body.subarray(DEVICE_SIGNED);
    const deviceMsg = concat(DEVICE_LABEL, body.subarray(0, DEVICE_SIGNED));
    let ok = false;
    try {
      ok = await ed.verifyAsync(deviceSig, deviceMsg, cert.devicePublicKey, STRICT);
    } catch {
      ok = false;
    }
    if (!ok) return null;
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

/** A server code for `userId` at `step`, signed with the server's 32-byte Ed25519 secret key. */
export async function signServerCode(secretKey: Uint8Array, userId: number, step: number): Promise<string> {
  return encodeServerCode(userId, step, await ed.signAsync(serverCodeMessage(userId, step), secretKey));
}

/**
 * Certifies a device key: returns the signed certificate (certificate 56 | certSig 64 = 120 bytes) that
 * the device puts in every device code. @throws RangeError on a malformed field.
 */
export async function signCertificate(secretKey: Uint8Array, c: PassCertificate): Promise<Uint8Array> {
  const cert = encodeCertificate(c);
  return concat(cert, await ed.signAsync(certificateMessage(cert), secretKey));
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
export function publicKeyOf(secretKey: Uint8Array): Promise<Uint8Array> {
  return ed.getPublicKeyAsync(secretKey);
}

/**
 * The user id a code CLAIMS, without verifying anything (both kinds carry it at body bytes 1–4): for a
 * scanner that debounces repeated reads of one holder's phone. Never an admission decision.
 * @returns null when the text is not a `TP2.` code of a known kind.
 */
export function claimedUserId(text: string): number | null {
  if (!text.startsWith(PASS_CODE_PREFIX)) return null;
  const body = fromBase64Url(text.slice(PASS_CODE_PREFIX.length));
  if (
    !body ||
    !(
      (body.length === SERVER_BODY && body[0] === KIND_SERVER) ||
      (body.length === DEVICE_BODY && body[0] === KIND_DEVICE)
    )
  )
    return null;
  return readU32(body, 1);
}
