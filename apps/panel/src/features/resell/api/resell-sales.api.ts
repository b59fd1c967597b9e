/** GET /v1/resell/ticket/sales: the user's live listings (SALE tab), cache tag LISTED_TICKETS. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client } from '../../../lib/api-client';
import type { Listing } from '../resell.types';
import { queryKeys } from '../../../lib/query-keys';

export const salesQuery = queryOptions({
  queryKey: queryKeys.listedTickets.byState('SALE'),
  queryFn: (): Promise<Listing[]> => client.GET('/v1/resell/ticket/sales'),
});
export const useSales = () => useQuery(salesQuery);
