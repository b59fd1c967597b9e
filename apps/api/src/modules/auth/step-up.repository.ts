/** SQL for step-up codes (issue 47): a signed-in session's codes and its last proof of presence. */
import { and, asc, desc, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { authSessions, stepUpRequests, users } from '../../db/schema.js';

export type StepUpRequestRow = typeof stepUpRequests.$inferSelect;

export const stepUpRepository = {
  /**
   * Locks the session's row for the rest of the transaction and reads its account's address and language: step-up
   * code requests and checks of one session queue here (`lock` false: read only, a race test's control). Undefined for
   * an unknown session.
   */
  async lockSession(db: DbOrTx, sessionId: string, lock: boolean) {
    const query = db
      .select({ id: authSessions.id, userId: authSessions.userId, email: users.email, locale: users.locale })
      .from(authSessions)
      .innerJoin(users, eq(users.id, authSessions.userId))
      .where(eq(authSessions.id, sessionId));
    const [row] = await (lock ? query.for('update', { of: authSessions }) : query);
    return row;
  },
  /** The session's newest step-up code, open or not. */
  async latest(db: DbOrTx, sessionId: string): Promise<StepUpRequestRow | undefined> {
    const [row] = await db
      .select()
      .from(stepUpRequests)
      .where(eq(stepUpRequests.sessionId, sessionId))
      .orderBy(desc(stepUpRequests.createdAt))
      .limit(1);
    return row;
  },
  /** When the session's codes asked for after `since` were asked for, oldest first. */
  async createdSince(db: DbOrTx, sessionId: string, since: Date): Promise<Date[]> {
    const rows = await db
      .select({ at: stepUpRequests.createdAt })
      .from(stepUpRequests)
      .where(and(eq(stepUpRequests.sessionId, sessionId), gt(stepUpRequests.createdAt, since)))
      .orderBy(asc(stepUpRequests.createdAt));
    return rows.map((r) => r.at);
  },
  /** Closes the session's open codes (a newer one supersedes them). */
  async closeOpen(db: DbOrTx, sessionId: string, at: Date): Promise<void> {
    await db
      .update(stepUpRequests)
      .set({ closedAt: at })
      .where(and(eq(stepUpRequests.sessionId, sessionId), isNull(stepUpRequests.closedAt)));
  },
  async insert(db: DbOrTx, row: typeof stepUpRequests.$inferInsert): Promise<void> {
    await db.insert(stepUpRequests).values(row);
  },
  async update(db: DbOrTx, id: string, set: Partial<StepUpRequestRow>): Promise<void> {
    await db.update(stepUpRequests).set(set).where(eq(stepUpRequests.id, id));
  },
  /** Records a proof of presence in the session at `at` (a step-up code verified). */
  async markSteppedUp(db: DbOrTx, sessionId: string, at: Date): Promise<void> {
    await db.update(authSessions).set({ steppedUpAt: at }).where(eq(authSessions.id, sessionId));
  },
};
