/** SQL for a seller's earnings: payouts with their order, listing, ticket type and event. */
import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { events, payouts, resaleListings, resaleOrders, ticketTypes } from '../../db/schema.js';

export const earningsRepository = {
  /** Every payout owed to `sellerId`, newest sale first. */
  async ofSeller(db: DbOrTx, sellerId: number) {
    return db
      .select({ payout: payouts, order: resaleOrders, type: ticketTypes, event: events })
      .from(payouts)
      .innerJoin(resaleOrders, eq(resaleOrders.id, payouts.orderId))
      .innerJoin(resaleListings, eq(resaleListings.id, resaleOrders.listingId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, resaleListings.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(eq(payouts.sellerId, sellerId))
      .orderBy(desc(payouts.createdAt), desc(payouts.id));
  },
};
