/**
 * Payout account calls (spec sections 2 Settings payout, 3 Payout account, 7): POST /v1/resell/stripe-connect,
 * POST /v1/resell/sandbox-onboarding. The account's state (GET /v1/resell/stripe) is lib/payout-account, which
 * the resell screen reads too.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type * as z from 'zod';
import type { resell } from '@tp/contract';
import { client } from '../../../lib/api-client';
import { payoutAccountQuery, type PayoutAccountState } from '../../../lib/payout-account';

/** What the sandbox onboarding collects (what Stripe would): country AU or NZ, names, ISO birth date, bank account. */
export type SandboxOnboarding = z.infer<typeof resell.sandboxOnboardingRequest>;

/**
 * Creates the payout account if needed and returns an onboarding client secret (embedded onboarding).
 * @throws ApiError `api.resell.not_supported_country` outside Australia and New Zealand.
 */
export const connectPayoutAccount = (country: string): Promise<string> =>
  client
    .POST('/v1/resell/stripe-connect', { body: { accountType: 'custom', country } })
    .then((r: PayoutAccountState) => r.clientSecret);

/**
 * The sandbox onboarding form (used when Stripe is not configured): verifies the account.
 * @throws ApiError `api.resell.not_supported_country`, `api.invalid_request_body`.
 */
export const submitSandboxOnboarding = (body: SandboxOnboarding): Promise<void> =>
  client.POST('/v1/resell/sandbox-onboarding', { body });

export function useSandboxOnboarding() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: submitSandboxOnboarding,
    onSuccess: () => qc.invalidateQueries({ queryKey: payoutAccountQuery.queryKey }),
  });
}
