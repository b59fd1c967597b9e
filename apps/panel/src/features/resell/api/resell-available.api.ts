/** GET /v1/resell/tickets/available under the TICKETS_AVAILABLE_FOR_LISTING cache tag (spec sections 2 Resell, 4). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client } from '../../../lib/api-client';
import type { ResellableTicket } from '../resell.types';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The holder's listable tickets grouped by type. `preferUserTicketId` (the USER_TICKET_ID the user came
 * with) makes that ticket the `userTicketId` of its group, so it can be pre-selected.
 */
export const fetchAvailable = (preferUserTicketId?: string | null): Promise<ResellableTicket[]> =>
  client.GET('/v1/resell/tickets/available', {
    params: { query: preferUserTicketId ? { userTicketId: Number(preferUserTicketId) } : {} },
  });

export const availableQuery = (preferUserTicketId?: string | null) =>
  queryOptions({
    queryKey: queryKeys.ticketsAvailableForListing.list(preferUserTicketId ?? null),
    queryFn: () => fetchAvailable(preferUserTicketId),
  });

export const useAvailableForListing = (preferUserTicketId?: string | null) =>
  useQuery(availableQuery(preferUserTicketId));
