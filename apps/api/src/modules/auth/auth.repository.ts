/** SQL for sign-in requests, users, sessions and refresh tokens. */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { preparedStatement } from '../../db/prepared.js';
import { authSessions, loginRequests, refreshTokens, users } from '../../db/schema.js';

/** First key of the two-key advisory locks on login requests (ASCII "otp"). */
const LOGIN_REQUEST_LOCK_SPACE = 0x6f7470;

export type UserRow = typeof users.$inferSelect;
export type LoginRequestRow = typeof loginRequests.$inferSelect;

/**
 * Checked on every authenticated request: the session with its account, one statement (decision 051), so a route
 * that answers with the account (`/auth/me`) reads nothing more.
 */
const sessionByIdStatement = preparedStatement((db) =>
  db
    .select({ session: authSessions, user: users })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(eq(authSessions.id, sql.placeholder('id')))
    .prepare('auth_session_by_id'),
);

export const authRepository = {
  /**
   * Serialises sign-in code requests of one e-mail until the transaction ends (a transaction-level
   * advisory lock on a hash of the e-mail, in its own key space), so that the resend check, the closing
   * of earlier codes and the insert of the new one are one step under any concurrency.
   */
  async lockLoginRequestsOf(db: DbOrTx, email: string): Promise<void> {
    await db.execute(sql`select pg_advisory_xact_lock(${LOGIN_REQUEST_LOCK_SPACE}, hashtext(${email}))`);
  },
  /** The newest sign-in request for an e-mail, open or not. */
  async latestLoginRequest(db: DbOrTx, email: string): Promise<LoginRequestRow | undefined> {
    const [row] = await db
      .select()
      .from(loginRequests)
      .where(eq(loginRequests.email, email))
      .orderBy(desc(loginRequests.createdAt))
      .limit(1);
    return row;
  },
  /** Closes every open request of an e-mail (a newer code supersedes them). */
  async closeOpenLoginRequests(db: DbOrTx, email: string, at: Date): Promise<void> {
    await db
      .update(loginRequests)
      .set({ closedAt: at })
      .where(and(eq(loginRequests.email, email), isNull(loginRequests.closedAt)));
  },
  async insertLoginRequest(db: DbOrTx, row: typeof loginRequests.$inferInsert): Promise<void> {
    await db.insert(loginRequests).values(row);
  },
  /** Locks a sign-in request row for the rest of the transaction. */
  async lockLoginRequest(db: DbOrTx, id: string): Promise<LoginRequestRow | undefined> {
    const [row] = await db.select().from(loginRequests).where(eq(loginRequests.id, id)).for('update');
    return row;
  },
  async updateLoginRequest(db: DbOrTx, id: string, set: Partial<LoginRequestRow>): Promise<void> {
    await db.update(loginRequests).set(set).where(eq(loginRequests.id, id));
  },

  /** Sets the account's language (en | es), the one its e-mails are written in. */
  async setUserLocale(db: DbOrTx, id: number, locale: string): Promise<void> {
    await db.update(users).set({ locale }).where(eq(users.id, id));
  },
  async userByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.email, email));
    return row;
  },

  /**
   * Records how the last mail to `email` went (issue 41 point 6) on its account, if it has one; a `delivered` that
   * changes nothing writes nothing (most mails).
   */
  async setEmailStatus(
    db: DbOrTx,
    email: string,
    status: 'delivered' | 'failing' | 'bounced',
    detail: string | null,
    at: Date,
  ): Promise<void> {
    await db
      .update(users)
      .set({ emailStatus: status, emailStatusAt: at, emailStatusDetail: detail })
      .where(
        status === 'delivered'
          ? and(eq(users.email, email), sql`${users.emailStatus} is distinct from 'delivered'`)
          : eq(users.email, email),
      );
  },

  /** Inserts a user unless the e-mail or suffix exists; returns undefined on conflict. */
  async insertUser(db: DbOrTx, row: typeof users.$inferInsert): Promise<UserRow | undefined> {
    const [created] = await db.insert(users).values(row).onConflictDoNothing().returning();
    return created;
  },

  async insertSession(db: DbOrTx, row: typeof authSessions.$inferInsert): Promise<void> {
    await db.insert(authSessions).values(row);
  },
  /** The sign-in session `id` with its account's row (`user`); undefined when there is none. */
  async sessionById(db: DbOrTx, id: string) {
    const [row] = await sessionByIdStatement(db).execute({ id });
    return row && { ...row.session, user: row.user };
  },
  async revokeSession(db: DbOrTx, id: string, at: Date): Promise<void> {
    await db
      .update(authSessions)
      .set({ revokedAt: at })
      .where(and(eq(authSessions.id, id), isNull(authSessions.revokedAt)));
  },
  async insertRefreshToken(db: DbOrTx, tokenHash: string, sessionId: string, at: Date): Promise<void> {
    await db.insert(refreshTokens).values({ tokenHash, sessionId, createdAt: at });
  },
  /** Locks a refresh token row with its session. */
  async lockRefreshToken(db: DbOrTx, tokenHash: string) {
    const [row] = await db
      .select({ token: refreshTokens, session: authSessions })
      .from(refreshTokens)
      .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
      .where(eq(refreshTokens.tokenHash, tokenHash))
      .for('update', { of: refreshTokens });
    return row;
  },
  async markRotated(db: DbOrTx, tokenHash: string, at: Date): Promise<void> {
    await db
      .update(refreshTokens)
      .set({ rotatedAt: sql`coalesce(${refreshTokens.rotatedAt}, ${at})` })
      .where(eq(refreshTokens.tokenHash, tokenHash));
  },
};
