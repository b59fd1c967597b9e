/**
 * SQL of payments that go back (issue 46, decision 044): finding the paid order or exchange offer a refund or
 * dispute names, the tickets it bought and the payouts it owes, and recording the reversal.
 */
import { and, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  exchangeEntries,
  exchangeUnits,
  paymentReversals,
  payouts,
  resaleListingTickets,
  resaleOrderTickets,
  resaleOrders,
  ticketHistory,
  userTickets,
} from '../../db/schema.js';

/** A paid order or exchange offer as a reversal reads it (`kind`, its order id, its status). */
export interface PaidPayment {
  kind: 'resale' | 'exchange';
  orderId: string;
  /** Resale: the order's status (PAID, DISPUTED, REFUNDED); exchange: the entry's (PURCHASED). */
  status: string;
  /** Exchange: the entry's id (its units name it). */
  entryId: number | null;
  /** The provider's payment (Stripe PaymentIntent) recorded on it, null when none was (the sandbox's). */
  paymentIntentId: string | null;
}

/**
 * The reversal a cancelled event's refund of the payment `orderId` is recorded under (and its idempotency key with the
 * provider; cancel-refund.ts, decision 045).
 */
export const cancelRefundRef = (orderId: string): string => `cancel-refund-${orderId}`;

/** Why a ticket is void beside the organiser's revoke (`user_tickets.revoked_reason`). */
export type VoidReason = 'refunded' | 'disputed';

/** The paid resale order `where` selects, locked for update. */
async function lockResale(db: DbOrTx, where: SQL | undefined): Promise<PaidPayment | undefined> {
  const [order] = await db
    .select({ id: resaleOrders.id, status: resaleOrders.status, paymentIntentId: resaleOrders.paymentIntentId })
    .from(resaleOrders)
    .where(and(where, isNotNull(resaleOrders.paidAt)))
    .for('update');
  return (
    order && {
      kind: 'resale',
      orderId: order.id,
      status: order.status,
      entryId: null,
      paymentIntentId: order.paymentIntentId,
    }
  );
}

/** The purchased exchange offer `where` selects, locked for update. */
async function lockEntry(db: DbOrTx, where: SQL | undefined): Promise<PaidPayment | undefined> {
  const [entry] = await db
    .select({
      id: exchangeEntries.id,
      orderId: exchangeEntries.orderId,
      status: exchangeEntries.status,
      paymentIntentId: exchangeEntries.paymentIntentId,
    })
    .from(exchangeEntries)
    .where(and(where, eq(exchangeEntries.status, 'PURCHASED')))
    .for('update');
  if (!entry?.orderId) return undefined;
  return {
    kind: 'exchange',
    orderId: entry.orderId,
    status: entry.status,
    entryId: entry.id,
    paymentIntentId: entry.paymentIntentId,
  };
}

/** The payouts the payment owes: a resale order's, or each sold unit's of the exchange offer. */
const owedBy = (db: DbOrTx, p: PaidPayment) =>
  p.kind === 'resale'
    ? eq(payouts.orderId, p.orderId)
    : inArray(
        payouts.exchangeUnitId,
        db
          .select({ id: exchangeUnits.id })
          .from(exchangeUnits)
          .where(eq(exchangeUnits.entryId, p.entryId ?? -1)),
      );

