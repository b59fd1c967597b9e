/**
 * Incoming Stripe events (the payout provider's webhook, POST /resell/stripe/webhook): signature-checked, deduplicated by event id, then handed to the
 * use case they concern: `account.updated` to the payout account, `checkout.session.completed` to the order,
 * `charge.refunded` and `charge.dispute.created`/`.closed` to the payment's reversal (issue 46, decision 044).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { PayoutProvider, PayoutEvent } from '../../providers/payouts/payout.provider.js';
import { AppError } from '../../lib/app-error.js';
import { resaleRepository as repo } from './resale.repository.js';
import type { OrderService } from './order.service.js';
import type { ProviderPayment } from './order-settlement.js';
import type { PayoutAccountService } from './payout-account.service.js';
import type { PaymentReversals, ReversalOutcome } from './payment-reversal.js';
import type { PaymentMismatchService } from './payment-mismatch.service.js';

/** The order ids this app gives checkout sessions (resale orders and exchange offers): UUIDs. */
const ORDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface StripeEventDeps {
  database: Database;
  payouts: Pick<PayoutProvider, 'parseWebhook'>;
  now: () => Date;
  orders: Pick<OrderService, 'confirmProviderPayment'>;
  payoutAccounts: Pick<PayoutAccountService, 'accountUpdated'>;
  /** Refunds and disputes of paid orders and offers (issue 46). */
  reversals: Pick<PaymentReversals, 'refunded' | 'disputeOpened' | 'disputeClosed' | 'recordPaymentIntent'>;
  /**
   * The exchange queue's offers (issue 45), paid through the same checkout: a completed session whose order is not a
   * resale order is settled here (`unknown` when no offer has that order id either).
   */
  offers: {
    settle: (
      orderId: string,
      payment: ProviderPayment,
    ) => Promise<{ status: 'paid' | 'already' | 'ended' | 'unknown' } | { status: 'mismatch'; reason: MismatchReason }>;
  };
  /**
   * Payments flagged for the operator (issue 46): a mismatch, an offer paid after it ended, a refund or dispute of no
   * payment of ours; once per event.
   */
  mismatches: Pick<PaymentMismatchService, 'record'>;
}

/** Why a completed session paid nothing (order-settlement.ts, exchange-checkout.service.ts). */
type MismatchReason = 'not_paid' | 'session' | 'amount' | 'currency';

/**
 * A refund or dispute of a payment (issue 46): handed to the reversals when it names a paid order or offer of ours;
 * a partial refund changes no ticket (the order's tickets cannot be told apart) and is reported, and so is one that
 * names no payment of ours.
 */
