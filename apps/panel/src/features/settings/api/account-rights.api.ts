/**
 * Account rights calls (issue 13, item 6; beyond the spec, docs/decisions/001): GET /v1/auth/export,
 * POST /v1/auth/logout-others, DELETE /v1/auth/account, GET /v1/resell/earnings (the payout tab's sales).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountExport, Earning } from '@tp/contract';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The holder's data as the server exports it. */
export const exportAccountData = (): Promise<AccountExport> => client.GET('/v1/auth/export');

/** The download name of an export: `my-data-YYYY-MM-DD.json` (the server's Content-Disposition name). */
export const exportFileName = (data: Pick<AccountExport, 'exportedAt'>) =>
  `my-data-${data.exportedAt.slice(0, 10)}.json`;

/** Ends every other sign-in of the holder; resolves with how many were ended. */
export const logoutOtherDevices = (): Promise<{ revoked: number }> => client.POST('/v1/auth/logout-others');

/**
 * Deletes the account (personal data erased, history kept anonymous).
 * @throws ApiError `api.account.has_upcoming_tickets` or `api.account.has_listings` (409) when refused.
 */
export const deleteAccount = (): Promise<void> => client.DELETE('/v1/auth/account');

/** The seller's sales with what they are owed (minor units) and the payout status; not kept (like the payout state). */
export const earningsQuery = queryOptions({
  queryKey: queryKeys.user.earnings,
  queryFn: (): Promise<Earning[]> => client.GET('/v1/resell/earnings'),
  staleTime: 0,
  gcTime: 0,
});
export const useEarnings = () => useQuery(earningsQuery);
