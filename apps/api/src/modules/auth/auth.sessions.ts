/**
 * Sessions of the auth service (spec section 4, Auth flow): the token pair a sign-in opens, refresh-token rotation
 * with replay detection, logout, and the resolution of holder and console (issue 21) bearer tokens.
 */
import type { ConsoleClaims } from './auth.tokens.js';
import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../../db/client.js';
import { hashRefreshToken, newRefreshToken } from './auth.tokens.js';
import { authRepository as repo, type UserRow } from './auth.repository.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthDeps } from './auth.service.js';

/**
 * Opens a sign-in session of `userId` at `at`, lasting `refreshTokenTtlSeconds`, with its proof of presence at that
 * moment (issue 47: a sign-in with a code or a passkey is a step-up); its id.
 */
export async function openSession(
  db: DbOrTx,
  userId: number,
  at: Date,
  config: { refreshTokenTtlSeconds: number },
): Promise<string> {
  const id = randomUUID();
  await repo.insertSession(db, {
    id,
    userId,
    createdAt: at,
    steppedUpAt: at,
    expiresAt: new Date(at.getTime() + config.refreshTokenTtlSeconds * 1000),
  });
  return id;
}

/**
 * The session half of the auth service. `issueTokens` is for the sign-in half (a verified code opens a pair);
 * the rest is the service's public surface.
 */
export function createAuthSessions(deps: AuthDeps) {
  const { config, tokens, consoleTokens, now } = deps;
  const db = deps.database.db;

  /** The sign-in session when it is open and the account's, else null. */
  async function liveSession(sessionId: string, userId: number, at: Date) {
    const session = await repo.sessionById(db, sessionId);
    return session && !session.revokedAt && session.expiresAt > at && session.userId === userId ? session : null;
  }

  /** A new access token and refresh token of the sign-in session `sessionId`, issued at `at`. */
  async function issueTokens(userId: number, sessionId: string, at: Date) {
    const refresh = newRefreshToken();
    await repo.insertRefreshToken(db, refresh.hash, sessionId, at);
    const accessToken = tokens.sign({ userId, sessionId }, at);
    return { accessToken, refreshToken: refresh.token };
  }

  return {
    issueTokens,

    /**
     * POST /auth/refresh: exchanges a refresh token for a new pair (rotation). A token already
     * rotated more than `refreshGraceSeconds` ago is a replay: the whole sign-in is revoked.
     * @throws AppError `api.auth.token_not_authorized` (401).
     */
    async refresh(refreshToken: string) {
      const at = now();
      const hash = hashRefreshToken(refreshToken);
      const result = await db.transaction(async (tx) => {
        const row = await repo.lockRefreshToken(tx, hash);
        if (!row) return null;
        const { token, session } = row;
        if (session.revokedAt || session.expiresAt <= at) return null;
        if (token.rotatedAt && at.getTime() - token.rotatedAt.getTime() > config.refreshGraceSeconds * 1000) {
          await repo.revokeSession(tx, session.id, at);
          return 'replay' as const;
        }
        await repo.markRotated(tx, hash, at);
        return { userId: session.userId, sessionId: session.id };
      });
      if (result === null || result === 'replay') throw new AppError('api.auth.token_not_authorized');
      return issueTokens(result.userId, result.sessionId, at);
    },

    /** GET /auth/logout: revokes the sign-in (all its refresh tokens and access tokens). */
    async logout(sessionId: string): Promise<void> {
      await repo.revokeSession(db, sessionId, now());
    },

    /**
     * Resolves a bearer token to its user, with the session's last proof of presence (`steppedUpAt`, issue 47) and
     * the account's row as read with the session (`user`, one statement); null when the token is invalid,
     * expired, or its sign-in was revoked or ended.
     */
    async authenticate(
      bearer: string,
    ): Promise<{ userId: number; sessionId: string; steppedUpAt: Date | null; user: UserRow } | null> {
      const at = now();
      const claims = tokens.verify(bearer, at);
      if (!claims) return null;
      const session = await liveSession(claims.sessionId, claims.userId, at);
      return session ? { ...claims, steppedUpAt: session.steppedUpAt, user: session.user } : null;
    },

    /**
     * A console token (issue 21) for the signed-in holder session, acting on `organisationId`; the caller has
     * checked the membership. Valid `accessTokenTtlSeconds`; ends with the sign-in session (logout ends both).
     * @returns the token and its lifetime, seconds.
     */
    consoleToken(claims: { userId: number; sessionId: string }, organisationId: number) {
      const accessToken = consoleTokens.sign({ ...claims, organisationId }, now());
      return { accessToken, expiresIn: consoleTokens.ttlSeconds };
    },

    /**
     * Resolves a console token to its account, session and organisation, with the last proof of presence of the
     * sign-in it was opened from (`steppedUpAt`: the console's step-up routes want it fresh, decision 048); null when
     * it is not a console token (a holder token is not one), is expired, or its sign-in was revoked or ended.
     */
    async authenticateConsole(bearer: string): Promise<(ConsoleClaims & { steppedUpAt: Date | null }) | null> {
      const at = now();
      const claims = consoleTokens.verify(bearer, at);
      if (!claims) return null;
      const session = await liveSession(claims.sessionId, claims.userId, at);
      return session ? { ...claims, steppedUpAt: session.steppedUpAt } : null;
    },
  };
}
