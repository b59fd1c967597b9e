/** SQL for passkeys (issue 47, decision 049): an account's WebAuthn credentials and the server's single-use challenges. */
import { and, count, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { webauthnChallenges, webauthnCredentials } from '../../db/schema.js';

export type PasskeyRow = typeof webauthnCredentials.$inferSelect;
export type ChallengePurpose = (typeof webauthnChallenges.$inferInsert)['purpose'];

export const passkeysRepository = {
  async insertChallenge(db: DbOrTx, row: typeof webauthnChallenges.$inferInsert): Promise<void> {
    await db.insert(webauthnChallenges).values(row);
  },
  /**
   * Marks `challenge` used, in one statement: only when it is for `purpose` and `sessionId` (null: none), unused and not
   * expired at `at`. True when this call used it: of parallel uses of one challenge, exactly one gets true. With
   * `mark` false (a test's control only) it is checked and left unused.
   */
  async useChallenge(
    db: DbOrTx,
    challenge: string,
    purpose: ChallengePurpose,
    sessionId: string | null,
    at: Date,
    mark = true,
  ): Promise<boolean> {
    const usable = and(
      eq(webauthnChallenges.challenge, challenge),
      eq(webauthnChallenges.purpose, purpose),
      sessionId === null ? isNull(webauthnChallenges.sessionId) : eq(webauthnChallenges.sessionId, sessionId),
      isNull(webauthnChallenges.usedAt),
      gt(webauthnChallenges.expiresAt, at),
    );
    const rows = mark
      ? await db
          .update(webauthnChallenges)
          .set({ usedAt: at })
          .where(usable)
          .returning({ challenge: webauthnChallenges.challenge })
      : await db.select({ challenge: webauthnChallenges.challenge }).from(webauthnChallenges).where(usable);
    return rows.length === 1;
  },
  /** The account's passkeys, newest first. */
  async ofUser(db: DbOrTx, userId: number): Promise<PasskeyRow[]> {
    return db
      .select()
      .from(webauthnCredentials)
      .where(eq(webauthnCredentials.userId, userId))
      .orderBy(desc(webauthnCredentials.createdAt));
  },
  async countOfUser(db: DbOrTx, userId: number): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(webauthnCredentials)
      .where(eq(webauthnCredentials.userId, userId));
    return Number(row?.n ?? 0);
  },
  async byId(db: DbOrTx, id: string): Promise<PasskeyRow | undefined> {
    const [row] = await db.select().from(webauthnCredentials).where(eq(webauthnCredentials.id, id));
    return row;
  },
  /** Adds a passkey; false when a passkey of that credential id exists already (the row is left as it was). */
  async insert(db: DbOrTx, row: typeof webauthnCredentials.$inferInsert): Promise<boolean> {
    const rows = await db
      .insert(webauthnCredentials)
      .values(row)
      .onConflictDoNothing()
      .returning({ id: webauthnCredentials.id });
    return rows.length === 1;
  },
  /**
   * Records a use at `at` with the authenticator's new counter, only while the stored counter is below it (or both
   * are 0: an authenticator that keeps none). False when a parallel use got there first: the same assertion twice.
   */
  async markUsed(db: DbOrTx, id: string, counter: number, at: Date): Promise<boolean> {
    const rows = await db
      .update(webauthnCredentials)
      .set({ counter, lastUsedAt: at })
      .where(
        and(
          eq(webauthnCredentials.id, id),
          counter === 0 ? eq(webauthnCredentials.counter, 0) : lte(webauthnCredentials.counter, sql`${counter - 1}`),
        ),
      )
      .returning({ id: webauthnCredentials.id });
    return rows.length === 1;
  },
  /** Removes the account's passkey `id`; false when it has none of that id. */
  async remove(db: DbOrTx, userId: number, id: string): Promise<boolean> {
    const rows = await db
      .delete(webauthnCredentials)
      .where(and(eq(webauthnCredentials.id, id), eq(webauthnCredentials.userId, userId)))
      .returning({ id: webauthnCredentials.id });
    return rows.length === 1;
  },
};
