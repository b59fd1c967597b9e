/**
 * The organisation's payout account in the console (issue 45, decision 042 "As built (organisation payouts)"): the
 * tickets it releases into an exchange queue are paid to it, so a release waits until it is verified. GET
 * /v1/org/payout-account (its state, never cached; owners only: a staff member's answer is 403
 * `api.org.role_forbidden`), POST /v1/org/payout-account (Stripe's embedded onboarding secret), POST
 * /v1/org/payout-account/sandbox-onboarding (the sandbox form, on a deployment without Stripe), and the deployment's
 * Stripe publishable key (GET /v1/config: empty without Stripe), which picks the one or the other.
 * @throws ApiError `api.org.role_forbidden`, `api.resell.not_supported_country`, `api.invalid_request_body`.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type * as z from 'zod';
import type { resell } from '@tp/contract';
import type { SandboxOnboardingValues } from '../../../ui/payout-sandbox-form';
import { fresh, org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import { useFormMutation, type FormMutationOptions } from '../../form-mutation';

/** `started` once onboarding began; `verified` once the provider verified the account (releases may go ahead). */
export type OrgPayoutAccount = z.infer<typeof resell.clientSecretResponse>;

export const orgPayoutAccountQuery = queryOptions({
  queryKey: consoleKeys.payoutAccount,
  queryFn: (): Promise<OrgPayoutAccount> => org.GET('/v1/org/payout-account'),
  staleTime: 0,
});
export const useOrgPayoutAccount = () => useQuery(orgPayoutAccountQuery);

/** The deployment's Stripe publishable key: '' without Stripe (the sandbox form is shown then). */
export const useStripeKey = () =>
  useQuery({
    queryKey: consoleKeys.stripeKey,
    queryFn: async (): Promise<string> => (await fresh.GET('/v1/config')).stripePublishableKey,
    staleTime: Infinity,
  });

/**
 * Opens (or reopens) the organisation's Stripe onboarding: its client secret.
 * @param country ISO 3166-1 alpha-2, AU or NZ
 * @throws ApiError `api.resell.not_supported_country`, `api.org.role_forbidden`.
 */
export const connectOrgPayoutAccount = async (country: string): Promise<string> =>
  (await org.POST('/v1/org/payout-account', { body: { country } })).clientSecret;

/** The sandbox form's verification (204); the account's state is read again after it. */
export const useOrgSandboxOnboarding = (options: FormMutationOptions<void>) =>
  useFormMutation(
    (body: SandboxOnboardingValues) => org.POST('/v1/org/payout-account/sandbox-onboarding', { body }),
    [consoleKeys.payoutAccount],
    options,
  );
