/**
 * Payments that go back (issue 46 "Payments that go back", decision 044): a refund or a dispute (chargeback) of the
 * payment that bought tickets, a resale order or an exchange offer, reported by Stripe's webhook or the sandbox's
 * stand-in (`POST /v1/admin/sandbox/payment-events`).
 * - refunded in full: the tickets stop admitting for good (`revoked_reason` `refunded`), a resale code no longer
 *   redeems, the sellers' payouts are CANCELLED;
 * - a dispute opened: the tickets stop admitting (`disputed`) and the payouts are HELD;
 * - the dispute closed won (or an inquiry closed without a chargeback): the tickets admit again, payouts PENDING;
 *   lost: as refunded.
 * In each case, in one transaction: the holders are e-mailed (`ticketRevoked` with the reason), the organisation's
 * webhook gets `ticket.refunded`, `ticket.disputed` or `ticket.reinstated`, and the wallet passes are updated. Each
 * provider refund or dispute is handled once (`payment_reversals.provider_ref`).
 */
import type { DbOrTx, Database } from '../../db/client.js';
import { holderMail } from '../../providers/mail/brand.js';
import type { TicketRevokedReason } from '../../providers/mail/templates.js';
import { enqueueMails } from '../../providers/mail/mail-jobs.js';
import { ticketHoldersRepository } from '../../providers/mail/ticket-holders.repository.js';
import { enqueueTicketMovedJobs } from '../../providers/jobs/ticket-moved-jobs.js';
import { enqueueTicketEvents } from '../outbound-webhooks/outbound-events.js';
import { cancelRefundRef, paymentReversalRepository as repo, type PaidPayment } from './payment-reversal.repository.js';
import { undoCancelledSale } from './sale-undo.js';

/** A refund or dispute as reported: the provider's id of it and what names the payment. */
export interface Reversal {
  /** The provider's id of the refunded charge or of the dispute: each is handled once. */
  providerRef: string;
  /** The payment (Stripe PaymentIntent id), where the provider said. */
  paymentIntentId: string | null;
  /** Our order id (a UUID), where the provider carried it (the payment's metadata, the sandbox). */
  orderId: string | null;
}

/** What handling a reversal did: `done`, `already` (handled before), or `unknown` (no paid order of ours matches). */
export type ReversalOutcome = 'done' | 'already' | 'unknown';

export interface PaymentReversalDeps {
  database: Database;
  now: () => Date;
  config: { publicUrl: string };
}

