/** SQL for profile reads and writes. */
import { and, eq, gt, isNull, lte, notExists, sql } from 'drizzle-orm';
import { uniqueViolation, type UniqueWrite } from '../../db/unique-violation.js';
import type { DbOrTx } from '../../db/client.js';
import { preparedStatement } from '../../db/prepared.js';
import { ticketHistory, users, userTickets } from '../../db/schema.js';

/** /auth/me and every profile read. */
const userByIdStatement = preparedStatement((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('profile_user_by_id'),
);

export const profileRepository = {
  /**
   * Whether `userId` holds a ticket that is not revoked (any event, past ones included) and has been theirs since
   * `heldSince` or before (issued then, and not moved to them since: by gift, resale or swap, `ticket_history`): their
   * standing in the avatar queue. An organiser who revokes an attacker's tickets takes it away, and one ticket passed
   * round by gift gives it to no one (issue 39 item 9, thirteenth re-run: one ticket gifted along 90 fresh accounts
   * gave each the standing of a ticket holder).
   * @param heldSince UTC.
   */
  async holdsTicket(db: DbOrTx, userId: number, heldSince: Date): Promise<boolean> {
    const movedToThemSince = db
      .select({ one: sql`1` })
      .from(ticketHistory)
      .where(
        and(
          eq(ticketHistory.userTicketId, userTickets.id),
          eq(ticketHistory.toUserId, userId),
          gt(ticketHistory.at, heldSince),
        ),
      );
    const [row] = await db
      .select({ one: sql<number>`1` })
      .from(userTickets)
      .where(
        and(
          eq(userTickets.holderId, userId),
          isNull(userTickets.revokedAt),
          lte(userTickets.createdAt, heldSince),
          notExists(movedToThemSince),
        ),
      )
      .limit(1);
    return row !== undefined;
  },
  async userById(db: DbOrTx, id: number) {
    const [row] = await userByIdStatement(db).execute({ id });
    return row;
  },
  async userByPhone(db: DbOrTx, phoneNumber: string) {
    const [row] = await db.select().from(users).where(eq(users.phoneNumber, phoneNumber));
    return row;
  },
  async userByUsername(db: DbOrTx, nickname: string, suffix: number) {
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.usernameSuffix, suffix), sql`lower(${users.nickname}) = lower(${nickname})`));
    return row;
  },
  /**
   * Turns `id`'s reminder e-mails off (`on` false: `reminders_off_at` set to `at`, or kept when already off, so a
   * repeated unsubscribe changes nothing) or back on (`on` true: null).
   * @returns the user's row, or undefined when there is no such user
   */
  async setReminders(db: DbOrTx, id: number, on: boolean, at: Date) {
    const [row] = await db
      .update(users)
      .set({ remindersOffAt: on ? null : sql`coalesce(${users.remindersOffAt}, ${at.toISOString()}::timestamptz)` })
      .where(eq(users.id, id))
      .returning();
    return row;
  },
  async updateUser(db: DbOrTx, id: number, set: Partial<typeof users.$inferInsert>) {
    const [row] = await db.update(users).set(set).where(eq(users.id, id)).returning();
    return row;
  },
  /**
   * Applies the fields of `set` that are defined (none: the row as it is). A unique key (phone number,
   * username) taken by someone else is a `duplicate` result naming the constraint, not an error.
   */
  async updateProfile(
    db: DbOrTx,
    id: number,
    set: Partial<typeof users.$inferInsert>,
  ): Promise<UniqueWrite<typeof users.$inferSelect | undefined>> {
    const fields = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
    try {
      if (Object.keys(fields).length === 0) {
        const [row] = await db.select().from(users).where(eq(users.id, id));
        return { ok: true, value: row };
      }
      const [row] = await db.update(users).set(fields).where(eq(users.id, id)).returning();
      return { ok: true, value: row };
    } catch (err) {
      const dup = uniqueViolation(err);
      if (dup) return { ok: false, reason: 'duplicate', constraint: dup.constraint };
      throw err;
    }
  },
};
