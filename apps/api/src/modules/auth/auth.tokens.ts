/**
 * Token primitives: HS256 JWT access tokens (algorithm pinned, aud/iss/exp checked) and opaque
 * refresh tokens (256 random bits, stored only as SHA-256).
 */
import { createHash, createSecretKey, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const TOKEN_AUDIENCE = 'ticket-panel';
const ALG = 'HS256';

/** Claims of an access token: `sub` user id, `sid` sign-in session id. */
export interface AccessClaims {
  userId: number;
  sessionId: string;
}

/**
 * Signs and verifies access tokens with `secret` (bytes). The secret becomes a KeyObject once: jose caches the
 * WebCrypto key it derives from a KeyObject, while raw bytes are imported anew on every call (about a tenth of
 * an authenticated request's time, bench/profile-listing.ts).
 */
export function createAccessTokens(opts: { secret: Uint8Array; issuer: string; ttlSeconds: number }) {
  const key = createSecretKey(opts.secret);
  return {
    /** Signs an access token valid `ttlSeconds` from `now`. */
    async sign(claims: AccessClaims, now: Date): Promise<string> {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ sid: claims.sessionId })
        .setProtectedHeader({ alg: ALG, typ: 'JWT' })
        .setSubject(String(claims.userId))
        .setAudience(TOKEN_AUDIENCE)
        .setIssuer(opts.issuer)
        .setIssuedAt(iat)
        .setExpirationTime(iat + opts.ttlSeconds)
        .sign(key);
    },
    /** Verifies signature, algorithm, audience, issuer and expiry; null when any check fails. */
    async verify(token: string, now: Date): Promise<AccessClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALG],
          audience: TOKEN_AUDIENCE,
          issuer: opts.issuer,
          currentDate: now,
          requiredClaims: ['exp', 'sub', 'sid'],
        });
        const userId = Number(payload.sub);
        if (!Number.isInteger(userId) || typeof payload.sid !== 'string') return null;
        return { userId, sessionId: payload.sid };
      } catch {
        return null;
      }
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;

/** A new opaque refresh token and its stored hash. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
