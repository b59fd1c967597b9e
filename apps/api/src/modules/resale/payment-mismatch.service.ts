/**
 * Payments flagged for the operator (issue 46, "Payments that go back"): a reported payment that pays nothing as it
 * stands (its amount, currency or session is not its order's; an exchange offer paid after it ended; a refund or
 * dispute of a payment that matches no order) is recorded and counted, listed on `GET /v1/admin/payments/mismatched`,
 * and resolved once by the platform admin: refunded through the payout provider, or its order settled as if the
 * payment matched.
 */
import type { payments } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { idCursor, paged } from '../../lib/cursor.js';
import type { Metrics } from '../../lib/metrics.js';
import type { PayoutProvider } from '../../providers/payouts/payout.provider.js';
import { appendAudit, type AuditActor } from '../audit/audit.repository.js';
import type { OrderService } from './order.service.js';
import {
  paymentMismatchRepository as repo,
  recordPaymentMismatch,
  type PaymentMismatchInput,
  type PaymentMismatchRow,
} from './payment-mismatch.repository.js';
import { paymentReversalRepository } from './payment-reversal.repository.js';

/** A flagged payment as the API answers it. */
const itemOf = (r: PaymentMismatchRow): payments.PaymentMismatch => ({
  id: r.id,
  kind: r.kind === 'resale' || r.kind === 'exchange' ? r.kind : null,
  orderId: r.orderId,
  sessionId: r.sessionId,
  paymentIntentId: r.paymentIntentId,
  amountCents: r.amountCents,
  currencyCode: r.currencyCode,
  reason: r.reason as payments.PaymentMismatch['reason'],
  createdAt: r.createdAt.toISOString(),
  resolvedAt: r.resolvedAt?.toISOString() ?? null,
  resolution: (r.resolution as payments.PaymentMismatchResolution | null) ?? null,
});

