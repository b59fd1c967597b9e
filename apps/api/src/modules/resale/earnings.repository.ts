/**
 * SQL for a seller's earnings: payouts with what was sold, a resale order (its listing's ticket type) or a ticket
 * returned to an exchange queue (the unit's type and the offer it was sold in, decision 042); and an organisation's
 * payouts for the tickets it released into its queues.
 */
import { and, desc, eq, sql, ne } from 'drizzle-orm';
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
  /**
   * Every payout owed to `sellerId`, newest sale first; not one CANCELLED because the buyer's payment went back
   * (issue 46: the seller is owed nothing for it).
   */
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
      .where(and(eq(payouts.sellerId, sellerId), ne(payouts.status, 'CANCELLED')))
      .orderBy(desc(payouts.createdAt), desc(payouts.id));
  },

  /**
   * The payouts owed to `organisationId` for the units it released into its exchange queues (issue 45), newest
   * first, at most `limit`, with the event's and type's external ids.
   */
  async ofOrganisation(db: DbOrTx, organisationId: number, limit: number) {
    return db
      .select({
        id: payouts.id,
        eventExternalId: events.externalId,
        ticketTypeExternalId: ticketTypes.externalId,
        amountCents: payouts.amountCents,
        currencyCode: payouts.currencyCode,
        createdAt: payouts.createdAt,
        status: payouts.status,
      })
      .from(payouts)
      .innerJoin(exchangeUnits, eq(exchangeUnits.id, payouts.exchangeUnitId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, exchangeUnits.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(eq(payouts.organisationId, organisationId))
      .orderBy(desc(payouts.createdAt), desc(payouts.id))
      .limit(limit);
  },
};
