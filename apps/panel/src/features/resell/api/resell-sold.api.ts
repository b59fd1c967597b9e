/** GET /v1/resell/tickets/sold: listings with at least one sale (SOLD tab), cache tag LISTED_TICKETS. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Listing } from '../resell.types';

export const soldQuery = queryOptions({
  queryKey: ['LISTED_TICKETS', 'SOLD'],
  queryFn: () => api<Listing[]>('/resell/tickets/sold'),
});
export const useSold = () => useQuery(soldQuery);
