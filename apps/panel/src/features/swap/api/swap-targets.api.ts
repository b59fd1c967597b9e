/**
 * GET /v1/ticket_swap/tickets/{ticketId} (spec section 7): the ticket types a base ticket type can be swapped to,
 * cache tag ['TICKETS_SWAP', ticketId]. Each target's `id` is the swap pair id (what start_swap takes as
 * `swapPairId`), `quantity` the stock left and `price` its price in major units. Errors: ApiError
 * (the screen shows api.internal_error and resets the selection, spec section 8).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client } from '../../../lib/api-client';
import type { SwapTicket } from './swappable-tickets.api';
import { queryKeys } from '../../../lib/query-keys';

export const swapTargetsQuery = (ticketId: number) =>
  queryOptions({
    queryKey: queryKeys.ticketsSwap.targets(ticketId),
    queryFn: (): Promise<SwapTicket[]> =>
      client.GET('/v1/ticket_swap/tickets/{ticketId}', { params: { path: { ticketId } } }),
    // A failed fetch resets the selection at once: no silent retry.
    retry: false,
  });

/** Targets of the selected base ticket type; idle while `ticketId` is null. */
export const useSwapTargets = (ticketId: number | null) =>
  useQuery({ ...swapTargetsQuery(ticketId ?? 0), enabled: ticketId !== null });
