/**
 * "Mail the holders of …" (issue 43: written once): the one query that reads the tickets people hold with what a
 * ticket e-mail needs (its rows become mails through `holderMail`, brand.ts). Used by the reminders
 * (housekeeping), the "event changed" e-mails and the "ticket revoked" e-mail (organisations); the next ticket e-mail
 * (a cancelled or moved show) starts here.
 */
import { and, countDistinct, eq, gt, inArray, isNull, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { events, organisations, ticketTypes, userTickets, users } from '../../db/schema.js';

/** A ticket someone may still use: access not used, not revoked. */
const usable = () => and(isNull(userTickets.eventAccessUsedAt), isNull(userTickets.revokedAt));

/** A held ticket as a ticket e-mail reads it. */
export type HolderTicket = Awaited<ReturnType<typeof heldTickets>>[number];

/**
 * The tickets matching `where` that a person holds and may still use (a holder, access not used, not revoked), with
 * the holder (id, e-mail, language), the ticket type's name, the event and the organisation; by ticket id.
 */
function heldTickets(db: DbOrTx, where: SQL) {
  return db
    .select({
      userTicketId: userTickets.id,
      holderId: users.id,
      email: users.email,
      locale: users.locale,
      ticketName: ticketTypes.name,
      event: events,
      organisation: organisations,
    })
    .from(userTickets)
    .innerJoin(users, eq(users.id, userTickets.holderId))
    .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .innerJoin(organisations, eq(organisations.id, events.organisationId))
    .where(and(where, usable()))
    .orderBy(userTickets.id);
}

/** The one query of "the holders of …": by event, by tickets, or one ticket. */
export const ticketHoldersRepository = {
  /** The held, usable tickets of the event `eventId`. */
  ofEvent: (db: DbOrTx, eventId: number) => heldTickets(db, eq(events.id, eventId)),
  /** The held, usable tickets of the event `eventId` whose id is above `after`, at most `limit` (a run in batches). */
  ofEventAfter: (db: DbOrTx, eventId: number, after: number, limit: number) =>
    heldTickets(db, and(eq(events.id, eventId), gt(userTickets.id, after))!).limit(limit),
  /** How many people hold a usable ticket of the event `eventId` (each holder once, whatever they hold). */
  async holdersOfEvent(db: DbOrTx, eventId: number): Promise<number> {
    const [row] = await db
      .select({ n: countDistinct(userTickets.holderId) })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .where(and(eq(ticketTypes.eventId, eventId), usable()));
    return row?.n ?? 0;
  },
  /** The held, usable tickets among `userTicketIds` (none for an empty list). */
  async ofTickets(db: DbOrTx, userTicketIds: readonly number[]) {
    return userTicketIds.length ? heldTickets(db, inArray(userTickets.id, [...userTicketIds])) : [];
  },
  /** The ticket `userTicketId` if someone holds it and may still use it; else undefined. */
  async ofTicket(db: DbOrTx, userTicketId: number) {
    const [row] = await heldTickets(db, eq(userTickets.id, userTicketId));
    return row;
  },
};
