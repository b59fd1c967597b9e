/** SQL for gifting: the locked ticket with its type and event, receivers, history. */
import { and, asc, eq, exists, ilike, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { ticketIsHeldBack } from '../../db/predicates.js';
import {
  authSessions,
  events,
  organisations,
  ticketHistory,
  ticketTypes,
  userTickets,
  users,
} from '../../db/schema.js';

export const giftRepository = {
  /**
   * The ticket with its type and event, row-locked for the transaction when `lock`. The lock is taken first and the
   * row read by the next statement, so `listed` (a subquery) sees what a transaction that held the lock wrote (a
   * refund request, a listing): in READ COMMITTED a statement that waited for a row lock re-reads that row but
   * evaluates its subqueries on the snapshot it started with (issue 46, refund-race.test.ts).
   */
  async ticket(db: DbOrTx, userTicketId: number, lock = false) {
    if (lock)
      await db.select({ id: userTickets.id }).from(userTickets).where(eq(userTickets.id, userTicketId)).for('update');
    const q = db
      .select({
        ticket: userTickets,
        type: ticketTypes,
        event: events,
        organisation: organisations,
        listed: ticketIsHeldBack(userTickets.id),
      })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .innerJoin(organisations, eq(organisations.id, events.organisationId))
      .where(eq(userTickets.id, userTicketId));
    const [row] = await q;
    return row;
  },
  async moveTicket(
    db: DbOrTx,
    userTicketId: number,
    fromUserId: number,
    toUserId: number,
    kind: string,
    at: Date,
  ): Promise<void> {
    await db.update(userTickets).set({ holderId: toUserId }).where(eq(userTickets.id, userTicketId));
    await db.insert(ticketHistory).values({ userTicketId, fromUserId, toUserId, kind, at });
  },
  async historyOf(db: DbOrTx, userTicketId: number) {
    return db
      .select()
      .from(ticketHistory)
      .where(eq(ticketHistory.userTicketId, userTicketId))
      .orderBy(asc(ticketHistory.id));
  },
  async userByEmail(db: DbOrTx, email: string) {
    const [row] = await db.select().from(users).where(eq(users.email, email));
    return row;
  },
  async userById(db: DbOrTx, id: number) {
    const [row] = await db.select().from(users).where(eq(users.id, id));
    return row;
  },
  async userByUsername(db: DbOrTx, nickname: string, suffix: number) {
    const [row] = await db
      .select()
      .from(users)
      .where(
        and(
          eq(users.usernameSuffix, suffix),
          sql`lower(${users.nickname}) = lower(${nickname})`,
          isNull(users.deletedAt),
        ),
      );
    return row;
  },
  /**
   * Up to `limit` users whose `nickname#suffix` starts with `prefix` (case-insensitive), excluding one user,
   * deleted accounts and accounts whose owner never signed in (no sign-in session: created by a gift to an
   * e-mail or an import).
   */
  async searchUsernames(db: DbOrTx, prefix: string, excludeUserId: number, limit: number) {
    const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
    return db
      .select({ nickname: users.nickname, suffix: users.usernameSuffix, picture: users.picture })
      .from(users)
      .where(
        and(
          ne(users.id, excludeUserId),
          isNull(users.deletedAt),
          exists(
            db
              .select({ one: sql`1` })
              .from(authSessions)
              .where(eq(authSessions.userId, users.id)),
          ),
          ilike(sql`${users.nickname} || '#' || ${users.usernameSuffix}`, `${escaped}%`),
        ),
      )
      .orderBy(asc(users.nickname), asc(users.usernameSuffix))
      .limit(limit);
  },
};
