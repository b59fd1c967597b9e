/**
 * GET /v1/org/tickets: the organisation's tickets with their current holder, a page of 25 from `cursor`, searched
 * (`search`: e-mail, name, id or the number the holder reads), filtered by `status` and `event` (empty: any).
 * @throws ApiError `api.invalid_request_body` with `fields.search` for a search the API refuses (too long, a NUL).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { organisations } from '@tp/contract';
import type * as z from 'zod';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import type { Page } from '../../api';

export type TicketItem = z.infer<typeof organisations.ticketItem>;

export interface TicketFilter {
  search: string;
  status: string;
  event: string;
}

export const ticketsQuery = ({ search, status, event }: TicketFilter, cursor: string | undefined) =>
  queryOptions({
    queryKey: consoleKeys.tickets.list(search, status, event, cursor),
    queryFn: (): Promise<Page<TicketItem>> =>
      org.GET('/v1/org/tickets', {
        params: {
          query: {
            search: search.trim() || undefined,
            status: organisations.ticketStatus.options.find((s) => s === status),
            event: event || undefined,
            cursor,
            limit: 25,
          },
        },
      }),
  });

export const useTickets = (filter: TicketFilter, cursor: string | undefined) => useQuery(ticketsQuery(filter, cursor));