async function reversal(
  deps: Pick<StripeEventDeps, 'reversals' | 'mismatches'>,
  event: Extract<PayoutEvent, { type: 'charge.refunded' | 'charge.dispute.created' | 'charge.dispute.closed' }>,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<void> {
  const orderId = 'orderId' in event && event.orderId && ORDER_ID.test(event.orderId) ? event.orderId : null;
  const facts = { eventId: event.id, type: event.type, paymentIntentId: event.paymentIntentId, orderId };
  let outcome: ReversalOutcome;
  if (event.type === 'charge.refunded') {
    if (!event.refunded) {
      log.warn(
        { ...facts, amountCents: event.amountCents, amountRefundedCents: event.amountRefundedCents },
        'partial refund of a payment: tickets kept',
      );
      return;
    }
    outcome = await deps.reversals.refunded({
      providerRef: event.chargeId,
      paymentIntentId: event.paymentIntentId,
      orderId,
    });
  } else if (event.type === 'charge.dispute.created') {
    outcome = await deps.reversals.disputeOpened({
      providerRef: event.disputeId,
      paymentIntentId: event.paymentIntentId,
      orderId,
    });
  } else {
    const won = event.status === 'won' || event.status === 'warning_closed';
    if (!won && event.status !== 'lost') {
      log.warn({ ...facts, status: event.status }, 'dispute closed with an unknown status: nothing changed');
      return;
    }
    outcome = await deps.reversals.disputeClosed(
      { providerRef: event.disputeId, paymentIntentId: event.paymentIntentId, orderId },
      won,
    );
  }
  if (outcome !== 'unknown') return;
  log.warn(facts, 'refund or dispute of no paid order of ours: nothing changed');
  await deps.mismatches.record({
    providerEventId: event.id,
    kind: null,
    orderId,
    sessionId: null,
    paymentIntentId: event.paymentIntentId,
    amountCents: event.amountCents,
    currencyCode: event.currencyCode,
    reason: 'unknown_payment',
  });
}

/** A completed checkout session: what it paid (a resale order or an exchange offer), the rest flagged. */
type CheckoutCompleted = Extract<PayoutEvent, { type: 'checkout.session.completed' }>;

/**
 * A completed checkout session (`checkout.session.completed`): pays its resale order, else the exchange offer of that
 * order id, only when session, amount and currency are the order's; a mismatch, a payment after the tickets went to
 * another buyer and an offer paid after it ended are logged and flagged for the operator (once per event) and pay
 * nothing. A session naming no order id is not ours to pay: ignored.
 * @throws whatever settling throws but `api.resell.order_not_found` and `api.resell.listing_unavailable` (a database
 *   gone: answered 500, so Stripe retries the event).
 */
async function checkoutCompleted(
  deps: Pick<StripeEventDeps, 'orders' | 'offers' | 'reversals' | 'mismatches'>,
  event: CheckoutCompleted,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<void> {
  const { orderId } = event;
  if (!orderId) return;
  if (!ORDER_ID.test(orderId)) {
    // A session this app did not make (our orders are UUIDs): nothing to pay; said once, not a 500 that Stripe
    // would retry for days (issue 39, twenty-second re-run).
    log.warn({ eventId: event.id, sessionId: event.sessionId }, 'checkout session of no order of ours: ignored');
    return;
  }
  const where = { eventId: event.id, orderId, sessionId: event.sessionId };
  // Flagged for the operator beside the log line (issue 46): recorded once per event, before the event is
  // recorded as handled, so a failure here is retried with it.
  const flag = (kind: 'resale' | 'exchange', reason: MismatchReason | 'ended') =>
    deps.mismatches.record({
      providerEventId: event.id,
      kind,
      orderId,
      sessionId: event.sessionId,
      paymentIntentId: event.paymentIntentId,
      amountCents: event.amountTotalCents,
      currencyCode: event.currencyCode,
      reason,
    });
  const result = await deps.orders.confirmProviderPayment(orderId, event).catch(async (err) => {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'api.resell.listing_unavailable') {
      // Another buyer paid for the tickets first: the order FAILED and this payment is owed back.
      log.warn(where, 'resale order paid after its tickets went to another buyer: failed, to refund');
      await flag('resale', 'ended');
      return null;
    }
    // Any other error is not an answer about this payment: thrown, so the event is not recorded and Stripe retries it.
    if (err.code !== 'api.resell.order_not_found') throw err;
    // Not a resale order: an exchange offer's. One that ended before the payment came keeps nothing: the
    // payment is owed back (reported for someone to refund).
    const offer = await deps.offers.settle(orderId, event);
    if (offer.status === 'ended') {
      log.warn(where, 'exchange offer paid after it ended: not settled, to refund');
      await flag('exchange', 'ended');
    }
    return offer.status === 'mismatch'
      ? { status: 'mismatch' as const, reason: offer.reason, kind: 'exchange' as const }
      : { status: offer.status };
  });
  // The payment a later refund or dispute names (recorded again on a retry, in case the first try stopped here).
  if ((result?.status === 'paid' || result?.status === 'already') && event.paymentIntentId)
    await deps.reversals.recordPaymentIntent(orderId, event.paymentIntentId);
  // Not paid: the order stays PENDING; the operator looks at what was charged.
  if (result?.status === 'mismatch') {
    log.warn(
      {
        ...where,
        amountTotalCents: event.amountTotalCents,
        currencyCode: event.currencyCode,
        paid: event.paid,
        reason: result.reason,
      },
      'resale payment does not match its order: not paid',
    );
    await flag('kind' in result ? result.kind : 'resale', result.reason);
  }
}

export function createStripeEventService(deps: StripeEventDeps) {
  const { payouts, now, payoutAccounts } = deps;
  const db = deps.database.db;

  return {
    /**
     * POST /resell/stripe/webhook with its raw body and `Stripe-Signature` header. An event id handled before does
     * nothing; one whose handling failed (500) is handled again when Stripe retries it.
     * `checkout.session.completed` pays its order only when session, amount and currency are the order's
     * (a mismatch is logged, flagged for the operator and leaves the order PENDING; so is an exchange offer paid
     * after it ended).
     * @param log the request's logger (`req.log`, whose lines carry the request id): where a payment that does not
     *   match its order is reported
     * @throws AppError `api.resell.webhook_invalid` (400) on a bad signature.
     */
    async handle(rawBody: Buffer, signature: string, log: Pick<FastifyBaseLogger, 'warn'>): Promise<void> {
      let event: PayoutEvent;
      try {
        event = payouts.parseWebhook(rawBody, signature);
      } catch {
        throw new AppError('api.resell.webhook_invalid');
      }
      if (event.type === 'malformed') {
        log.warn({}, 'signed Stripe event of no known shape: ignored');
        return;
      }
      if (await repo.stripeEventSeen(db, event.id)) return;
      switch (event.type) {
        case 'account.updated':
          await payoutAccounts.accountUpdated(event);
          break;
        case 'checkout.session.completed':
          await checkoutCompleted(deps, event, log);
          break;
        case 'charge.refunded':
        case 'charge.dispute.created':
        case 'charge.dispute.closed':
          await reversal(deps, event, log);
      }
      // Recorded once handled, not before: a failure on the way (the database gone mid-request) answers 500 and
      // Stripe's retry handles the event again rather than taking it for a replay (recorded first, the order stayed
      // PENDING for good). Both handlers are idempotent (the order's row lock and status, a status set), so two
      // deliveries at once do no harm.
      await repo.recordStripeEvent(db, event.id, event.type, now());
    },
  };
}
export type StripeEventService = ReturnType<typeof createStripeEventService>;
