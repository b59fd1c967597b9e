/** SQL for resale: eligible tickets, listings, orders, codes, payouts, payout accounts, webhook dedupe. */
import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import {
  inOrganisation,
  ticketIsHeldBack,
  ticketIsOnSale,
  ticketMayMoveSql,
  ticketRow,
  type Holder,
} from '../../db/predicates.js';
import type { DbOrTx } from '../../db/client.js';
import { uniqueViolation, type UniqueWrite } from '../../db/unique-violation.js';
import {
  events,
  payoutAccounts,
  organisationPayoutAccounts,
  payouts,
  organisations,
  resaleListingTickets,
  resaleListings,
  resaleOrderTickets,
  resaleOrders,
  ticketHistory,
  ticketTypes,
  userTickets,
  users,
  stripeEvents,
} from '../../db/schema.js';

/** Tickets a holder may list: the one "may this ticket move" rule (db/predicates.ts). */
const eligible = (holder: Holder, now: Date) => ticketMayMoveSql('resell', holder, now);

const typeEvent = { type: ticketTypes, event: events };
export type ListingRow = typeof resaleListings.$inferSelect;
/** Who a payout account pays: a holder (resale and returns) or an organisation (its exchange releases, issue 45). */
export type Payee = { userId: number } | { organisationId: number };
/** A payout account's stored state, whoever it pays. */
export type PayoutAccountRow = Pick<
  typeof payoutAccounts.$inferSelect,
  'provider' | 'externalId' | 'country' | 'status' | 'createdAt' | 'verifiedAt'
>;
export type OrderRow = typeof resaleOrders.$inferSelect;