export const paymentReversalRepository = {
  /**
   * The paid resale order or exchange offer whose payment is `paymentIntentId`, else the one whose order id is
   * `orderId` (a UUID, checked by the caller) and whose recorded payment, if any, is `paymentIntentId`: another
   * payment naming the order (a second checkout of it, refunded by the operator) is not the one that bought its
   * tickets. Locked for update. Undefined when none is ours or paid.
   */
  async lockPaid(db: DbOrTx, paymentIntentId: string | null, orderId: string | null): Promise<PaidPayment | undefined> {
    if (paymentIntentId) {
      const byPayment =
        (await lockResale(db, eq(resaleOrders.paymentIntentId, paymentIntentId))) ??
        (await lockEntry(db, eq(exchangeEntries.paymentIntentId, paymentIntentId)));
      if (byPayment) return byPayment;
    }
    if (!orderId) return undefined;
    const samePayment = (c: typeof resaleOrders.paymentIntentId | typeof exchangeEntries.paymentIntentId) =>
      paymentIntentId ? or(isNull(c), eq(c, paymentIntentId)) : undefined;
    return (
      (await lockResale(db, and(eq(resaleOrders.id, orderId), samePayment(resaleOrders.paymentIntentId)))) ??
      (await lockEntry(db, and(eq(exchangeEntries.orderId, orderId), samePayment(exchangeEntries.paymentIntentId))))
    );
  },

  /**
   * Records the provider's payment id on the paid order or offer `orderId` (where none is recorded yet), so a later
   * refund or dispute that names only the payment finds it.
   */
  async recordPaymentIntent(db: DbOrTx, orderId: string, paymentIntentId: string): Promise<void> {
    await db
      .update(resaleOrders)
      .set({ paymentIntentId })
      .where(and(eq(resaleOrders.id, orderId), isNull(resaleOrders.paymentIntentId), isNotNull(resaleOrders.paidAt)));
    await db
      .update(exchangeEntries)
      .set({ paymentIntentId })
      .where(
        and(
          eq(exchangeEntries.orderId, orderId),
          isNull(exchangeEntries.paymentIntentId),
          eq(exchangeEntries.status, 'PURCHASED'),
        ),
      );
  },

  /** The tickets the payment bought (ascending ids): a resale order's, or an exchange offer's sold units'. */
  async ticketIds(db: DbOrTx, p: PaidPayment): Promise<number[]> {
    if (p.kind === 'resale') {
      const rows = await db
        .select({ id: resaleOrderTickets.userTicketId })
        .from(resaleOrderTickets)
        .where(eq(resaleOrderTickets.orderId, p.orderId))
        .orderBy(resaleOrderTickets.userTicketId);
      return rows.map((r) => r.id);
    }
    const rows = await db
      .select({ id: exchangeUnits.userTicketId })
      .from(exchangeUnits)
      .where(
        and(
          eq(exchangeUnits.entryId, p.entryId ?? -1),
          eq(exchangeUnits.status, 'SOLD'),
          isNotNull(exchangeUnits.userTicketId),
        ),
      )
      .orderBy(exchangeUnits.userTicketId);
    return rows.map((r) => r.id as number);
  },

  /** The reversal recorded under the provider's refund or dispute id, if any. */
  async reversal(db: DbOrTx, providerRef: string) {
    const [row] = await db.select().from(paymentReversals).where(eq(paymentReversals.providerRef, providerRef));
    return row;
  },

  async insertReversal(
    db: DbOrTx,
    row: {
      kind: PaidPayment['kind'];
      orderId: string;
      providerRef: string;
      reason: VoidReason;
      status: string;
      at: Date;
    },
  ): Promise<void> {
    await db.insert(paymentReversals).values({
      kind: row.kind,
      orderId: row.orderId,
      providerRef: row.providerRef,
      reason: row.reason,
      status: row.status,
      createdAt: row.at,
      closedAt: row.status === 'open' ? null : row.at,
    });
  },

  /** Closes the open dispute `providerRef` as `won` or `lost`; false when it was not open. */
  async closeDispute(db: DbOrTx, providerRef: string, status: 'won' | 'lost', at: Date): Promise<boolean> {
    const rows = await db
      .update(paymentReversals)
      .set({ status, closedAt: at })
      .where(and(eq(paymentReversals.providerRef, providerRef), eq(paymentReversals.status, 'open')))
      .returning({ id: paymentReversals.id });
    return rows.length > 0;
  },

  /** Whether a refund, a lost dispute or another open dispute of the order still stands. */
  async otherReversalStands(db: DbOrTx, orderId: string, exceptRef: string): Promise<boolean> {
    const [row] = await db
      .select({ id: paymentReversals.id })
      .from(paymentReversals)
      .where(
        and(
          eq(paymentReversals.orderId, orderId),
          sql`${paymentReversals.providerRef} <> ${exceptRef}`,
          inArray(paymentReversals.status, ['final', 'open', 'lost']),
        ),
      )
      .limit(1);
    return row !== undefined;
  },

  /**
   * Voids `ids` for `reason`: a ticket not void yet gets `revokedAt` and the reason (its history records it); a ticket
   * void as `disputed` becomes `refunded` when `reason` is. The organiser's own revoke is kept. A voided ticket leaves
   * the sale it was on: its resale listing entry is RETURNED and its exchange unit waiting for a fan WITHDRAWN (a unit
   * already offered is refused at the offer's settlement, which checks the seller still holds a ticket that admits).
   * Returns the ids newly voided.
   */
  async voidTickets(db: DbOrTx, ids: number[], reason: VoidReason, at: Date): Promise<number[]> {
    if (!ids.length) return [];
    const voided = await db
      .update(userTickets)
      .set({ revokedAt: at, revokedReason: reason })
      .where(and(inArray(userTickets.id, ids), isNull(userTickets.revokedAt)))
      .returning({ id: userTickets.id, holderId: userTickets.holderId });
    if (reason === 'refunded')
      await db
        .update(userTickets)
        .set({ revokedReason: 'refunded' })
        .where(and(inArray(userTickets.id, ids), eq(userTickets.revokedReason, 'disputed')));
    await db
      .update(resaleListingTickets)
      .set({ status: 'RETURNED' })
      .where(and(inArray(resaleListingTickets.userTicketId, ids), eq(resaleListingTickets.status, 'LISTED')));
    await db
      .update(exchangeUnits)
      .set({ status: 'WITHDRAWN', entryId: null, endedAt: at })
      .where(and(inArray(exchangeUnits.userTicketId, ids), eq(exchangeUnits.status, 'AVAILABLE')));
    if (voided.length)
      await db.insert(ticketHistory).values(
        voided.map((t) => ({
          userTicketId: t.id,
          fromUserId: t.holderId,
          toUserId: null,
          kind: 'PAYMENT_REVERSED',
          at,
        })),
      );
    return voided.map((t) => t.id).sort((a, b) => a - b);
  },

  /** Makes `ids` void as `disputed` admit again (a dispute won); the ids reinstated. */
  async reinstateTickets(db: DbOrTx, ids: number[], at: Date): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await db
      .update(userTickets)
      .set({ revokedAt: null, revokedReason: null })
      .where(and(inArray(userTickets.id, ids), eq(userTickets.revokedReason, 'disputed')))
      .returning({ id: userTickets.id, holderId: userTickets.holderId });
    if (rows.length)
      await db.insert(ticketHistory).values(
        rows.map((t) => ({
          userTicketId: t.id,
          fromUserId: null,
          toUserId: t.holderId,
          kind: 'PAYMENT_REINSTATED',
          at,
        })),
      );
    return rows.map((t) => t.id).sort((a, b) => a - b);
  },

  /**
   * Sets the status of the payouts the payment owes (a resale order's, or each sold unit's of the offer) from one of
   * `from` to `to`: HELD while a dispute is open, CANCELLED once the money went back, PENDING again when won.
   */
  async setPayouts(db: DbOrTx, p: PaidPayment, from: string[], to: string): Promise<void> {
    await db
      .update(payouts)
      .set({ status: to })
      .where(and(owedBy(db, p), inArray(payouts.status, from)));
  },

  /** How many of the payouts the payment owes are not settled yet (PENDING or HELD). */
  async unsettledPayouts(db: DbOrTx, p: PaidPayment): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(payouts)
      .where(and(owedBy(db, p), inArray(payouts.status, ['PENDING', 'HELD'])));
    return row.n;
  },

  /** Sets a resale order's status (PAID, DISPUTED, REFUNDED): its code redeems and shows only while PAID. */
  async setOrderStatus(db: DbOrTx, p: PaidPayment, status: string): Promise<void> {
    if (p.kind === 'resale') await db.update(resaleOrders).set({ status }).where(eq(resaleOrders.id, p.orderId));
  },
};