export function createPaymentReversals(deps: PaymentReversalDeps) {
  const { db } = deps.database;

  /** Tells the holders of `ids` (those who hold them and may use them) why, in their language. */
  async function tellHolders(tx: DbOrTx, ids: number[], reason: TicketRevokedReason, at: Date) {
    const held = await ticketHoldersRepository.ofTickets(tx, ids);
    await enqueueMails(
      tx,
      at,
      held.map((h) => {
        const { ticket, link, ...mail } = holderMail(h, deps.config.publicUrl, 'MY_TICKET');
        return { template: 'ticketRevoked' as const, ...mail, params: { ticket, link, reason } };
      }),
    );
  }

  /**
   * Runs `work` on the paid payment `r` names, in one transaction holding its row, unless `r.providerRef` was handled
   * before (`already`) or no paid payment of ours matches (`unknown`).
   */
  async function withPayment(
    r: Reversal,
    fresh: boolean,
    work: (tx: DbOrTx, p: PaidPayment, ids: number[], at: Date) => Promise<void>,
  ): Promise<ReversalOutcome> {
    const at = deps.now();
    return db.transaction(async (tx) => {
      const paid = await repo.lockPaid(tx, r.paymentIntentId, r.orderId);
      if (!paid) return 'unknown';
      if (fresh && (await repo.reversal(tx, r.providerRef))) return 'already';
      await work(tx, paid, await repo.ticketIds(tx, paid), at);
      return 'done';
    });
  }

  /**
   * Voids the tickets for `reason`, tells their holders (those of tickets that still admitted) and the organisation
   * (every ticket of the payment once it is refunded: `dispute` when a dispute was lost), and updates wallets.
   */
  async function voidAll(
    tx: DbOrTx,
    p: PaidPayment,
    ids: number[],
    reason: 'refunded' | 'disputed',
    at: Date,
    dispute = false,
  ) {
    // Told before voiding: the holders query reads the tickets that still admit.
    await tellHolders(tx, ids, reason, at);
    const voided = await repo.voidTickets(tx, ids, reason, at);
    if (reason === 'refunded')
      await enqueueTicketEvents(tx, 'ticket.refunded', ids, at, { orderId: p.orderId, dispute });
    else await enqueueTicketEvents(tx, 'ticket.disputed', voided, at, { orderId: p.orderId });
    await enqueueTicketMovedJobs(tx, voided);
  }

  return {
    /**
     * A charge refunded in full: the tickets it bought no longer admit, anywhere, for good; the resale code no longer
     * redeems; the sellers are not paid (payouts CANCELLED, whether PENDING or HELD). For a cancelled event, when the
     * seller was not paid yet, the sale is undone instead (sale-undo.ts, decision 045): the tickets go back to their
     * seller (those void already, by a dispute, become `refunded`); the cancel's own refund, reported after its job
     * recorded it (`cancelRefundRef`), is only recorded.
     */
    refunded: (r: Reversal): Promise<ReversalOutcome> =>
      withPayment(r, true, async (tx, p, ids, at) => {
        await repo.insertReversal(tx, { ...p, providerRef: r.providerRef, reason: 'refunded', status: 'final', at });
        // The cancel's own refund, its job's record first: the sale was undone then (decision 045).
        if (await repo.reversal(tx, cancelRefundRef(p.orderId))) return;
        await repo.setOrderStatus(tx, p, 'REFUNDED');
        const unpaid = (await repo.unsettledPayouts(tx, p)) > 0;
        await repo.setPayouts(tx, p, ['PENDING', 'HELD'], 'CANCELLED');
        const undone = unpaid ? await undoCancelledSale(tx, p, at, deps.config.publicUrl) : null;
        await voidAll(tx, p, undone ? undone.voidAlready : ids, 'refunded', at);
      }),

    /** A dispute opened: the tickets stop admitting while it lasts and the sellers' payouts are HELD. */
    disputeOpened: (r: Reversal): Promise<ReversalOutcome> =>
      withPayment(r, true, async (tx, p, ids, at) => {
        await repo.insertReversal(tx, { ...p, providerRef: r.providerRef, reason: 'disputed', status: 'open', at });
        if (p.status === 'PAID') await repo.setOrderStatus(tx, p, 'DISPUTED');
        await repo.setPayouts(tx, p, ['PENDING'], 'HELD');
        await voidAll(tx, p, ids, 'disputed', at);
      }),

    /**
     * The dispute `r.providerRef` closed: `won` (the payment stands) makes the tickets admit again and the payouts
     * PENDING, unless another refund or open dispute of the payment still stands; `lost` is a refund. A dispute never
     * seen open is recorded as opened first (Stripe does not promise the order of its events).
     */
    async disputeClosed(r: Reversal, won: boolean): Promise<ReversalOutcome> {
      return withPayment(r, false, async (tx, p, ids, at) => {
        if (!(await repo.reversal(tx, r.providerRef)))
          await repo.insertReversal(tx, { ...p, providerRef: r.providerRef, reason: 'disputed', status: 'open', at });
        if (!(await repo.closeDispute(tx, r.providerRef, won ? 'won' : 'lost', at))) return;
        if (!won) {
          await repo.setOrderStatus(tx, p, 'REFUNDED');
          await repo.setPayouts(tx, p, ['PENDING', 'HELD'], 'CANCELLED');
          await voidAll(tx, p, ids, 'refunded', at, true);
          return;
        }
        if (await repo.otherReversalStands(tx, p.orderId, r.providerRef)) return;
        await repo.setOrderStatus(tx, p, 'PAID');
        await repo.setPayouts(tx, p, ['HELD'], 'PENDING');
        const back = await repo.reinstateTickets(tx, ids, at);
        await tellHolders(tx, back, 'reinstated', at);
        await enqueueTicketEvents(tx, 'ticket.reinstated', back, at, { orderId: p.orderId });
        await enqueueTicketMovedJobs(tx, back);
      });
    },

    /** Records the payment id of a paid order or offer, so its later refund or dispute finds it. */
    recordPaymentIntent: (orderId: string, paymentIntentId: string) =>
      repo.recordPaymentIntent(db, orderId, paymentIntentId),
  };
}
export type PaymentReversals = ReturnType<typeof createPaymentReversals>;
