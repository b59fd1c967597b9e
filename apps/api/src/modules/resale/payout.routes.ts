/**
 * The seller's payout account under /v1 (spec section 7): open the onboarding (stripe-connect), its state (stripe),
 * the sandbox provider's onboarding, and the Stripe webhook (signature-checked on the raw body) that verifies
 * accounts and pays orders.
 */
import * as z from 'zod';
import { resell } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { AppError } from '../../lib/app-error.js';
import { perUserPerMinute } from '../../lib/rate-limit.js';
import type { PayoutAccountService } from './payout-account.service.js';
import type { StripeEventService } from './stripe-event.service.js';

/** Registers the payout account's routes (the holder's token) and the Stripe webhook (its signature). */
export function payoutRoutes(
  app: App,
  deps: {
    payoutAccounts: PayoutAccountService;
    stripeEvents: StripeEventService;
    requireAuth: PreHandler;
    /** Onboardings per holder a minute: each may create a Stripe account or a billable account session. */
    connectsPerMinute: number;
  },
) {
  const pre = { preHandler: deps.requireAuth };
  app.post(
    '/resell/stripe-connect',
    {
      ...pre,
      schema: {
        operationId: 'connectPayoutAccount',
        summary: 'Open (or reopen) the payout onboarding: a client secret for the embedded onboarding',
        body: resell.stripeConnectRequest,
        response: { 200: resell.clientSecretResponse },
      },
      config: { ...perUserPerMinute('payout_connects', deps.connectsPerMinute), stepUp: 'payout_account' },
    },
    async (req) => deps.payoutAccounts.connect({ userId: req.auth.userId }, req.body.country),
  );
  app.get(
    '/resell/stripe',
    {
      ...pre,
      schema: {
        operationId: 'getPayoutAccount',
        summary: "The state of the holder's payout account",
        response: { 200: resell.clientSecretResponse },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return deps.payoutAccounts.accountState({ userId: req.auth.userId });
    },
  );
  app.post(
    '/resell/sandbox-onboarding',
    {
      ...pre,
      config: { stepUp: 'payout_account' },
      schema: {
        operationId: 'completeSandboxOnboarding',
        summary: 'Complete the payout onboarding of the sandbox provider (no Stripe)',
        body: resell.sandboxOnboardingRequest,
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      await deps.payoutAccounts.sandboxOnboard(
        { userId: req.auth.userId },
        { country: req.body.country.toUpperCase() },
      );
      return reply.code(204).send(null);
    },
  );
  // Stripe webhooks need the raw body for the signature check.
  app.register((hook, _opts, done) => {
    hook.removeContentTypeParser('application/json');
    hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    hook.post('/resell/stripe/webhook', { schema: { hide: true } }, async (req, reply) => {
      const signature = req.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(req.body)) throw new AppError('api.resell.webhook_invalid');
      await deps.stripeEvents.handle(req.body, signature, req.log);
      return reply.send({ received: true });
    });
    done();
  });
}
