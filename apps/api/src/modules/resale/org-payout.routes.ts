/**
 * The organisation's payout account and payouts under /v1/org (issue 45, decision 042 "As built (organisation
 * payouts)"): the tickets it releases into its exchange queues are paid to its own payout account, opened and verified
 * as a seller's is (the provider's embedded onboarding, or the sandbox form without Stripe). Owners only (money); from
 * the console, opening or completing the onboarding wants a fresh proof of presence (step-up `payout_account`,
 * decision 048), as the holder's own payout account does.
 */
import * as z from 'zod';
import { exchange, resell } from '@tp/contract';
import type { App } from '../../lib/http.js';
import { errors, securityOf } from '../../lib/openapi.js';
import type { RequireOrganisation } from '../organiser-scope/org-auth.js';
import type { EarningsService } from './earnings.service.js';
import type { PayoutAccountService } from './payout-account.service.js';

const security = securityOf('organisationApiKey');

/** Registers `/org/payout-account` (state, onboarding, sandbox form) and `/org/payouts`. */
export function orgPayoutRoutes(
  app: App,
  deps: { payoutAccounts: PayoutAccountService; earnings: EarningsService; requireOrganisation: RequireOrganisation },
) {
  const preHandler = deps.requireOrganisation('owner');
  app.get(
    '/org/payout-account',
    {
      preHandler,
      schema: {
        operationId: 'getOrganisationPayoutAccount',
        summary: "The state of the organisation's payout account (where released exchange tickets are paid)",
        security,
        response: { 200: resell.clientSecretResponse, ...errors(401, 403) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return deps.payoutAccounts.accountState({ organisationId: req.organisation.id });
    },
  );
  app.post(
    '/org/payout-account',
    {
      preHandler,
      config: { stepUp: 'payout_account' },
      schema: {
        operationId: 'connectOrganisationPayoutAccount',
        summary: "Open (or reopen) the organisation's payout onboarding: a client secret for the embedded onboarding",
        security,
        body: exchange.orgPayoutConnectRequest,
        response: { 200: resell.clientSecretResponse, ...errors(400, 401, 403, 503) },
      },
    },
    async (req) => deps.payoutAccounts.connect({ organisationId: req.organisation.id }, req.body.country.toUpperCase()),
  );
  app.post(
    '/org/payout-account/sandbox-onboarding',
    {
      preHandler,
      config: { stepUp: 'payout_account' },
      schema: {
        operationId: 'completeOrganisationSandboxOnboarding',
        summary: "Complete the organisation's payout onboarding with the sandbox provider (no Stripe)",
        security,
        body: resell.sandboxOnboardingRequest,
        response: { 204: z.null(), ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      await deps.payoutAccounts.sandboxOnboard(
        { organisationId: req.organisation.id },
        { country: req.body.country.toUpperCase() },
      );
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/org/payouts',
    {
      preHandler,
      schema: {
        operationId: 'listOrganisationPayouts',
        summary: 'What the organisation is owed for the tickets it released that fans bought, newest first',
        security,
        response: { 200: exchange.orgPayoutList, ...errors(401, 403) },
      },
    },
    async (req) => deps.earnings.ofOrganisation(req.organisation.id),
  );
}