export const resaleRepository = {
  /** A user's e-mail and language (the seller's sale notice), or undefined. */
  async userContact(db: DbOrTx, userId: number) {
    const [row] = await db.select({ email: users.email, locale: users.locale }).from(users).where(eq(users.id, userId));
    return row;
  },
  /**
   * Eligible tickets of a user grouped by type, with the lowest ticket id of each group, or `preferId`
   * for the group that holds it (the ticket the user came from).
   */
  async availableByType(db: DbOrTx, holder: Holder, now: Date, countries: string[], preferId?: number) {
    const first = preferId
      ? sql<number>`coalesce(max(case when ${userTickets.id} = ${preferId} then ${userTickets.id} end), min(${userTickets.id}))::int`
      : sql<number>`min(${userTickets.id})::int`;
    return db
      .select({ ...typeEvent, firstTicketId: first, count: sql<number>`count(*)::int` })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(and(eligible(holder, now), inArray(events.country, countries)))
      .groupBy(ticketTypes.id, events.id)
      .orderBy(asc(events.startsAt), asc(ticketTypes.id));
  },
  /**
   * The ticket with its type and event, its row locked for the transaction. The lock is taken first and the row read
   * by the next statement, so `listed` and `onSale` (subqueries) see what the transaction that held the lock wrote
   * (issue 46: a refund request; `ticketRow`, db/predicates.ts).
   */
  async ticketWithType(db: DbOrTx, userTicketId: number) {
    return ticketRow(db, userTicketId, true, {
      listed: ticketIsHeldBack(userTickets.id),
      onSale: ticketIsOnSale(userTickets.id),
    });
  },
  async typeWithEvent(db: DbOrTx, ticketTypeId: number) {
    const [row] = await db
      .select(typeEvent)
      .from(ticketTypes)
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(eq(ticketTypes.id, ticketTypeId));
    return row;
  },
  /** Locks and returns up to `limit` eligible ticket ids of a type, `firstId` first. */
  async lockEligible(
    db: DbOrTx,
    holder: Holder,
    ticketTypeId: number,
    firstId: number,
    now: Date,
    limit: number,
  ): Promise<number[]> {
    const rows = await db
      .select({ id: userTickets.id })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(and(eligible(holder, now), eq(userTickets.ticketTypeId, ticketTypeId)))
      .orderBy(sql`${userTickets.id} = ${firstId} desc`, asc(userTickets.id))
      .limit(limit)
      .for('update', { of: userTickets });
    return rows.map((r) => r.id);
  },
  async listingByIdempotencyKey(db: DbOrTx, sellerId: number, key: string) {
    const [row] = await db
      .select()
      .from(resaleListings)
      .where(and(eq(resaleListings.sellerId, sellerId), eq(resaleListings.idempotencyKey, key)));
    return row;
  },
  /** Whether a ticket is (or was) one of a listing's tickets. */
  async listingHasTicket(db: DbOrTx, listingId: number, userTicketId: number): Promise<boolean> {
    const rows = await db
      .select({ id: resaleListingTickets.userTicketId })
      .from(resaleListingTickets)
      .where(and(eq(resaleListingTickets.listingId, listingId), eq(resaleListingTickets.userTicketId, userTicketId)));
    return rows.length > 0;
  },
  /**
   * Inserts a listing with its tickets, in a savepoint: a unique key (the seller's idempotency key, a
   * ticket already in a LISTED row) taken meanwhile is a `duplicate` result and leaves the caller's
   * transaction usable.
   */
  async insertListing(
    db: DbOrTx,
    row: typeof resaleListings.$inferInsert,
    ticketIds: number[],
  ): Promise<UniqueWrite<ListingRow>> {
    try {
      const listing = await db.transaction(async (sp) => {
        const [inserted] = await sp.insert(resaleListings).values(row).returning();
        await sp
          .insert(resaleListingTickets)
          .values(ticketIds.map((userTicketId) => ({ listingId: inserted.id, userTicketId, status: 'LISTED' })));
        return inserted;
      });
      return { ok: true, value: listing };
    } catch (err) {
      const dup = uniqueViolation(err);
      if (dup) return { ok: false, reason: 'duplicate', constraint: dup.constraint };
      throw err;
    }
  },
  /** A seller's listings with their type and first ticket id; `which` picks live ones or those with sales. */
  /** The seller's listings (SALE: live, SOLD: sold in part or whole), of one organisation's events when named. */
  async listingsOf(db: DbOrTx, seller: Holder, which: 'SALE' | 'SOLD') {
    return db
      .select({
        listing: resaleListings,
        type: ticketTypes,
        event: events,
        firstTicketId: sql<number>`(select min(${resaleListingTickets.userTicketId}) from ${resaleListingTickets} where ${resaleListingTickets.listingId} = ${resaleListings.id})::int`,
      })
      .from(resaleListings)
      .innerJoin(ticketTypes, eq(ticketTypes.id, resaleListings.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(
        and(
          eq(resaleListings.sellerId, seller.userId),
          inOrganisation(seller.organisationId),
          which === 'SALE' ? eq(resaleListings.status, 'LISTED') : gt(resaleListings.soldQuantity, 0),
        ),
      )
      .orderBy(desc(which === 'SALE' ? resaleListings.listedAt : resaleListings.soldAt));
  },
  /** The seller's LISTED listing that holds a ticket, row-locked. */
  async liveListingOfTicket(db: DbOrTx, sellerId: number, userTicketId: number) {
    const [row] = await db
      .select({ listing: resaleListings })
      .from(resaleListings)
      .innerJoin(resaleListingTickets, eq(resaleListingTickets.listingId, resaleListings.id))
      .where(
        and(
          eq(resaleListings.sellerId, sellerId),
          eq(resaleListings.status, 'LISTED'),
          eq(resaleListingTickets.userTicketId, userTicketId),
        ),
      )
      .for('update', { of: resaleListings });
    return row?.listing;
  },
  async delist(db: DbOrTx, listingId: number, at: Date): Promise<void> {
    await db
      .update(resaleListingTickets)
      .set({ status: 'RETURNED' })
      .where(and(eq(resaleListingTickets.listingId, listingId), eq(resaleListingTickets.status, 'LISTED')));
    await db.update(resaleListings).set({ status: 'DELISTED', delistedAt: at }).where(eq(resaleListings.id, listingId));
  },
  async listingByToken(db: DbOrTx, token: string) {
    const [row] = await db
      .select({ listing: resaleListings, ...typeEvent, organisation: organisations })
      .from(resaleListings)
      .innerJoin(ticketTypes, eq(ticketTypes.id, resaleListings.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .innerJoin(organisations, eq(organisations.id, events.organisationId))
      .where(eq(resaleListings.shareToken, token));
    return row;
  },
  async lockListing(db: DbOrTx, id: number) {
    const [row] = await db.select().from(resaleListings).where(eq(resaleListings.id, id)).for('update');
    return row;
  },
  async orderByIdempotencyKey(db: DbOrTx, key: string) {
    const [row] = await db.select().from(resaleOrders).where(eq(resaleOrders.idempotencyKey, key));
    return row;
  },
  /**
   * Inserts a PENDING order unless one with the same idempotency key exists (a double submit racing
   * this one); returns the order that holds the key, which is the inserted one or the other.
   */
  async insertOrder(db: DbOrTx, row: typeof resaleOrders.$inferInsert): Promise<OrderRow> {
    const [inserted] = await db
      .insert(resaleOrders)
      .values(row)
      .onConflictDoNothing({ target: resaleOrders.idempotencyKey })
      .returning();
    if (inserted) return inserted;
    const [held] = await db.select().from(resaleOrders).where(eq(resaleOrders.idempotencyKey, row.idempotencyKey!));
    return held;
  },
  async setCheckoutSession(db: DbOrTx, orderId: string, sessionId: string): Promise<void> {
    await db.update(resaleOrders).set({ checkoutSessionId: sessionId }).where(eq(resaleOrders.id, orderId));
  },
  async order(db: DbOrTx, id: string, lock = false) {
    const q = db
      .select({ order: resaleOrders, listing: resaleListings, ...typeEvent, organisation: organisations })
      .from(resaleOrders)
      .innerJoin(resaleListings, eq(resaleListings.id, resaleOrders.listingId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, resaleListings.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .innerJoin(organisations, eq(organisations.id, events.organisationId))
      .where(eq(resaleOrders.id, id));
    const [row] = lock ? await q.for('update', { of: resaleOrders }) : await q;
    return row;
  },
  /** Locks up to `n` LISTED tickets of a listing. */
  async lockListedTickets(db: DbOrTx, listingId: number, n: number): Promise<number[]> {
    const rows = await db
      .select({ id: resaleListingTickets.userTicketId })
      .from(resaleListingTickets)
      .where(and(eq(resaleListingTickets.listingId, listingId), eq(resaleListingTickets.status, 'LISTED')))
      .orderBy(asc(resaleListingTickets.userTicketId))
      .limit(n)
      .for('update');
    return rows.map((r) => r.id);
  },
  /** Withdraws sold tickets from the seller: held by nobody, under the order's code. */
  async sell(
    db: DbOrTx,
    p: { listing: ListingRow; orderId: string; ticketIds: number[]; codeHash: string; payoutCents: number; at: Date },
  ): Promise<void> {
    const n = p.ticketIds.length;
    await db
      .update(resaleListingTickets)
      .set({ status: 'SOLD' })
      .where(
        and(eq(resaleListingTickets.listingId, p.listing.id), inArray(resaleListingTickets.userTicketId, p.ticketIds)),
      );
    await db.update(userTickets).set({ holderId: null }).where(inArray(userTickets.id, p.ticketIds));
    await db
      .insert(resaleOrderTickets)
      .values(p.ticketIds.map((userTicketId) => ({ orderId: p.orderId, userTicketId })));
    await db.insert(ticketHistory).values(
      p.ticketIds.map((userTicketId) => ({
        userTicketId,
        fromUserId: p.listing.sellerId,
        toUserId: null,
        kind: 'RESALE_SOLD',
        at: p.at,
      })),
    );
    const sold = p.listing.soldQuantity + n;
    await db
      .update(resaleListings)
      .set({ soldQuantity: sold, soldAt: p.at, status: sold >= p.listing.quantity ? 'SOLD' : 'LISTED' })
      .where(eq(resaleListings.id, p.listing.id));
    await db
      .update(resaleOrders)
      .set({ status: 'PAID', paidAt: p.at, codeHash: p.codeHash })
      .where(eq(resaleOrders.id, p.orderId));
    await db.insert(payouts).values({
      orderId: p.orderId,
      sellerId: p.listing.sellerId,
      amountCents: p.payoutCents,
      currencyCode: p.listing.currencyCode,
      status: 'PENDING',
      createdAt: p.at,
    });
  },
  async markOrderFailed(db: DbOrTx, orderId: string): Promise<void> {
    await db.update(resaleOrders).set({ status: 'FAILED' }).where(eq(resaleOrders.id, orderId));
  },
  async orderByCodeHash(db: DbOrTx, codeHash: string) {
    const [row] = await db.select().from(resaleOrders).where(eq(resaleOrders.codeHash, codeHash)).for('update');
    return row;
  },
  async orderTicketIds(db: DbOrTx, orderId: string): Promise<number[]> {
    const rows = await db
      .select({ id: resaleOrderTickets.userTicketId })
      .from(resaleOrderTickets)
      .where(eq(resaleOrderTickets.orderId, orderId))
      .orderBy(asc(resaleOrderTickets.userTicketId));
    return rows.map((r) => r.id);
  },
  async redeem(db: DbOrTx, p: { orderId: string; userId: number; ticketIds: number[]; at: Date }): Promise<void> {
    await db
      .update(userTickets)
      .set({ holderId: p.userId })
      .where(and(inArray(userTickets.id, p.ticketIds), isNull(userTickets.holderId)));
    await db.insert(ticketHistory).values(
      p.ticketIds.map((userTicketId) => ({
        userTicketId,
        fromUserId: null,
        toUserId: p.userId,
        kind: 'RESALE_REDEEMED',
        at: p.at,
      })),
    );
    await db.update(resaleOrders).set({ redeemedAt: p.at, redeemedBy: p.userId }).where(eq(resaleOrders.id, p.orderId));
  },
  async payoutsOf(db: DbOrTx, sellerId: number) {
    return db.select().from(payouts).where(eq(payouts.sellerId, sellerId)).orderBy(asc(payouts.id));
  },

  /** The payout account of `payee` (a holder's, or an organisation's for its exchange releases), or undefined. */
  async payoutAccount(db: DbOrTx, payee: Payee): Promise<PayoutAccountRow | undefined> {
    if ('organisationId' in payee) {
      const [row] = await db
        .select()
        .from(organisationPayoutAccounts)
        .where(eq(organisationPayoutAccounts.organisationId, payee.organisationId));
      return row;
    }
    const [row] = await db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, payee.userId));
    return row;
  },
  /** Stores `payee`'s new payout account (PENDING) unless it has one. */
  async insertPayoutAccount(db: DbOrTx, payee: Payee, row: Omit<PayoutAccountRow, 'verifiedAt'>): Promise<void> {
    if ('organisationId' in payee)
      await db
        .insert(organisationPayoutAccounts)
        .values({ ...row, organisationId: payee.organisationId })
        .onConflictDoNothing();
    else
      await db
        .insert(payoutAccounts)
        .values({ ...row, userId: payee.userId })
        .onConflictDoNothing();
  },
  /**
   * Sets the status of `payee`'s payout account, or of the account with the provider's id `externalId` whoever it
   * pays (a provider's account id is one payee's).
   */
  async setPayoutAccountStatus(
    db: DbOrTx,
    where: Payee | { externalId: string },
    set: { status: string; country?: string | null; verifiedAt: Date | null },
  ): Promise<void> {
    if ('externalId' in where) {
      await db.update(payoutAccounts).set(set).where(eq(payoutAccounts.externalId, where.externalId));
      await db
        .update(organisationPayoutAccounts)
        .set(set)
        .where(eq(organisationPayoutAccounts.externalId, where.externalId));
    } else if ('organisationId' in where)
      await db
        .update(organisationPayoutAccounts)
        .set(set)
        .where(eq(organisationPayoutAccounts.organisationId, where.organisationId));
    else await db.update(payoutAccounts).set(set).where(eq(payoutAccounts.userId, where.userId));
  },
  /** Whether a webhook event id was handled before (recorded by `recordStripeEvent`). */
  async stripeEventSeen(db: DbOrTx, id: string): Promise<boolean> {
    const rows = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, id)).limit(1);
    return rows.length === 1;
  },
  /** Records a handled webhook event id; false when it was recorded before. */
  async recordStripeEvent(db: DbOrTx, id: string, type: string, at: Date): Promise<boolean> {
    const rows = await db.insert(stripeEvents).values({ id, type, receivedAt: at }).onConflictDoNothing().returning();
    return rows.length === 1;
  },
};
