/**
 * SQL for the door check-in: events the scanner picks from, the pass holder, and the holder's tickets
 * for one event, row-locked so that two scans of one pass admit each ticket once.
 * Every function takes the database or a transaction.
 */
import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { ticketIsListed } from '../../db/predicates.js';
import { authSessions, events, ticketTypes, userTickets, users } from '../../db/schema.js';

/** One ticket of the holder for the event, as locked by `lockHeldTickets`. */
export interface HeldTicketRow {
  userTicketId: number;
  ticketName: string;
  usedAt: Date | null;
}

export const accessRepository = {
  /**
   * The sign-in session `id` of `userId` when it is neither revoked nor ended at `at` (its `expiresAt`),
   * else undefined: device pass certificates are issued for and checked against it (decision 010).
   */
  async liveSession(db: DbOrTx, id: string, userId: number, at: Date) {
    const [row] = await db
      .select({ id: authSessions.id, expiresAt: authSessions.expiresAt })
      .from(authSessions)
      .where(
        and(
          eq(authSessions.id, id),
          eq(authSessions.userId, userId),
          isNull(authSessions.revokedAt),
          gt(authSessions.expiresAt, at),
        ),
      );
    return row;
  },

  /** The event with this id, or undefined. */
  async event(db: DbOrTx, eventId: number) {
    const [row] = await db.select({ id: events.id, name: events.name }).from(events).where(eq(events.id, eventId));
    return row;
  },

  /** Events that end after `endsAfter`, soonest start first (the scanner's picker). */
  async eventsEndingAfter(db: DbOrTx, endsAfter: Date) {
    return db
      .select({ id: events.id, name: events.name, city: events.city, startsAt: events.startsAt })
      .from(events)
      .where(gt(events.endsAt, endsAfter))
      .orderBy(asc(events.startsAt), asc(events.id));
  },

  /** The names of a user (for the door's "holder" line), or undefined when there is no such user. */
  async holder(db: DbOrTx, userId: number) {
    const [row] = await db
      .select({
        givenName: users.givenName,
        familyName: users.familyName,
        nickname: users.nickname,
        usernameSuffix: users.usernameSuffix,
      })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  },

  /**
   * The tickets `holderId` holds (holder_id = holderId) for the event, locked FOR UPDATE (user_tickets rows
   * only) until the transaction ends; ordered by ticket id. A ticket gifted or sold away concurrently is
   * re-checked by PostgreSQL after the lock wait and drops out.
   */
  async lockHeldTickets(db: DbOrTx, holderId: number, eventId: number): Promise<HeldTicketRow[]> {
    return db
      .select({ userTicketId: userTickets.id, ticketName: ticketTypes.name, usedAt: userTickets.eventAccessUsedAt })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .where(and(eq(userTickets.holderId, holderId), eq(ticketTypes.eventId, eventId)))
      .orderBy(asc(userTickets.id))
      .for('update', { of: userTickets });
  },

  /**
   * Which of these tickets are in a live resale listing. Run after `lockHeldTickets`, as its own
   * statement, so it sees a listing committed while the lock was awaited.
   */
  async listedAmong(db: DbOrTx, userTicketIds: number[]): Promise<Set<number>> {
    if (userTicketIds.length === 0) return new Set();
    const rows = await db
      .select({ id: userTickets.id })
      .from(userTickets)
      .where(and(inArray(userTickets.id, userTicketIds), ticketIsListed(userTickets.id)));
    return new Set(rows.map((r) => r.id));
  },

  /** Marks event access used at `at` on those of the tickets still unused; returns the ids it marked. */
  async markAccessUsed(db: DbOrTx, userTicketIds: number[], at: Date): Promise<number[]> {
    if (userTicketIds.length === 0) return [];
    const rows = await db
      .update(userTickets)
      .set({ eventAccessUsedAt: at })
      .where(and(inArray(userTickets.id, userTicketIds), isNull(userTickets.eventAccessUsedAt)))
      .returning({ id: userTickets.id });
    return rows.map((r) => r.id);
  },
};
