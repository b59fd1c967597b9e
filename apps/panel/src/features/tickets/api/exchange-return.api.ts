/**
 * A ticket and its event's exchange queue (issue 45, decision 042), for the ticket page: whether it can be sold to the
 * queue at face value now and its state once returned (GET /v1/exchange/returns/{userTicketId}), returning it (POST
 * /v1/exchange/returns) and taking it back (DELETE /v1/exchange/returns/{userTicketId}). Either change refreshes the
 * ticket's state and the ticket listing (a returned ticket can be neither gifted, resold nor swapped, and does not
 * admit).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExchangeReturnState } from '@tp/contract/exchange';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const exchangeReturnQuery = (userTicketId: number) =>
  queryOptions({
    queryKey: queryKeys.exchangeReturn(userTicketId),
    queryFn: (): Promise<ExchangeReturnState> =>
      client.GET('/v1/exchange/returns/{userTicketId}', { params: { path: { userTicketId } } }),
  });

export const useExchangeReturn = (userTicketId: number) => useQuery(exchangeReturnQuery(userTicketId));

/**
 * Returns the ticket to its event's queue, or takes it back (`withdraw`).
 * @throws ApiError `api.exchange.return.no_payout_account` (403), `api.exchange.return.not_returnable`,
 *   `api.exchange.return.listed`, `api.exchange.return.already_returned`, `api.exchange.closed` (409) on a return;
 *   `api.exchange.withdraw.reserved` (409), `api.exchange.withdraw.not_found` (404) on a withdrawal.
 */
export function useExchangeReturnChange(userTicketId: number, change: 'return' | 'withdraw') {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (): Promise<unknown> =>
      change === 'return'
        ? client.POST('/v1/exchange/returns', { body: { userTicketId } })
        : client.DELETE('/v1/exchange/returns/{userTicketId}', { params: { path: { userTicketId } } }),
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.exchangeReturn(userTicketId) }),
        qc.invalidateQueries({ queryKey: queryKeys.tickets.all }),
      ]);
    },
  });
}
