/**
 * The entry QR pass (spec section 2, QR; decision 010). Codes are the `TP2` family of
 * `@tp/contract/pass-code`:
 * - server codes: userId and step = floor(unix seconds / ttl), signed with the server's Ed25519
 *   pass-signing key; GET /auth/access/qr serves the current one as a PNG. It changes every ttl seconds.
 * - device codes: the panel certifies a device key once (POST /auth/access/pass-credential, see
 *   `issueCredential`) and then signs every step itself, offline.
 * Both verify with the public key alone (`verifyCode`), so an offline door admits what a phone shows.
 * The PNG is rendered once per holder per step and cached (not per request). It is drawn at one pixel
 * per module plus the 4-module quiet zone, one bit per pixel (460 bytes);
 * the panel scales it up to its 396 px box with `image-rendering: pixelated`, so edges stay crisp.
 */
import { encode as encodePng } from 'fast-png';
import { encode as encodeQr } from 'uqr';
import {
  fromBase64Url,
  passStep,
  publicKeyOf,
  signCertificate,
  signServerCode,
  toBase64Url,
  verifyPassCode,
  type VerifiedPass,
} from '@tp/contract/pass-code';
import type { access } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { nodeEd25519 } from '../../lib/ed25519.js';
import type { Holder } from '../../db/predicates.js';
import { accessRepository as repo } from './access.repository.js';

/** White modules around the symbol (the quiet zone the QR standard asks for). */
const QUIET_ZONE = 4;

/** Time steps a holder's shown pass is remembered as shown (see `passRevealAt`): the next poll finds it. */
const REVEALED_STEPS = 2;
/** Holders remembered as shown at most; the memory is emptied when full (about 100 bytes each). */
const REVEALED_MAX = 100_000;

/**
 * The server's pass as a PNG: one pixel per module plus the 4-module quiet zone, error correction M, 1-bit grey
 * (white 1, black 0) without row filters, its data stored, not compressed (deflate level 0: a 1-bit image of a
 * version-6 symbol is 392 bytes; compressing it saved 80 bytes for 50-80 µs a pass). The matrix from uqr (the
 * panel's encoder: no search for the shortest segmentation, which qrcode ran on every render), the file from
 * fast-png. Always mask pattern 0 (the checkerboard, `(row + column) mod 2`): without a fixed mask the encoder
 * scores all eight masks on every render (ISO/IEC 18004's penalty rules); the mask is written in the code's format
 * information, so every decoder reads any of the eight. Decision 043: ~0.1 ms of CPU a pass, against ~0.8 ms for
 * qrcode's matrix and pngjs's 8-bit file.
 */
function passPng(code: string): Buffer {
  // uqr's own border copies the matrix into a larger one; the quiet zone is only an offset here.
  const { data, size: modules } = encodeQr(code, { ecc: 'M', border: 0, maskPattern: 0 });
  const side = modules + 2 * QUIET_ZONE;
  const rowBytes = Math.ceil(side / 8);
  const bits = new Uint8Array(rowBytes * side).fill(0xff);
  for (let y = 0; y < modules; y++) {
    const row = data[y];
    const at = (y + QUIET_ZONE) * rowBytes;
    for (let x = 0; x < modules; x++)
      if (row[x]) bits[at + ((x + QUIET_ZONE) >> 3)] &= ~(0x80 >> ((x + QUIET_ZONE) & 7));
  }
  const png = encodePng({ width: side, height: side, channels: 1, depth: 1, data: bits }, { zlib: { level: 0 } });
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}

/**
 * Holders whose pass showed (`passRevealAt` null), by user and organisation, each for `forMs` milliseconds from
 * when it was read: their phones' next polls show it without a database read (decision 051: at the gate every poll
 * was one). What can hide a shown pass (its event's `passRevealAt` moved later, its last revealed ticket given away
 * or revoked) takes effect at most that late; the door judges `passRevealAt` itself (`not_revealed`), so such a pass
 * admits nobody. A hidden pass is never remembered: it shows as soon as it may. At most REVEALED_MAX holders.
 */
function shownPasses(forMs: number) {
  const until = new Map<string, number>();
  const keyOf = (holder: Holder) => `${holder.userId}:${holder.organisationId ?? 0}`;
  return {
    shown: (holder: Holder, at: Date) => (until.get(keyOf(holder)) ?? 0) > at.getTime(),
    remember(holder: Holder, at: Date) {
      const key = keyOf(holder);
      if (!until.has(key) && until.size >= REVEALED_MAX) until.clear();
      until.set(key, at.getTime() + forMs);
    },
  };
}

