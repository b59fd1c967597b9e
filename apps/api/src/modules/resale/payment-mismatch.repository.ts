/**
 * SQL of the payments flagged for the operator (issue 46, table `payment_mismatches`): recorded once per provider
 * event, listed newest first, and resolved once (refunded or settled) by claiming the row.
 */
import { and, desc, eq, isNotNull, isNull, lt } from 'drizzle-orm';
import type { payments } from '@tp/contract';
import { isUuid } from '@tp/contract/fields';
import type { DbOrTx } from '../../db/client.js';
import { exchangeEntries, paymentMismatches, resaleListings, resaleOrders, ticketTypes } from '../../db/schema.js';

/** Largest value of an `integer` column: a reported amount past it is stored as unknown, not a failed insert. */
const INT4_MAX = 2_147_483_647;

/** A reported payment to flag, as the provider's event said it (each field null where it did not). */
export interface PaymentMismatchInput {
  /** The provider event that reported it: a second delivery of the same event records nothing. */
  providerEventId: string;
  /** The order's kind, or null when no order of ours was found (`unknown_payment`). */
  kind: 'resale' | 'exchange' | null;
  /** The order id the payment names; anything but a UUID is stored as null. */
  orderId: string | null;
  sessionId: string | null;
  /** The provider's payment (Stripe PaymentIntent id): what a refund names. */
  paymentIntentId: string | null;
  /** Minor units; anything but an integer from 0 to 2^31 - 1 is stored as null. */
  amountCents: number | null;
  currencyCode: string | null;
  reason: payments.PaymentMismatchReason;
  createdAt: Date;
}

export type PaymentMismatchRow = typeof paymentMismatches.$inferSelect;

/**
 * Flags a reported payment for the operator (issue 46), once per provider event (`providerEventId` unique): a retry
 * of the same event, or two deliveries at once, record one row.
 * @returns true when this call recorded it, false when the event was recorded before
 */
export async function recordPaymentMismatch(db: DbOrTx, row: PaymentMismatchInput): Promise<boolean> {
  const amount = row.amountCents;
  const inserted = await db
    .insert(paymentMismatches)
    .values({
      providerEventId: row.providerEventId,
      kind: row.kind,
      orderId: row.orderId !== null && isUuid(row.orderId) ? row.orderId : null,
      sessionId: row.sessionId || null,
      paymentIntentId: row.paymentIntentId,
      amountCents: amount !== null && Number.isSafeInteger(amount) && amount >= 0 && amount <= INT4_MAX ? amount : null,
      currencyCode: row.currencyCode,
      reason: row.reason,
      createdAt: row.createdAt,
    })
    .onConflictDoNothing({ target: paymentMismatches.providerEventId })
    .returning({ id: paymentMismatches.id });
  return inserted.length > 0;
}

export const paymentMismatchRepository = {
  /** Up to `limit` flagged payments, resolved or not, newest first (by id), before the row `beforeId` when given. */
  async page(db: DbOrTx, q: { resolved: boolean; beforeId: number | undefined; limit: number }) {
    return db
      .select()
      .from(paymentMismatches)
      .where(
        and(
          q.resolved ? isNotNull(paymentMismatches.resolvedAt) : isNull(paymentMismatches.resolvedAt),
          q.beforeId === undefined ? undefined : lt(paymentMismatches.id, q.beforeId),
        ),
      )
      .orderBy(desc(paymentMismatches.id))
      .limit(q.limit);
  },

  /** The flagged payment `id`, or undefined. */
  async byId(db: DbOrTx, id: number): Promise<PaymentMismatchRow | undefined> {
    const [row] = await db.select().from(paymentMismatches).where(eq(paymentMismatches.id, id));
    return row;
  },

  /**
   * Marks the row resolved as `resolution` at `at` if it is not resolved yet: of two calls at once, one gets the row
   * (the update's row lock and its `resolved_at is null` condition), the other undefined.
   */
  async claim(
    db: DbOrTx,
    id: number,
    resolution: payments.PaymentMismatchResolution,
    at: Date,
  ): Promise<PaymentMismatchRow | undefined> {
    const [row] = await db
      .update(paymentMismatches)
      .set({ resolvedAt: at, resolution })
      .where(and(eq(paymentMismatches.id, id), isNull(paymentMismatches.resolvedAt)))
      .returning();
    return row;
  },

  /** Undoes a `claim` made at `at` whose action failed: the row is unresolved again. */
  async release(db: DbOrTx, id: number, resolution: payments.PaymentMismatchResolution, at: Date): Promise<void> {
    await db
      .update(paymentMismatches)
      .set({ resolvedAt: null, resolution: null })
      .where(
        and(
          eq(paymentMismatches.id, id),
          eq(paymentMismatches.resolution, resolution),
          eq(paymentMismatches.resolvedAt, at),
        ),
      );
  },

  /** The organisation whose tickets the order sells (a resale order's listing, an exchange offer's type), or null. */
  async organisationOf(db: DbOrTx, kind: 'resale' | 'exchange', orderId: string): Promise<number | null> {
    const [row] =
      kind === 'resale'
        ? await db
            .select({ organisationId: ticketTypes.organisationId })
            .from(resaleOrders)
            .innerJoin(resaleListings, eq(resaleListings.id, resaleOrders.listingId))
            .innerJoin(ticketTypes, eq(ticketTypes.id, resaleListings.ticketTypeId))
            .where(eq(resaleOrders.id, orderId))
        : await db
            .select({ organisationId: ticketTypes.organisationId })
            .from(exchangeEntries)
            .innerJoin(ticketTypes, eq(ticketTypes.id, exchangeEntries.ticketTypeId))
            .where(eq(exchangeEntries.orderId, orderId));
    return row?.organisationId ?? null;
  },
};