export function createPaymentMismatchService(deps: {
  database: Database;
  payouts: Pick<PayoutProvider, 'refund'>;
  now: () => Date;
  metrics: Pick<Metrics, 'paymentMismatch'>;
  /** The resale order's settlement without a payment check (the sandbox checkout's Pay). */
  orders: Pick<OrderService, 'payOrder'>;
  /** The exchange offer's settlement without a payment check; `paid` when its tickets moved. */
  offers: { settle: (orderId: string) => Promise<{ status: string }> };
}) {
  const { db } = deps.database;

  /**
   * The unresolved row `id`.
   * @throws AppError `api.admin.payment_mismatch_not_found` (404), `api.admin.payment_mismatch_resolved` (409)
   */
  async function open(id: number): Promise<PaymentMismatchRow> {
    const row = await repo.byId(db, id);
    if (!row) throw new AppError('api.admin.payment_mismatch_not_found');
    if (row.resolvedAt) throw new AppError('api.admin.payment_mismatch_resolved');
    return row;
  }

  /**
   * Resolves `row` as `resolution` once: the row is claimed first (of two calls at once, the second answers 409), then
   * `action` runs; when it throws, the claim is undone and its error answers. Recorded in the audit trail of the
   * order's organisation (a payment of no known order has none; the request's log line names it).
   * A process that dies between the claim and the action's end leaves the row resolved: the action's outcome is then
   * what the provider's dashboard or the order shows.
   * @throws AppError `api.admin.payment_mismatch_resolved` (409), or the action's error
   */
  async function resolve(
    row: PaymentMismatchRow,
    resolution: payments.PaymentMismatchResolution,
    actor: AuditActor,
    action: () => Promise<Record<string, unknown>>,
  ): Promise<payments.PaymentMismatch> {
    const at = deps.now();
    const claimed = await repo.claim(db, row.id, resolution, at);
    if (!claimed) throw new AppError('api.admin.payment_mismatch_resolved');
    let detail: Record<string, unknown>;
    try {
      detail = await action();
    } catch (err) {
      await repo.release(db, row.id, resolution, at);
      throw err;
    }
    const organisationId =
      claimed.kind === 'resale' || claimed.kind === 'exchange'
        ? claimed.orderId && (await repo.organisationOf(db, claimed.kind, claimed.orderId))
        : null;
    if (organisationId && claimed.orderId)
      await appendAudit(db, organisationId, actor, at, {
        action: resolution === 'refunded' ? 'payment.refunded' : 'payment.settled',
        resourceType: 'order',
        resourceId: claimed.orderId,
        detail: {
          mismatchId: claimed.id,
          kind: claimed.kind,
          reason: claimed.reason,
          amountCents: claimed.amountCents,
          currencyCode: claimed.currencyCode,
          ...detail,
        },
      });
    return itemOf(claimed);
  }

  /** Pays the order as if the payment matched; false when it is no longer payable (or is not ours). */
  async function payOrder(kind: 'resale' | 'exchange', orderId: string): Promise<boolean> {
    if (kind === 'exchange') return (await deps.offers.settle(orderId)).status === 'paid';
    try {
      return (await deps.orders.payOrder(orderId)) !== null;
    } catch (err) {
      if (
        err instanceof AppError &&
        (err.code === 'api.resell.order_not_found' || err.code === 'api.resell.listing_unavailable')
      )
        return false;
      throw err;
    }
  }

  return {
    /**
     * Flags a reported payment (the Stripe webhook's mismatches; a refund or dispute of no known payment), once per
     * provider event, and counts it in `tp_payment_mismatches_total{reason}` when this call recorded it.
     */
    async record(row: Omit<PaymentMismatchInput, 'createdAt'>): Promise<void> {
      if (await recordPaymentMismatch(db, { ...row, createdAt: deps.now() })) deps.metrics.paymentMismatch(row.reason);
    },

    /**
     * GET /v1/admin/payments/mismatched: the unresolved flagged payments (the resolved ones with `resolved=true`),
     * newest first, a page of at most `limit`.
     * @throws AppError `api.org.invalid_cursor` (400)
     */
    async list(q: payments.PaymentMismatchQuery): Promise<payments.PaymentMismatchPage> {
      const rows = await repo.page(db, {
        resolved: q.resolved === 'true',
        beforeId: idCursor(q.cursor),
        limit: q.limit + 1,
      });
      return paged(rows, q.limit, (r) => ({ i: r.id }), itemOf);
    },

    /**
     * POST /v1/admin/payments/mismatched/{id}/refund: refunds the payment in full through the payout provider (the
     * idempotency key `refund-mismatch-<id>`: a retry after a lost answer refunds once), then marks it `refunded`.
     * @throws AppError `api.admin.payment_mismatch_not_found` (404), `api.admin.payment_mismatch_resolved` (409),
     *   `api.admin.payment_mismatch_no_payment` (409: the provider named no payment), `api.service_unavailable` (503:
     *   the provider is down or refused; the row stays unresolved)
     */
    async refund(id: number, actor: AuditActor): Promise<payments.PaymentMismatch> {
      const row = await open(id);
      const paymentIntentId = row.paymentIntentId;
      if (!paymentIntentId) throw new AppError('api.admin.payment_mismatch_no_payment');
      return resolve(row, 'refunded', actor, async () => {
        const { refundId } = await deps.payouts.refund(paymentIntentId, `refund-mismatch-${row.id}`);
        return { refundId };
      });
    },

    /**
     * POST /v1/admin/payments/mismatched/{id}/settle: pays the order as if the payment matched (a resale order's code
     * is mailed to its buyer; an exchange offer's tickets move to the fan), records the payment on it (so its refund or
     * dispute finds the order), then marks it `settled`.
     * @throws AppError `api.admin.payment_mismatch_not_found` (404), `api.admin.payment_mismatch_resolved` (409),
     *   `api.admin.payment_mismatch_not_payable` (409: no order, or it is paid, ended or failed; the row stays
     *   unresolved)
     */
    async settle(id: number, actor: AuditActor): Promise<payments.PaymentMismatch> {
      const row = await open(id);
      const { kind, orderId } = row;
      if ((kind !== 'resale' && kind !== 'exchange') || !orderId)
        throw new AppError('api.admin.payment_mismatch_not_payable');
      return resolve(row, 'settled', actor, async () => {
        if (!(await payOrder(kind, orderId))) throw new AppError('api.admin.payment_mismatch_not_payable');
        // The payment that paid it, so that its later refund or dispute (which names only the payment) finds it.
        if (row.paymentIntentId) await paymentReversalRepository.recordPaymentIntent(db, orderId, row.paymentIntentId);
        return {};
      });
    },
  };
}
export type PaymentMismatchService = ReturnType<typeof createPaymentMismatchService>;
