/** GET /v1/resell/tickets/sold: listings with at least one sale (SOLD tab), cache tag LISTED_TICKETS. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client } from '../../../lib/api-client';
import type { Listing } from '../resell.types';
import { queryKeys } from '../../../lib/query-keys';

export const soldQuery = queryOptions({
  queryKey: queryKeys.listedTickets.byState('SOLD'),
  queryFn: (): Promise<Listing[]> => client.GET('/v1/resell/tickets/sold'),
});
export const useSold = () => useQuery(soldQuery);
