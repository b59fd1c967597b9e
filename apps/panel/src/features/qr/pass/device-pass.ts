/**
 * The offline pass on this device (issue 10, decision 010). While online the panel certifies a device
 * key (POST /auth/access/pass-credential); from then on it computes the code of every time step itself,
 * with no network: `TP2` device codes of `@tp/contract/pass-code`, signed by a WebCrypto Ed25519 key
 * whose private half is not extractable. Key and certificate live in IndexedDB (`PASS_DB`); where the
 * browser gives this document no IndexedDB (the embed with third-party storage blocked: Safari, Firefox
 * strict, Chrome's phase-out and incognito) in this document's memory (`memoryPass`) for as long as the
 * panel is open (issue 20). Both are deleted at logout by `clearOfflineData`. The device's clock is corrected by the offset to the server's clock
 * measured when the certificate was issued.
 */
import type { access } from '@tp/contract';
import {
  CERTIFICATE_BYTES,
  createDeviceCode,
  decodeCertificate,
  fromBase64Url,
  passStep,
  toBase64Url,
} from '@tp/contract/pass-code';
import { client } from '../../../lib/api-client';
import { memoryPass, PASS_DB } from '../../../lib/offline-data';

/** What the device keeps: the key pair, the signed certificate and the clock correction. */
export interface DevicePass {
  privateKey: CryptoKey;
  /** base64url, 120 bytes. */
  certificate: string;
  /** Unix milliseconds UTC. */
  expiresAtMs: number;
  /** Unix milliseconds UTC when it was issued (server clock). */
  issuedAtMs: number;
  /** Seconds per step. */
  ttl: number;
  /** server clock − device clock, milliseconds. */
  clockOffsetMs: number;
}

const STORE = 'pass';
const KEY = 'current';

/**
 * One operation on the pass store in its own connection, closed right after, so that logout's
 * `indexedDB.deleteDatabase` (lib/offline-data.ts) is never blocked by an open connection.
 */
function withStore<T>(mode: IDBTransactionMode, op: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const open = indexedDB.open(PASS_DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB unavailable'));
    open.onsuccess = () => {
      const db = open.result;
      db.onversionchange = () => db.close();
      const tx = db.transaction(STORE, mode);
      const req = op(tx.objectStore(STORE));
      tx.oncomplete = () => (db.close(), resolve(req.result));
      tx.onerror = tx.onabort = () => (db.close(), reject(tx.error ?? new Error('IndexedDB transaction failed')));
    };
  });
}

/** The stored pass, or null (none yet, logged out); from memory when IndexedDB is unavailable. */
export async function loadDevicePass(): Promise<DevicePass | null> {
  try {
    return ((await withStore('readonly', (s) => s.get(KEY))) as DevicePass | undefined) ?? null;
  } catch {
    return (memoryPass.current as DevicePass | null) ?? null;
  }
}

/**
 * The user id (`sub`) of an access token, read without verifying it (the server does): only to tell whose stored
 * pass may be shown. Null when there is no token or it cannot be read.
 */
export function tokenUserId(token: string | null): number | null {
  try {
    const payload = token?.split('.')[1];
    if (!payload) return null;
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
    const sub = Number(claims.sub);
    return Number.isSafeInteger(sub) && sub > 0 ? sub : null;
  } catch {
    return null;
  }
}

/**
 * `pass` when its certificate names `userId` (the signed-in account, `tokenUserId`), else null: another
 * account's pass (left by a sign-in that did not go through logout) is never shown (issue 30).
 */
export function ownPass(pass: DevicePass | null, userId: number | null): DevicePass | null {
  const certificate = pass && fromBase64Url(pass.certificate);
  const fields = certificate && decodeCertificate(certificate.subarray(0, CERTIFICATE_BYTES));
  return pass && fields && userId !== null && fields.userId === userId ? pass : null;
}

/** True when the pass should be renewed: under half its life left (renewed only when online). */
export const needsRenewal = (pass: DevicePass | null, nowMs: number) =>
  !pass || pass.expiresAtMs - (nowMs + pass.clockOffsetMs) < (pass.expiresAtMs - pass.issuedAtMs) / 2;

/**
 * Certifies a new device key with the API and stores it (replacing the old one).
 * @throws ApiError from the API (`request_failed` offline), or Error when this browser cannot make an
 *   Ed25519 key (no offline pass then; the online QR still works).
 */
export async function renewDevicePass(): Promise<DevicePass> {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify']);
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  const sentAt = Date.now();
  const credential: access.PassCredential = await client.POST('/v1/auth/access/pass-credential', {
    body: { devicePublicKey: toBase64Url(raw) },
  });
  const receivedAt = Date.now();
  const serverNow = Date.parse(credential.serverTime);
  const pass: DevicePass = {
    privateKey: pair.privateKey,
    certificate: credential.certificate,
    expiresAtMs: Date.parse(credential.expiresAt),
    issuedAtMs: serverNow,
    ttl: credential.ttl,
    clockOffsetMs: serverNow - (sentAt + receivedAt) / 2,
  };
  try {
    await withStore('readwrite', (s) => s.put(pass, KEY));
    memoryPass.current = null;
  } catch {
    // No lasting storage for this document (a framed panel whose third-party storage is blocked).
    memoryPass.current = pass;
  }
  return pass;
}

/** Forgets the stored pass (used when the API says the sign-in is over). */
export async function forgetDevicePass(): Promise<void> {
  memoryPass.current = null;
  await withStore('readwrite', (s) => s.delete(KEY)).catch(() => undefined);
}

/** The corrected time step now, and milliseconds until the next one. */
export function stepAt(pass: Pick<DevicePass, 'ttl' | 'clockOffsetMs'>, deviceNowMs: number) {
  const serverMs = deviceNowMs + pass.clockOffsetMs;
  const step = passStep(serverMs / 1000, pass.ttl);
  return { step, msToNext: (step + 1) * pass.ttl * 1000 - serverMs, serverMs };
}

/** The device code text for `step`, signed on this device. */
export async function deviceCodeFor(pass: DevicePass, step: number): Promise<string> {
  const certificate = fromBase64Url(pass.certificate);
  if (!certificate) throw new Error('stored certificate is malformed');
  return createDeviceCode(
    certificate,
    step,
    async (message) =>
      new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, pass.privateKey, message as BufferSource)),
  );
}
