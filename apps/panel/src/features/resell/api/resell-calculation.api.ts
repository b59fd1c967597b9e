/**
 * POST /v1/resell/ticket/calculation: the pricing summary (spec sections 2 Resell, 4: re-requested on every
 * price or quantity change). Kept under the TICKETS_AVAILABLE_FOR_LISTING tag, never reused from cache.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { client } from '../../../lib/api-client';
import type { PriceCalculation } from '../resell.types';
import { queryKeys } from '../../../lib/query-keys';

export interface CalculationInput {
  /** Ticket type id (`ticketId` of the entry). */
  ticketId: number;
  /** Price per ticket, major units. */
  selectedPrice: number;
  quantity: number;
}

/** @throws ApiError `invalid_prices` (above the cap), `api.resell.calculation.ticket_not_found`, `api.invalid_request_body`. */
export const fetchCalculation = (input: CalculationInput): Promise<PriceCalculation> =>
  client.POST('/v1/resell/ticket/calculation', { body: input });

export const calculationQuery = (input: CalculationInput) =>
  queryOptions({
    queryKey: queryKeys.ticketsAvailableForListing.calculation(input.ticketId, input.selectedPrice, input.quantity),
    queryFn: () => fetchCalculation(input),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

/** The summary for `input`, or idle while `input` is null; the previous summary stays shown while the next loads. */
export const useCalculation = (input: CalculationInput | null) =>
  useQuery({
    ...calculationQuery(input ?? { ticketId: 0, selectedPrice: 0, quantity: 1 }),
    enabled: input !== null,
    placeholderData: keepPreviousData,
  });
