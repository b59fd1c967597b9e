/**
 * Incoming Stripe events (the payout provider's webhook, POST /resell/stripe/webhook): signature-checked, deduplicated by event id, then handed to the
 * use case they concern: `account.updated` to the payout account, `checkout.session.completed` to the order.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { PayoutProvider, PayoutEvent } from '../../providers/payouts/payout.provider.js';
import { AppError } from '../../lib/app-error.js';
import { resaleRepository as repo } from './resale.repository.js';
import type { OrderService } from './order.service.js';
import type { ProviderPayment } from './order-settlement.js';
import type { PayoutAccountService } from './payout-account.service.js';
import type { PaymentMismatchService } from './payment-mismatch.service.js';

/** The order ids this app gives checkout sessions (resale orders and exchange offers): UUIDs. */
const ORDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface StripeEventDeps {
  database: Database;
  payouts: PayoutProvider;
  now: () => Date;
  orders: Pick<OrderService, 'confirmProviderPayment'>;
  payoutAccounts: Pick<PayoutAccountService, 'accountUpdated'>;
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
  /** Payments flagged for the operator (issue 46): a mismatch or an offer paid after it ended, once per event. */
  mismatches: Pick<PaymentMismatchService, 'record'>;
}

/** Why a completed session paid nothing (order-settlement.ts, exchange-checkout.service.ts). */
type MismatchReason = 'not_paid' | 'session' | 'amount' | 'currency';

export function createStripeEventService(deps: StripeEventDeps) {
  const { payouts, now, orders, payoutAccounts } = deps;
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
      if (event.type === 'account.updated') {
        await payoutAccounts.accountUpdated(event);
      } else if (event.type === 'checkout.session.completed' && event.orderId && !ORDER_ID.test(event.orderId)) {
        // A session this app did not make (our orders are UUIDs): nothing to pay; said once, not a 500 that Stripe
        // would retry for days (issue 39, twenty-second re-run).
        log.warn({ eventId: event.id, sessionId: event.sessionId }, 'checkout session of no order of ours: ignored');
      } else if (event.type === 'checkout.session.completed' && event.orderId) {
        const orderId = event.orderId;
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
        const result = await orders.confirmProviderPayment(orderId, event).catch(async (err) => {
          if (!(err instanceof AppError)) throw err;
          if (err.code !== 'api.resell.order_not_found') return null;
          // Not a resale order: an exchange offer's. One that ended before the payment came keeps nothing: the
          // payment is owed back (reported for someone to refund).
          const offer = await deps.offers.settle(orderId, event);
          if (offer.status === 'ended') {
            log.warn(
              { eventId: event.id, orderId, sessionId: event.sessionId },
              'exchange offer paid after it ended: not settled, to refund',
            );
            await flag('exchange', 'ended');
          }
          return offer.status === 'mismatch'
            ? { status: 'mismatch' as const, reason: offer.reason, kind: 'exchange' as const }
            : null;
        });
        // Not paid: the order stays PENDING; the operator looks at what was charged.
        if (result?.status === 'mismatch') {
          log.warn(
            {
              eventId: event.id,
              orderId: event.orderId,
              sessionId: event.sessionId,
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
      // Recorded once handled, not before: a failure on the way (the database gone mid-request) answers 500 and
      // Stripe's retry handles the event again rather than taking it for a replay (recorded first, the order stayed
      // PENDING for good). Both handlers are idempotent (the order's row lock and status, a status set), so two
      // deliveries at once do no harm.
      await repo.recordStripeEvent(db, event.id, event.type, now());
    },
  };
}
export type StripeEventService = ReturnType<typeof createStripeEventService>;
