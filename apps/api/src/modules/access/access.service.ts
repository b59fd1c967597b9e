/**
 * The entry QR pass (spec section 2, QR). The code is `TP1.<userId>.<step>.<mac>` where
 * step = floor(unix seconds / ttl) and mac = HMAC-SHA256(secret, "qr:<userId>:<step>") truncated to
 * 128 bits, base64url. It changes every ttl seconds; a scanner accepts the current and previous step.
 * The PNG is rendered once per holder per step and cached (not per request). It is drawn at one pixel
 * per module plus the 4-module quiet zone (a few hundred bytes, about as fast as building the matrix);
 * the panel scales it up to its 396 px box with `image-rendering: pixelated`, so edges stay crisp.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import QRCode from 'qrcode';

export function createAccessService(deps: { secret: Uint8Array; ttlSeconds: number; now: () => Date }) {
  const { secret, ttlSeconds, now } = deps;
  /** Rendered PNGs (base64) by `${userId}:${step}`; older steps are dropped as time moves on. */
  const cache = new Map<string, Promise<string>>();
  let cachedStep = -1;
  let renders = 0;

  const stepAt = (d: Date) => Math.floor(d.getTime() / 1000 / ttlSeconds);
  const mac = (userId: number, step: number) =>
    createHmac('sha256', secret).update(`qr:${userId}:${step}`).digest().subarray(0, 16).toString('base64url');

  /** The signed code text for a holder at a step. */
  function codeFor(userId: number, step: number): string {
    return `TP1.${userId}.${step}.${mac(userId, step)}`;
  }

  return {
    ttlSeconds,
    codeFor,
    /** Base64 PNG (no data: prefix) of the holder's current code; rendered at most once per step. */
    qrPng(userId: number): Promise<string> {
      const step = stepAt(now());
      if (step !== cachedStep) {
        for (const key of cache.keys()) if (!key.endsWith(`:${step}`)) cache.delete(key);
        cachedStep = step;
      }
      const key = `${userId}:${step}`;
      let png = cache.get(key);
      if (!png) {
        renders++;
        png = QRCode.toBuffer(codeFor(userId, step), {
          type: 'png',
          errorCorrectionLevel: 'M',
          margin: 4,
          scale: 1,
        }).then((b) => b.toString('base64'));
        png.catch(() => cache.delete(key));
        cache.set(key, png);
      }
      return png;
    },
    /**
     * Checks a scanned code: returns the holder's user id when it is valid for the step of `at` (default
     * now) or the previous step; null otherwise.
     */
    verifyCode(text: string, at: Date = now()): number | null {
      const m = /^TP1\.(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$/.exec(text);
      if (!m) return null;
      const userId = Number(m[1]);
      const step = Number(m[2]);
      const current = stepAt(at);
      if (step !== current && step !== current - 1) return null;
      const expected = Buffer.from(mac(userId, step));
      const given = Buffer.from(m[3]);
      return expected.length === given.length && timingSafeEqual(expected, given) ? userId : null;
    },
    /** How many PNGs were rendered since start (for tests and metrics). */
    renderCount: () => renders,
  };
}
export type AccessService = ReturnType<typeof createAccessService>;
