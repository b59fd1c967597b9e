/** SQL for gifting: the locked ticket with its type and event, receivers, history. */
import { and, asc, eq, exists, ilike, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { ticketIsHeldBack, ticketRow } from '../../db/predicates.js';
import { authSessions, organisations, ticketHistory, userTickets, users } from '../../db/schema.js';

export const giftRepository = {
  /**
   * The ticket with its type, event and organisation, and whether it is held back (`listed`); row-locked for the
   * transaction when `lock`, before the read (`ticketRow`, db/predicates.ts).
   */
  async ticket(db: DbOrTx, userTicketId: number, lock = false) {
    return ticketRow(db, userTicketId, lock, { organisation: organisations, listed: ticketIsHeldBack(userTickets.id) });
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
