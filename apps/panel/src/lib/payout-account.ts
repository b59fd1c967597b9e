/**
 * GET /v1/resell/stripe (spec sections 3 Payout account, 9: the payout state is not kept, never cached): read by
 * the settings payout tab and by the resell screen, which names the requirement before its form (issue 23).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type * as z from 'zod';
import type { resell } from '@tp/contract';
import { client } from './api-client';
import { queryKeys } from './query-keys';

/** `clientSecret` '' when onboarding has not started; `verified` once the provider verified the account. */
export type PayoutAccountState = z.infer<typeof resell.clientSecretResponse>;

export const payoutAccountQuery = queryOptions({
  queryKey: queryKeys.user.payoutAccount,
  queryFn: (): Promise<PayoutAccountState> =>
    client.GET('/v1/resell/stripe', { headers: { 'cache-control': 'no-store' } }),
  staleTime: 0,
  gcTime: 0,
});
export const usePayoutAccount = () => useQuery(payoutAccountQuery);
