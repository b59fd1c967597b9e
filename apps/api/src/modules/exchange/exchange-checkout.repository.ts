/**
 * SQL of an exchange offer's checkout and settlement (issue 45, decision 042 "As built (checkout)"): the order an
 * offered entry is paid under, its reserved units, and the sale that moves returned tickets and issues released ones.
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { grantTypeBenefits } from '../../db/predicates.js';
import {
  events,
  exchangeEntries,
  exchangeUnits,
  organisations,
  payouts,
  ticketHistory,
  ticketTypes,
  userTickets,
  users,
} from '../../db/schema.js';
import type { EntryRow, UnitRow } from './exchange.repository.js';

export const exchangeCheckoutRepository = {
  /** The entry paid under `orderId`, or undefined. */
  async entryOfOrder(db: DbOrTx, orderId: string): Promise<EntryRow | undefined> {
    const [row] = await db.select().from(exchangeEntries).where(eq(exchangeEntries.orderId, orderId));
    return row;
  },

  /** The units RESERVED for the entry, oldest first. */
  async reservedUnits(db: DbOrTx, entryId: number): Promise<UnitRow[]> {
    return db
      .select()
      .from(exchangeUnits)
      .where(and(eq(exchangeUnits.entryId, entryId), eq(exchangeUnits.status, 'RESERVED')))
      .orderBy(asc(exchangeUnits.id));
  },

  /**
   * Gives the OFFERED entry its order id, total (minor units) and currency, unless it has them already (a second
   * click, or two at once, keep the first); the entry as it then is.
   */
  async openOrder(
    tx: DbOrTx,
    entryId: number,
    order: { orderId: string; totalCents: number; currencyCode: string },
  ): Promise<EntryRow | undefined> {
    const [row] = await tx
      .update(exchangeEntries)
      .set({
        orderId: sql`coalesce(${exchangeEntries.orderId}, ${order.orderId}::uuid)`,
        totalCents: sql`coalesce(${exchangeEntries.totalCents}, ${order.totalCents})`,
        currencyCode: sql`coalesce(${exchangeEntries.currencyCode}, ${order.currencyCode})`,
      })
      .where(and(eq(exchangeEntries.id, entryId), eq(exchangeEntries.status, 'OFFERED')))
      .returning();
    return row;
  },

  /** Records the provider's session of the order (the first one wins). */
  async setSession(db: DbOrTx, orderId: string, sessionId: string, url: string): Promise<void> {
    await db
      .update(exchangeEntries)
      .set({ checkoutSessionId: sessionId, checkoutUrl: url })
      .where(and(eq(exchangeEntries.orderId, orderId), isNull(exchangeEntries.checkoutSessionId)));
  },

  /** The facts the checkout names: the event, its type and organisation, and the fan's e-mail and language. */
  async checkoutFacts(db: DbOrTx, entryId: number) {
    const [row] = await db
      .select({ event: events, type: ticketTypes, organisation: organisations, fan: users })
      .from(exchangeEntries)
      .innerJoin(events, eq(events.id, exchangeEntries.eventId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, exchangeEntries.ticketTypeId))
      .innerJoin(organisations, eq(organisations.id, events.organisationId))
      .innerJoin(users, eq(users.id, exchangeEntries.userId))
      .where(eq(exchangeEntries.id, entryId));
    return row;
  },

  /**
   * Whether every returned ticket of `units` is still its seller's and not revoked (its row locked for the sale): a
   * ticket that changed some other way since its return is not sold (issue 45 audit: an organiser's revoke or
   * re-issue of a returned ticket, now refused, let a fan buy a revoked ticket or take a new holder's).
   */
  async returnedStillSellers(tx: DbOrTx, units: UnitRow[]): Promise<boolean> {
    const returned = units.filter((u) => u.userTicketId !== null);
    if (!returned.length) return true;
    const rows = await tx
      .select({ id: userTickets.id, holderId: userTickets.holderId, revokedAt: userTickets.revokedAt })
      .from(userTickets)
      .where(
        inArray(
          userTickets.id,
          returned.map((u) => u.userTicketId as number),
        ),
      )
      .for('update');
    const byId = new Map(rows.map((r) => [r.id, r]));
    return returned.every((u) => {
      const row = byId.get(u.userTicketId as number);
      return row !== undefined && row.revokedAt === null && row.holderId === u.sellerUserId;
    });
  },

  /**
   * Moves the returned tickets of `units` to `buyerId` (the one move: the holder changes, the history records it, the
   * old pass is void) and owes each seller the unit's price (a PENDING payout per unit, minor units).
   */
  async sellReturned(tx: DbOrTx, units: UnitRow[], buyerId: number, at: Date): Promise<number[]> {
    const returned = units.filter((u) => u.userTicketId !== null && u.sellerUserId !== null);
    if (!returned.length) return [];
    const ids = returned.map((u) => u.userTicketId as number);
    await tx.update(userTickets).set({ holderId: buyerId }).where(inArray(userTickets.id, ids));
    await tx.insert(ticketHistory).values(
      returned.map((u) => ({
        userTicketId: u.userTicketId as number,
        fromUserId: u.sellerUserId,
        toUserId: buyerId,
        kind: 'EXCHANGE_SOLD',
        at,
      })),
    );
    await tx.insert(payouts).values(
      returned.map((u) => ({
        exchangeUnitId: u.id,
        sellerId: u.sellerUserId as number,
        amountCents: u.priceCents,
        currencyCode: u.currencyCode,
        status: 'PENDING',
        createdAt: at,
      })),
    );
    return ids;
  },

  /**
   * Issues one new ticket of the type to `buyerId` for each released unit of `units` (with every benefit of its
   * type, as an organiser's issue gives), and a PENDING payout of its price to the organisation that released it;
   * the unit then names its ticket. The new tickets' ids.
   */
  async issueReleased(
    tx: DbOrTx,
    units: UnitRow[],
    ticket: { organisationId: number; ticketTypeId: number },
    buyerId: number,
    at: Date,
  ): Promise<number[]> {
    const released = units.filter((u) => u.userTicketId === null);
    if (!released.length) return [];
    const rows = await tx
      .insert(userTickets)
      .values(released.map(() => ({ ...ticket, holderId: buyerId, createdAt: at })))
      .returning({ id: userTickets.id });
    // The organisation that released each unit is owed its price (issue 45: paid to its own payout account).
    await tx.insert(payouts).values(
      released.map((u) => ({
        exchangeUnitId: u.id,
        organisationId: u.organisationId ?? ticket.organisationId,
        amountCents: u.priceCents,
        currencyCode: u.currencyCode,
        status: 'PENDING',
        createdAt: at,
      })),
    );
    const ids = rows.map((r) => r.id);
    // Each unit names the ticket it became, so a refund or dispute of the offer's payment finds it (issue 46).
    for (const [i, u] of released.entries())
      await tx.update(exchangeUnits).set({ userTicketId: ids[i] }).where(eq(exchangeUnits.id, u.id));
    await tx
      .insert(ticketHistory)
      .values(ids.map((userTicketId) => ({ userTicketId, fromUserId: null, toUserId: buyerId, kind: 'ISSUE', at })));
    await grantTypeBenefits(tx, ids, ticket.ticketTypeId);
    return ids;
  },

  /** The e-mail and language of each of these users (sellers to tell). */
  async contacts(db: DbOrTx, ids: number[]) {
    if (!ids.length) return [];
    return db
      .select({ id: users.id, email: users.email, locale: users.locale })
      .from(users)
      .where(inArray(users.id, ids))
      .orderBy(asc(users.id));
  },

  /** The units SOLD and the entry PURCHASED (paid at `at`). */
  async purchase(tx: DbOrTx, entryId: number, unitIds: number[], at: Date): Promise<void> {
    await tx.update(exchangeUnits).set({ status: 'SOLD', endedAt: at }).where(inArray(exchangeUnits.id, unitIds));
    await tx
      .update(exchangeEntries)
      .set({ status: 'PURCHASED', paidAt: at, endedAt: at })
      .where(eq(exchangeEntries.id, entryId));
  },
};
