/**
 * Joining an event's exchange queue from its public page (issue 45): the page opens My tickets with the wish
 * (`EXCHANGE_EVENT`, `EXCHANGE_TYPE`, `EXCHANGE_QUANTITY` beside `org`), read here; the queue's public view (GET
 * /v1/exchange/{orgSlug}/{eventExternalId}) names what is joined, and the join (POST .../entries) refreshes the
 * holder's entries.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExchangeEntry, ExchangePublic } from '@tp/contract/exchange';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The query parameters the public page sets. */
export const JOIN_PARAMS = ['EXCHANGE_EVENT', 'EXCHANGE_TYPE', 'EXCHANGE_QUANTITY'] as const;

/** A wish to join: the organisation, the event and type (organiser ids) and how many tickets. */
export interface JoinWish {
  orgSlug: string;
  eventExternalId: string;
  ticketTypeExternalId: string;
  quantity: number;
}

/** The wish in `search`, or null when a part is missing or the quantity is not a whole number from 1 to 6. */
export function joinWishOf(search: string): JoinWish | null {
  const q = new URLSearchParams(search);
  const [orgSlug, eventExternalId, ticketTypeExternalId] = [q.get('org'), q.get(JOIN_PARAMS[0]), q.get(JOIN_PARAMS[1])];
  const quantity = Number(q.get(JOIN_PARAMS[2]) ?? '1');
  if (!orgSlug || !eventExternalId || !ticketTypeExternalId) return null;
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > 6) return null;
  return { orgSlug, eventExternalId, ticketTypeExternalId, quantity };
}

export const exchangePublicQuery = (orgSlug: string, eventExternalId: string) =>
  queryOptions({
    queryKey: queryKeys.exchangePublic(orgSlug, eventExternalId),
    queryFn: (): Promise<ExchangePublic> =>
      client.GET('/v1/exchange/{orgSlug}/{eventExternalId}', { params: { path: { orgSlug, eventExternalId } } }),
  });

export const useExchangePublic = (wish: JoinWish) => useQuery(exchangePublicQuery(wish.orgSlug, wish.eventExternalId));

/**
 * Joins the queue as wished; refreshes my entries.
 * @throws ApiError `api.exchange.closed`, `api.exchange.join.already_in_queue` (409),
 *   `api.exchange.join.type_not_found`, `api.exchange.not_found` (404), `api.exchange.join.quantity_exceeded` (400).
 */
export function useJoinExchange() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (wish: JoinWish): Promise<ExchangeEntry> =>
      client.POST('/v1/exchange/{orgSlug}/{eventExternalId}/entries', {
        params: { path: { orgSlug: wish.orgSlug, eventExternalId: wish.eventExternalId } },
        body: { ticketTypeExternalId: wish.ticketTypeExternalId, quantity: wish.quantity },
      }),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.exchangeEntries }),
  });
}
