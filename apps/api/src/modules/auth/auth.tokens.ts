/**
 * Token primitives: HS256 JWT access tokens (algorithm pinned, aud/iss/exp checked) and opaque
 * refresh tokens (256 random bits, stored only as SHA-256).
 */
import { createHash, createSecretKey, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const TOKEN_AUDIENCE = 'ticket-panel';
/**
 * The audience of console tokens (issue 21): a holder token is refused on organiser routes and a console
 * token on holder routes, since each verifies its own audience.
 */
export const CONSOLE_AUDIENCE = 'ticket-console';
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

/** Claims of a console token: the holder session's claims and the organisation (`org`) it acts on. */
export interface ConsoleClaims extends AccessClaims {
  organisationId: number;
}

/** Console tokens (issue 21): HS256 like access tokens, audience `ticket-console`, with the organisation id. */
export function createConsoleTokens(opts: { secret: Uint8Array; issuer: string; ttlSeconds: number }) {
  return {
    ttlSeconds: opts.ttlSeconds,
    /** Signs a console token valid `ttlSeconds` from `now`. */
    async sign(claims: ConsoleClaims, now: Date): Promise<string> {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ sid: claims.sessionId, org: claims.organisationId })
        .setProtectedHeader({ alg: ALG, typ: 'JWT' })
        .setSubject(String(claims.userId))
        .setAudience(CONSOLE_AUDIENCE)
        .setIssuer(opts.issuer)
        .setIssuedAt(iat)
        .setExpirationTime(iat + opts.ttlSeconds)
        .sign(opts.secret);
    },
    /** Verifies signature, algorithm, audience `ticket-console`, issuer and expiry; null when any check fails. */
    async verify(token: string, now: Date): Promise<ConsoleClaims | null> {
      try {
        const { payload } = await jwtVerify(token, opts.secret, {
          algorithms: [ALG],
          audience: CONSOLE_AUDIENCE,
          issuer: opts.issuer,
          currentDate: now,
          requiredClaims: ['exp', 'sub', 'sid', 'org'],
        });
        const userId = Number(payload.sub);
        const organisationId = payload.org;
        if (!Number.isInteger(userId) || typeof payload.sid !== 'string') return null;
        if (typeof organisationId !== 'number' || !Number.isInteger(organisationId)) return null;
        return { userId, sessionId: payload.sid, organisationId };
      } catch {
        return null;
      }
    },
  };
}
export type ConsoleTokens = ReturnType<typeof createConsoleTokens>;

/** A new opaque refresh token and its stored hash. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
