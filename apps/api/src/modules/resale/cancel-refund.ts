/**
 * Refunds on a cancelled event (issue 46 "resale and swap payments not yet settled are refunded", decision 045): the
 * job `cancel_refund`, queued by the cancel's transaction once per paid resale order or exchange offer of the event
 * whose seller is not paid out yet. It refunds the payment to its buyer in full through the payout provider and
 * cancels the seller's payouts; the order is REFUNDED (its resale code, if not redeemed, stops working), and the tickets
 * go back to their seller (sale-undo.ts), who is then the holder the organiser refunds.
 *
 * Once, whatever happens: the refund is asked with the idempotency key `cancel-refund-<orderId>` (a job retried after
 * the provider refunded but before it recorded so gets the same refund back, not a second one), and the refund is
 * recorded as the reversal `cancel-refund-<orderId>` in the transaction that cancels the payouts (a job run again after
 * that finds it and asks nothing). A payment refunded or paid out meanwhile (no payout PENDING or HELD left) is left
 * alone.
 */
import * as z from 'zod';
import type { Database } from '../../db/client.js';
import type { PayoutProvider } from '../../providers/payouts/payout.provider.js';
import { cancelRefundRef, paymentReversalRepository as repo } from './payment-reversal.repository.js';
import { undoCancelledSale } from './sale-undo.js';

const payloadShape = z.object({ orderId: z.uuid() });

export interface CancelRefundDeps {
  database: Database;
  now: () => Date;
  payouts: Pick<PayoutProvider, 'kind' | 'refund'>;
  config: { publicUrl: string };
}

export function createCancelRefunds(deps: CancelRefundDeps) {
  const { db } = deps.database;

  /** The payment `orderId` when it is still to refund (paid, not refunded by this job, a payout not settled). */
  const due = (orderId: string, providerRef: string) =>
    db.transaction(async (tx) => {
      const paid = await repo.lockPaid(tx, null, orderId);
      if (!paid || (paid.kind === 'resale' && paid.status !== 'PAID')) return null;
      if (await repo.reversal(tx, providerRef)) return null;
      return (await repo.unsettledPayouts(tx, paid)) > 0 ? paid : null;
    });

  return {
    /**
     * The `cancel_refund` job of `{ orderId }`: refunds it once (see the module's comment).
     * @throws AppError `api.service_unavailable` when the provider cannot refund now (the job is retried); Error when a
     *   Stripe payment has no recorded PaymentIntent (the job fails for the operator after its attempts).
     */
    async run(payload: unknown): Promise<void> {
      const { orderId } = payloadShape.parse(payload);
      const providerRef = cancelRefundRef(orderId);
      const paid = await due(orderId, providerRef);
      if (!paid) return;
      // The sandbox's "payment" is its page's button: nothing names it, nothing was charged.
      if (!paid.paymentIntentId && deps.payouts.kind !== 'sandbox')
        throw new Error(`payment ${orderId} has no recorded PaymentIntent to refund`);
      await deps.payouts.refund(paid.paymentIntentId ?? `sandbox-${orderId}`, providerRef);
      const at = deps.now();
      await db.transaction(async (tx) => {
        const locked = await repo.lockPaid(tx, null, orderId);
        if (!locked || (await repo.reversal(tx, providerRef))) return;
        await repo.insertReversal(tx, { ...locked, providerRef, reason: 'refunded', status: 'final', at });
        await repo.setOrderStatus(tx, locked, 'REFUNDED');
        await repo.setPayouts(tx, locked, ['PENDING', 'HELD'], 'CANCELLED');
        await undoCancelledSale(tx, locked, at, deps.config.publicUrl);
      });
    },
  };
}