export function createAccessService(deps: {
  database: Database;
  /** The 32-byte Ed25519 seed (config `passSigningKey`). */
  signingKey: Uint8Array;
  /** Public keys of earlier signing keys still accepted (config `passPreviousPublicKeys`). */
  previousPublicKeys: Uint8Array[];
  /** Seconds per time step (config `qrTtlSeconds`). */
  ttlSeconds: number;
  /** Longest certificate life, seconds (config `passCredentialTtlSeconds`). */
  credentialTtlSeconds: number;
  /** Clock-skew allowance of device codes, steps (config `passSkewSteps`). */
  skewSteps: number;
  now: () => Date;
}) {
  const { signingKey, ttlSeconds, now } = deps;
  const { db } = deps.database;
  /** node:crypto, the signing key a KeyObject made once (issue 24). */
  const ed25519 = nodeEd25519();
  const publicKeys = publicKeyOf(signingKey, ed25519).then((pub) => [pub, ...deps.previousPublicKeys]);
  const revealed = shownPasses(REVEALED_STEPS * ttlSeconds * 1000);
  /** Rendered PNGs (base64) by `${userId}:${step}`; older steps are dropped as time moves on. */
  const cache = new Map<string, Promise<string>>();
  let cachedStep = -1;
  let renders = 0;
  const nowSeconds = () => Math.floor(now().getTime() / 1000);

  /** The server code text for a holder at a step (Ed25519 is deterministic: the same text every time). */
  function codeFor(userId: number, step: number): Promise<string> {
    return signServerCode(signingKey, userId, step, ed25519);
  }

  return {
    ttlSeconds,
    skewSteps: deps.skewSteps,
    codeFor,
    /**
     * When the holder's pass appears (issue 21), or null when it shows now: the earliest `passRevealAt` of the
     * events of their live tickets, unless one of those events has none or has reached it (the pass is one for
     * all their tickets, so one revealed event shows it). No live ticket: null. A pass that showed is remembered
     * as shown for REVEALED_STEPS time steps (`shownPasses`).
     */
    async passRevealAt(holder: Holder): Promise<Date | null> {
      const at = now();
      if (revealed.shown(holder, at)) return null;
      const times = await repo.revealTimes(db, holder, at);
      if (times.length > 0 && times.every((t) => t !== null && t > at))
        return new Date(Math.min(...times.map((t) => (t as Date).getTime())));
      revealed.remember(holder, at);
      return null;
    },
    /**
     * Refuses a pass (QR or device credential) before it is revealed.
     * @throws AppError `api.access.pass_not_yet_available` (409, with `revealAt` ISO 8601 UTC).
     */
    async assertPassRevealed(holder: Holder): Promise<void> {
      const revealAt = await this.passRevealAt(holder);
      if (revealAt) throw new AppError('api.access.pass_not_yet_available', { revealAt: revealAt.toISOString() });
    },
    /** Base64 PNG (no data: prefix) of the holder's current server code; rendered at most once per step. */
    qrPng(userId: number): Promise<string> {
      const step = passStep(nowSeconds(), ttlSeconds);
      if (step !== cachedStep) {
        for (const key of cache.keys()) if (!key.endsWith(`:${step}`)) cache.delete(key);
        cachedStep = step;
      }
      const key = `${userId}:${step}`;
      let png = cache.get(key);
      if (!png) {
        renders++;
        png = codeFor(userId, step).then((code) => passPng(code).toString('base64'));
        png.catch(() => cache.delete(key));
        cache.set(key, png);
      }
      return png;
    },

    /** The public keys a door verifies with, base64url, current first (GET /access/pass-keys). */
    async passKeys(): Promise<access.PassKeys> {
      return {
        publicKeys: (await publicKeys).map(toBase64Url),
        ttl: ttlSeconds,
        skewSteps: deps.skewSteps,
      };
    },

    /**
     * Checks a scanned code with the public keys alone: server codes for this or the previous step, device
     * codes within the skew window and before their certificate's end. Says nothing about revocation:
     * the check-in looks the device code's session up (`sessionIsLive`).
     * @param at the instant to check at (default now; a synced offline scan's `scannedAt`).
     */
    async verifyCode(text: string, at: Date = now()): Promise<VerifiedPass | null> {
      return verifyPassCode(text, {
        publicKey: await publicKeys,
        nowSeconds: Math.floor(at.getTime() / 1000),
        ttlSeconds,
        skewSteps: deps.skewSteps,
        ed25519,
      });
    },

    /** True when the sign-in session is neither revoked nor ended (online check of a device code). */
    async sessionIsLive(sessionId: string, userId: number): Promise<boolean> {
      return Boolean(await repo.liveSession(db, sessionId, userId, now()));
    },

    /**
     * POST /auth/access/pass-credential: certifies the device's public key for this holder and sign-in.
     * The certificate ends after `credentialTtlSeconds` (≤ 24 h) or at the session's end, whichever is first.
     * @param devicePublicKey raw 32-byte Ed25519 public key, base64url.
     * @returns the signed certificate (base64url, 120 bytes), `expiresAt` and `serverTime` (ISO 8601 UTC),
     *   `ttl` (seconds per step) and `skewSteps`.
     * @throws AppError `api.access.invalid_device_key` (400) for a key that is not 32 bytes,
     *   `api.unauthorized` (401) when the session was revoked or ended meanwhile.
     */
    async issueCredential(
      auth: { userId: number; sessionId: string },
      devicePublicKey: string,
    ): Promise<access.PassCredential> {
      const key = fromBase64Url(devicePublicKey);
      if (!key || key.length !== 32) throw new AppError('api.access.invalid_device_key');
      const at = now();
      const session = await repo.liveSession(db, auth.sessionId, auth.userId, at);
      if (!session) throw new AppError('api.unauthorized');
      const expiresAt = Math.min(
        Math.floor(at.getTime() / 1000) + deps.credentialTtlSeconds,
        Math.floor(session.expiresAt.getTime() / 1000),
      );
      const certificate = await signCertificate(
        signingKey,
        {
          userId: auth.userId,
          sessionId: auth.sessionId,
          devicePublicKey: key,
          expiresAt,
        },
        ed25519,
      );
      return {
        certificate: toBase64Url(certificate),
        expiresAt: new Date(expiresAt * 1000).toISOString(),
        serverTime: at.toISOString(),
        ttl: ttlSeconds,
        skewSteps: deps.skewSteps,
      };
    },
    /** How many PNGs were rendered since start (for tests and metrics). */
    renderCount: () => renders,
  };
}
export type AccessService = ReturnType<typeof createAccessService>;
