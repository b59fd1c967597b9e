/**
 * The holder's places in exchange queues (issue 45, decision 042): GET /v1/exchange/entries (newest first, each with
 * its true position, or `inDraw` before a draw, and an open offer's `expiresAt`), leaving a queue (DELETE
 * /v1/exchange/entries/{id}), declining an open offer (POST /v1/exchange/entries/{id}/decline) and paying it (POST
 * /v1/exchange/entries/{id}/checkout, then the payment page). Leaving and declining refresh the entries and the ticket
 * listing (a declined or left offer may go to someone else).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExchangeCheckout, ExchangeEntry } from '@tp/contract/exchange';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Entries still in a queue: waiting for tickets, or holding an open offer. */
export const isActiveEntry = (e: ExchangeEntry): boolean => e.status === 'WAITING' || e.status === 'OFFERED';

/** Positions move as others leave or buy: asked again every minute while any entry is still in a queue. */
const ACTIVE_REFETCH_MS = 60_000;

export const exchangeEntriesQuery = queryOptions({
  queryKey: queryKeys.exchangeEntries,
  queryFn: (): Promise<ExchangeEntry[]> => client.GET('/v1/exchange/entries'),
  refetchInterval: (q) => (q.state.data?.some(isActiveEntry) ? ACTIVE_REFETCH_MS : false),
});

export const useExchangeEntries = () => useQuery(exchangeEntriesQuery);

/** Leaves the queue. @throws ApiError `api.exchange.entry_not_found`, `api.exchange.leave.not_open`. */
export const leaveExchange = (id: number): Promise<void> =>
  client.DELETE('/v1/exchange/entries/{id}', { params: { path: { id } } });

/** Declines the entry's open offer. @throws ApiError `api.exchange.entry_not_found`, `api.exchange.decline.not_offered`. */
export const declineExchangeOffer = (id: number): Promise<void> =>
  client.POST('/v1/exchange/entries/{id}/decline', { params: { path: { id } } });

/**
 * The page where I pay my open offer (made once per offer; the same page again on a second call).
 * @throws ApiError `api.exchange.entry_not_found`, `api.exchange.checkout.not_offered`, `api.service_unavailable`.
 */
export const checkoutExchangeOffer = (id: number): Promise<ExchangeCheckout> =>
  client.POST('/v1/exchange/entries/{id}/checkout', { params: { path: { id } } });

/** Opens the offer's checkout; a refusal (the offer ended) refreshes the entries. */
export function useExchangeCheckout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: checkoutExchangeOffer,
    onError: () => qc.invalidateQueries({ queryKey: queryKeys.exchangeEntries }),
  });
}

/** One mutation per action; either refreshes the entries and the ticket listing when it settles. */
export function useExchangeEntryAction(action: 'leave' | 'decline') {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: action === 'leave' ? leaveExchange : declineExchangeOffer,
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.exchangeEntries }),
        qc.invalidateQueries({ queryKey: queryKeys.tickets.all }),
      ]);
    },
  });
}
