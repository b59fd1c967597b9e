/**
 * Token primitives: HS256 JWT access and console tokens (algorithm pinned, aud/iss/exp checked) and opaque
 * refresh tokens (256 random bits, stored only as SHA-256).
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../lib/secrets.js';
import { createSigner, createVerifier } from 'fast-jwt';

export const TOKEN_AUDIENCE = 'ticket-panel';
/**
 * The audience of console tokens (issue 21): a holder token is refused on organiser routes and a console
 * token on holder routes, since each verifies its own audience.
 */
export const CONSOLE_AUDIENCE = 'ticket-console';
const ALG = 'HS256';
/** Characters a token may have; ours are 170–250. */
const MAX_TOKEN_LENGTH = 1024;

/** Claims of an access token: `sub` user id, `sid` sign-in session id. */
export interface AccessClaims {
  userId: number;
  sessionId: string;
}

/**
 * HS256 tokens of one audience, signed and verified with `secret` through fast-jwt (node:crypto's HMAC,
 * synchronous; decision 034): the algorithm pinned, `aud` and `iss` present and ours, the claims in `required` present,
 * and `exp` (and `nbf`, when given) checked against the caller's clock `now` rather than the process's, so tests
 * can move time. jose's WebCrypto HMAC cost 73 µs per verification on Node 20, a sixth of an authenticated
 * answer's CPU; node:crypto's takes about 6 µs.
 */
function hs256(opts: { secret: Uint8Array; issuer: string; audience: string; required: string[] }) {
  const key = Buffer.from(opts.secret);
  const signer = createSigner({ key, algorithm: ALG });
  const verifier = createVerifier({
    key,
    algorithms: [ALG],
    allowedAud: opts.audience,
    allowedIss: opts.issuer,
    // fast-jwt checks `aud` and `iss` only when present: required here, as jose did.
    requiredClaims: ['exp', 'aud', 'iss', ...opts.required],
    ignoreExpiration: true,
    ignoreNotBefore: true,
  });
  return {
    /** A token of `claims` (string `sub`, any others), issued at `now`, valid `ttlSeconds`. */
    sign(claims: Record<string, unknown>, now: Date, ttlSeconds: number): string {
      const iat = Math.floor(now.getTime() / 1000);
      return signer({ ...claims, aud: opts.audience, iss: opts.issuer, iat, exp: iat + ttlSeconds });
    },
    /** The token's claims when every check passes at `now`, else null. */
    verify(token: string, now: Date): Record<string, unknown> | null {
      // fast-jwt parses header and payload before the signature: a bound on what an anonymous caller makes it parse.
      if (token.length > MAX_TOKEN_LENGTH) return null;
      try {
        const payload = verifier(token) as Record<string, unknown>;
        const at = now.getTime() / 1000;
        if (typeof payload.exp !== 'number' || payload.exp <= at) return null;
        if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > at)) return null;
        return payload;
      } catch {
        return null;
      }
    },
  };
}

/** The session claims of a verified payload: a string `sub` holding an integer user id and a string `sid`; else null. */
function sessionClaims(payload: Record<string, unknown>): AccessClaims | null {
  const userId = Number(payload.sub);
  if (typeof payload.sub !== 'string' || !Number.isInteger(userId) || typeof payload.sid !== 'string') return null;
  return { userId, sessionId: payload.sid };
}

/** Signs and verifies access tokens (audience `ticket-panel`) with `secret` (bytes). */
export function createAccessTokens(opts: { secret: Uint8Array; issuer: string; ttlSeconds: number }) {
  const tokens = hs256({ ...opts, audience: TOKEN_AUDIENCE, required: ['sub', 'sid'] });
  return {
    /** Signs an access token valid `ttlSeconds` from `now`. */
    sign(claims: AccessClaims, now: Date): string {
      return tokens.sign({ sub: String(claims.userId), sid: claims.sessionId }, now, opts.ttlSeconds);
    },
    /** Verifies signature, algorithm, audience, issuer and expiry; null when any check fails. */
    verify(token: string, now: Date): AccessClaims | null {
      const payload = tokens.verify(token, now);
      return payload && sessionClaims(payload);
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
  const tokens = hs256({ ...opts, audience: CONSOLE_AUDIENCE, required: ['sub', 'sid', 'org'] });
  return {
    ttlSeconds: opts.ttlSeconds,
    /** Signs a console token valid `ttlSeconds` from `now`. */
    sign(claims: ConsoleClaims, now: Date): string {
      return tokens.sign(
        { sub: String(claims.userId), sid: claims.sessionId, org: claims.organisationId },
        now,
        opts.ttlSeconds,
      );
    },
    /** Verifies signature, algorithm, audience `ticket-console`, issuer and expiry; null when any check fails. */
    verify(token: string, now: Date): ConsoleClaims | null {
      const payload = tokens.verify(token, now);
      const claims = payload && sessionClaims(payload);
      const organisationId = payload?.org;
      if (!claims || typeof organisationId !== 'number' || !Number.isInteger(organisationId)) return null;
      return { ...claims, organisationId };
    },
  };
}
export type ConsoleTokens = ReturnType<typeof createConsoleTokens>;

/**
 * The audience of the reminder e-mail's unsubscribe tokens (issue 41 point 9): such a token is no access or console
 * token, and neither of those is an unsubscribe token.
 */
export const UNSUBSCRIBE_AUDIENCE = 'ticket-reminders-unsubscribe';

/**
 * Tokens of the reminder e-mail's one-click unsubscribe link (`List-Unsubscribe`, RFC 2369 and 8058): HS256 like
 * access tokens, audience `ticket-reminders-unsubscribe`, `sub` the holder's user id, valid `ttlSeconds`. Whoever
 * has the mail may turn that holder's reminders off, and nothing else: no sign-in is needed.
 */
export function createUnsubscribeTokens(opts: { secret: Uint8Array; issuer: string; ttlSeconds: number }) {
  const tokens = hs256({ ...opts, audience: UNSUBSCRIBE_AUDIENCE, required: ['sub'] });
  return {
    /** A token for `userId`'s reminders, valid `ttlSeconds` from `now`. */
    sign(userId: number, now: Date): string {
      return tokens.sign({ sub: String(userId) }, now, opts.ttlSeconds);
    },
    /** The user id of a token whose signature, algorithm, audience, issuer and expiry hold at `now`; else null. */
    verify(token: string, now: Date): number | null {
      const payload = tokens.verify(token, now);
      const userId = Number(payload?.sub);
      return typeof payload?.sub === 'string' && Number.isInteger(userId) && userId > 0 ? userId : null;
    },
  };
}
export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>;

/** A new opaque refresh token and its stored hash. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}
export function hashRefreshToken(token: string): string {
  return sha256Hex(token);
}
