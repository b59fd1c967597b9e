/**
 * SQL of cancelling an event (issue 46, decision 045): what a cancel touches, marking the event, taking its tickets
 * off sale and closing its exchange queue, and the cancel run's cursor.
 */
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  events,
  exchangeEntries,
  exchangeSettings,
  exchangeUnits,
  payouts,
  resaleListingTickets,
  resaleListings,
  resaleOrders,
  ticketTypes,
  userTickets,
  walletPasses,
} from '../../db/schema.js';

/** Payout statuses not settled yet: the seller is still owed (decision 044; PAID is settled, CANCELLED owed nothing). */
const UNSETTLED = ['PENDING', 'HELD'];

/** The ticket types of the event `eventId`, as a sub-query. */
const typesOf = (db: DbOrTx, eventId: number) =>
  db.select({ id: ticketTypes.id }).from(ticketTypes).where(eq(ticketTypes.eventId, eventId));

export const eventCancelRepository = {
  /**
   * What cancelling `eventId` touches: live (not revoked) tickets, the distinct people holding them, LISTED resale
   * listings, PENDING resale orders of them, WAITING or OFFERED exchange entries, wallet passes of live tickets.
   */
  async counts(db: DbOrTx, eventId: number) {
    const live = and(inArray(userTickets.ticketTypeId, typesOf(db, eventId)), isNull(userTickets.revokedAt));
    const [tickets] = await db
      .select({
        tickets: sql<number>`count(*)::int`,
        holders: sql<number>`count(distinct ${userTickets.holderId})::int`,
      })
      .from(userTickets)
      .where(live);
    const [listings] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(resaleListings)
      .where(and(inArray(resaleListings.ticketTypeId, typesOf(db, eventId)), eq(resaleListings.status, 'LISTED')));
    const [orders] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(resaleOrders)
      .innerJoin(resaleListings, eq(resaleListings.id, resaleOrders.listingId))
      .where(and(inArray(resaleListings.ticketTypeId, typesOf(db, eventId)), eq(resaleOrders.status, 'PENDING')));
    const [entries] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(exchangeEntries)
      .where(and(eq(exchangeEntries.eventId, eventId), inArray(exchangeEntries.status, ['WAITING', 'OFFERED'])));
    const [passes] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(walletPasses)
      .innerJoin(userTickets, eq(userTickets.id, walletPasses.userTicketId))
      .where(live);
    return {
      tickets: tickets.tickets,
      holders: tickets.holders,
      listings: listings.n,
      openOrders: orders.n,
      exchangeEntries: entries.n,
      walletPasses: passes.n,
    };
  },

  /**
   * Marks `eventId` cancelled at `at` with the organiser's `reason` and starts its run (cursor 0), unless it was
   * cancelled before; the cancel time either way, and whether this call cancelled it.
   */
  async markCancelled(db: DbOrTx, eventId: number, at: Date, reason: string | null) {
    const [row] = await db
      .update(events)
      .set({ cancelledAt: at, cancelReason: reason, cancelCursor: 0 })
      .where(and(eq(events.id, eventId), isNull(events.cancelledAt)))
      .returning({ cancelledAt: events.cancelledAt });
    if (row?.cancelledAt) return { cancelledAt: row.cancelledAt, now: true };
    const [before] = await db.select({ cancelledAt: events.cancelledAt }).from(events).where(eq(events.id, eventId));
    return { cancelledAt: before.cancelledAt as Date, now: false };
  },

  /**
   * Takes the event's tickets off resale: its LISTED listings DELISTED, their listed tickets RETURNED to their sellers.
   * A PENDING order of one of them can no longer be paid (its settlement finds no LISTED ticket: the order FAILED).
   */
  async delist(db: DbOrTx, eventId: number, at: Date): Promise<void> {
    const listings = db
      .select({ id: resaleListings.id })
      .from(resaleListings)
      .where(and(inArray(resaleListings.ticketTypeId, typesOf(db, eventId)), eq(resaleListings.status, 'LISTED')));
    await db
      .update(resaleListingTickets)
      .set({ status: 'RETURNED' })
      .where(and(inArray(resaleListingTickets.listingId, listings), eq(resaleListingTickets.status, 'LISTED')));
    await db
      .update(resaleListings)
      .set({ status: 'DELISTED', delistedAt: at })
      .where(and(inArray(resaleListings.ticketTypeId, typesOf(db, eventId)), eq(resaleListings.status, 'LISTED')));
  },

  /**
   * Closes the event's exchange queue for good: WAITING and OFFERED entries CLOSED, units not sold WITHDRAWN (a returned
   * ticket goes back to its holder, who cannot use it either), the settings closed. An offer paid after this is not
   * settled (the queue's own rule) and is flagged for the operator.
   */
  async closeExchange(db: DbOrTx, eventId: number, at: Date): Promise<void> {
    await db
      .update(exchangeEntries)
      .set({ status: 'CLOSED', endedAt: at })
      .where(and(eq(exchangeEntries.eventId, eventId), inArray(exchangeEntries.status, ['WAITING', 'OFFERED'])));
    await db
      .update(exchangeUnits)
      .set({ status: 'WITHDRAWN', entryId: null, endedAt: at })
      .where(and(eq(exchangeUnits.eventId, eventId), inArray(exchangeUnits.status, ['AVAILABLE', 'HELD', 'RESERVED'])));
    await db
      .update(exchangeSettings)
      .set({ closedAt: at, updatedAt: at })
      .where(and(eq(exchangeSettings.eventId, eventId), isNull(exchangeSettings.closedAt)));
  },

  /**
   * The payments for the event's tickets whose seller is not paid out yet: PAID resale orders of its listings and
   * PURCHASED exchange offers of its queue, each with a PENDING or HELD payout. Their order ids, oldest first.
   */
  async unsettledPayments(db: DbOrTx, eventId: number): Promise<{ orderId: string }[]> {
    const resale = await db
      .select({ orderId: resaleOrders.id })
      .from(resaleOrders)
      .innerJoin(resaleListings, eq(resaleListings.id, resaleOrders.listingId))
      .innerJoin(payouts, eq(payouts.orderId, resaleOrders.id))
      .where(
        and(
          inArray(resaleListings.ticketTypeId, typesOf(db, eventId)),
          eq(resaleOrders.status, 'PAID'),
          inArray(payouts.status, UNSETTLED),
        ),
      )
      .orderBy(resaleOrders.paidAt);
    const exchange = await db
      .selectDistinct({ orderId: exchangeEntries.orderId, id: exchangeEntries.id })
      .from(exchangeEntries)
      .innerJoin(exchangeUnits, eq(exchangeUnits.entryId, exchangeEntries.id))
      .innerJoin(payouts, eq(payouts.exchangeUnitId, exchangeUnits.id))
      .where(
        and(
          eq(exchangeEntries.eventId, eventId),
          eq(exchangeEntries.status, 'PURCHASED'),
          isNotNull(exchangeEntries.orderId),
          inArray(payouts.status, UNSETTLED),
        ),
      )
      .orderBy(exchangeEntries.id);
    return [...resale, ...exchange.map((e) => ({ orderId: e.orderId as string }))];
  },

  /** The cancel run of `eventId`, locked until the transaction ends: its cursor (null: done) and the reason. */
  async lockRun(db: DbOrTx, eventId: number) {
    const [row] = await db
      .select({ cursor: events.cancelCursor, reason: events.cancelReason })
      .from(events)
      .where(and(eq(events.id, eventId), isNotNull(events.cancelledAt)))
      .for('update');
    return row;
  },

  /** Moves the cancel run's cursor to the last ticket told (null: every holder was told). */
  async setCursor(db: DbOrTx, eventId: number, cursor: number | null): Promise<void> {
    await db.update(events).set({ cancelCursor: cursor }).where(eq(events.id, eventId));
  },
};
