/**
 * SQL for a seller's earnings: payouts with what was sold, a resale order (its listing's ticket type) or a ticket
 * returned to an exchange queue (the unit's type and the offer it was sold in, decision 042).
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  events,
  exchangeEntries,
  exchangeUnits,
  payouts,
  resaleListings,
  resaleOrders,
  ticketTypes,
} from '../../db/schema.js';

export const earningsRepository = {
  /** Every payout owed to `sellerId`, newest sale first. */
  async ofSeller(db: DbOrTx, sellerId: number) {
    return db
      .select({
        payout: payouts,
        order: resaleOrders,
        offer: { orderId: exchangeEntries.orderId, paidAt: exchangeEntries.paidAt },
        type: ticketTypes,
        event: events,
      })
      .from(payouts)
      .leftJoin(resaleOrders, eq(resaleOrders.id, payouts.orderId))
      .leftJoin(resaleListings, eq(resaleListings.id, resaleOrders.listingId))
      .leftJoin(exchangeUnits, eq(exchangeUnits.id, payouts.exchangeUnitId))
      .leftJoin(exchangeEntries, eq(exchangeEntries.id, exchangeUnits.entryId))
      .innerJoin(
        ticketTypes,
        sql`${ticketTypes.id} = coalesce(${resaleListings.ticketTypeId}, ${exchangeUnits.ticketTypeId})`,
      )
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(eq(payouts.sellerId, sellerId))
      .orderBy(desc(payouts.createdAt), desc(payouts.id));
  },
};
