/**
 * GET /v1/ticket_swap/tickets (spec section 7): the caller's swap base tickets, cache tag SWAPPABLE_TICKETS.
 * Entries are grouped by ticket type (docs/decisions/001): `id` is the ticket type id, `quantity` how many the
 * caller holds, `userTicketIds` which tickets those are. Errors: ApiError with a message key.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { swap } from '@tp/contract';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type SwapTicket = swap.SwapTicket;

export const swappableTicketsQuery = queryOptions({
  queryKey: queryKeys.swappableTickets.all,
  queryFn: (): Promise<SwapTicket[]> => client.GET('/v1/ticket_swap/tickets'),
});

export const useSwappableTickets = () => useQuery(swappableTicketsQuery);
