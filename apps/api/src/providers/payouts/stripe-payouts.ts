/**
 * The Stripe payout provider (Connect custom accounts, embedded onboarding, Checkout, refunds, signed webhooks). Its
 * own module so that the SDK loads only when STRIPE_SECRET_KEY is set (`payoutProviderFor`, app.ts).
 */
import Stripe from 'stripe';
import * as z from 'zod';
import { payoutEventOf, stripeAnswersOnly, stripeCalls, type PayoutProvider } from './payout.provider.js';

/**
 * Stripe Connect (custom accounts, AccountSession for embedded onboarding) and Stripe Checkout.
 * @param opts.timeoutMs bound on one Stripe request from connection to the last byte of its answer, milliseconds
 *   (STRIPE_TIMEOUT_SECONDS; default 20,000, the SDK's own is 80,000): the SDK's fetch client aborts the request
 *   when it passes (the Node client's `timeout` is a socket idle timeout, which an API sending a byte a second never
 *   trips). Stripe's API retries up to twice (network errors, 409, 5xx), so one call takes at most about three times
 *   this; a call that still fails to connect or times out, or that Stripe answers with a 5xx or 429, throws AppError
 *   `api.service_unavailable` (503), as does a call while `maxInFlight` others wait.
 */
export function createStripePayouts(opts: {
  secretKey: string;
  webhookSecret: string;
  apiUrl: string | null;
  timeoutMs?: number;
  /** Most Stripe calls of this instance at once (STRIPE_MAX_IN_FLIGHT, default 8); past it 503 at once. */
  maxInFlight?: number;
}): PayoutProvider {
  const stripeCall = stripeCalls(opts.maxInFlight ?? 8);
  const api = opts.apiUrl ? new URL(opts.apiUrl) : null;
  const timeout = opts.timeoutMs ?? 20_000;
  const stripe = new Stripe(
    opts.secretKey,
    api
      ? {
          host: api.hostname,
          port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
          protocol: api.protocol.replace(':', '') as 'http' | 'https',
          maxNetworkRetries: 0,
          timeout,
          httpClient: Stripe.createFetchHttpClient(stripeAnswersOnly),
        }
      : { maxNetworkRetries: 2, timeout, httpClient: Stripe.createFetchHttpClient(stripeAnswersOnly) },
  );
  return {
    kind: 'stripe',
    async createAccount({ email, country }) {
      const account = await stripeCall(
        () =>
          stripe.accounts.create({
            type: 'custom',
            country,
            email,
            capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
          }),
        z.object({ id: z.string().min(1) }),
      );
      return { externalId: account.id };
    },
    async createAccountSession(externalId) {
      const session = await stripeCall(
        () =>
          stripe.accountSessions.create({
            account: externalId,
            components: { account_onboarding: { enabled: true } },
          }),
        z.object({ client_secret: z.string().min(1) }),
      );
      return session.client_secret;
    },
    async createCheckout(req) {
      const session = await stripeCall(
        () =>
          stripe.checkout.sessions.create(
            {
              mode: 'payment',
              customer_email: req.buyerEmail,
              success_url: req.successUrl,
              cancel_url: req.cancelUrl,
              metadata: { orderId: req.orderId },
              // Carried to the payment and its charge, so a refund or dispute names the order (issue 46).
              payment_intent_data: { metadata: { orderId: req.orderId } },
              client_reference_id: req.orderId,
              line_items: [
                {
                  quantity: req.quantity,
                  price_data: {
                    currency: req.currencyCode.toLowerCase(),
                    unit_amount: req.unitAmountCents,
                    product_data: { name: req.productName },
                  },
                },
              ],
            },
            // Stripe answers a repeated key with the first session (for 24 hours, as long as a session lives).
            { idempotencyKey: `${req.kind}-checkout-${req.orderId}` },
          ),
        // A hosted checkout (this one) always has its page's URL.
        z.object({ id: z.string().min(1), url: z.url({ protocol: /^https?$/ }) }),
      );
      return { url: session.url, sessionId: session.id };
    },
    async refund(paymentIntentId, idempotencyKey) {
      const refund = await stripeCall(
        () => stripe.refunds.create({ payment_intent: paymentIntentId }, { idempotencyKey }),
        z.object({ id: z.string().min(1) }),
      );
      return { refundId: refund.id };
    },
    parseWebhook(rawBody, signature) {
      return payoutEventOf(stripe.webhooks.constructEvent(rawBody, signature, opts.webhookSecret));
    },
  };
}
