/**
 * SQL of undoing a sale whose payment was refunded because its event was cancelled (issue 46, decision 045 "The
 * ticket back to its seller"): the tickets the payment bought with their seller and buyer, the moves back, and the
 * cancel run's cursor the mails are decided by.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  events,
  exchangeEntries,
  exchangeUnits,
  resaleListings,
  resaleOrders,
  resaleOrderTickets,
  refundRequests,
  ticketHistory,
  ticketTypes,
  userTickets,
} from '../../db/schema.js';
import type { PaidPayment } from './payment-reversal.repository.js';

/** A ticket a payment bought, as undoing the sale reads it. */
export interface SoldTicket {
  id: number;
  eventId: number;
  /** Who holds it now (null: a resale code not redeemed yet). */
  holderId: number | null;
  /** Who bought it: the resale order's redeemer (null until redeemed), the exchange entry's fan. */
  buyerId: number | null;
  /** Who sold it: the resale listing's seller, the exchange unit's returner; null for a unit the organisation released. */
  sellerId: number | null;
  revokedAt: Date | null;
}

/** The ticket history kind of a ticket given back to its seller. */
export const SALE_REFUNDED = 'SALE_REFUNDED';

export const saleUndoRepository = {
  /** The tickets the payment `p` bought (ascending ids), their rows locked for update. */
  async soldTickets(db: DbOrTx, p: PaidPayment): Promise<SoldTicket[]> {
    const ticket = {
      id: userTickets.id,
      eventId: ticketTypes.eventId,
      holderId: userTickets.holderId,
      revokedAt: userTickets.revokedAt,
    };
    if (p.kind === 'resale')
      return db
        .select({ ...ticket, buyerId: resaleOrders.redeemedBy, sellerId: resaleListings.sellerId })
        .from(resaleOrderTickets)
        .innerJoin(resaleOrders, eq(resaleOrders.id, resaleOrderTickets.orderId))
        .innerJoin(resaleListings, eq(resaleListings.id, resaleOrders.listingId))
        .innerJoin(userTickets, eq(userTickets.id, resaleOrderTickets.userTicketId))
        .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
        .where(eq(resaleOrderTickets.orderId, p.orderId))
        .orderBy(userTickets.id)
        .for('update', { of: userTickets });
    return db
      .select({ ...ticket, buyerId: exchangeEntries.userId, sellerId: exchangeUnits.sellerUserId })
      .from(exchangeUnits)
      .innerJoin(exchangeEntries, eq(exchangeEntries.id, exchangeUnits.entryId))
      .innerJoin(userTickets, eq(userTickets.id, exchangeUnits.userTicketId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .where(and(eq(exchangeUnits.entryId, p.entryId ?? -1), eq(exchangeUnits.status, 'SOLD')))
      .orderBy(userTickets.id)
      .for('update', { of: userTickets });
  },

  /** Gives each ticket back to its seller (`to`), from whoever held it (`from`, null: nobody); the history records it. */
  async giveBack(db: DbOrTx, moves: { id: number; from: number | null; to: number }[], at: Date): Promise<void> {
    if (!moves.length) return;
    for (const to of new Set(moves.map((m) => m.to)))
      await db
        .update(userTickets)
        .set({ holderId: to })
        .where(
          inArray(
            userTickets.id,
            moves.filter((m) => m.to === to).map((m) => m.id),
          ),
        );
    await db
      .insert(ticketHistory)
      .values(moves.map((m) => ({ userTicketId: m.id, fromUserId: m.from, toUserId: m.to, kind: SALE_REFUNDED, at })));
  },

  /**
   * The cancel run's cursor of the event `eventId` (the last ticket id its holders were told of; null: all were), its
   * row locked for update, so the run's next batch and this transaction run one after the other (decision 045);
   * undefined when the event is not cancelled.
   */
  async lockCancelRun(db: DbOrTx, eventId: number): Promise<{ cursor: number | null } | undefined> {
    const [row] = await db
      .select({ cursor: events.cancelCursor, cancelledAt: events.cancelledAt })
      .from(events)
      .where(eq(events.id, eventId))
      .for('update');
    return row?.cancelledAt ? { cursor: row.cursor } : undefined;
  },

  /** Whom the resale order `orderId` was placed by: the e-mail and language its code was sent to. */
  async orderBuyer(db: DbOrTx, orderId: string): Promise<{ email: string; locale: string } | undefined> {
    const [row] = await db
      .select({ email: resaleOrders.buyerEmail, locale: resaleOrders.locale })
      .from(resaleOrders)
      .where(eq(resaleOrders.id, orderId));
    return row;
  },

  /**
   * Closes as `withdrawn` (at `at`) the pending refund requests of the tickets `userTicketIds`, which have just left
   * the holder who asked (decision 045): their payment went back to them, and the ticket's new holder may ask anew.
   */
  async withdrawPendingRefunds(db: DbOrTx, userTicketIds: readonly number[], at: Date): Promise<void> {
    if (!userTicketIds.length) return;
    await db
      .update(refundRequests)
      .set({ status: 'withdrawn', decidedAt: at })
      .where(and(inArray(refundRequests.userTicketId, [...userTicketIds]), eq(refundRequests.status, 'pending')));
  },
};
