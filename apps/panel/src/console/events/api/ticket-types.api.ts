/**
 * GET /v1/org/ticket-types?event=: an event's ticket types, the first 200. An event made outside the organisation
 * API (the demo's) has no id of the organiser's to list types by: then nothing is asked.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { organisations } from '@tp/contract';
import type * as z from 'zod';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import type { Page } from '../../api';

export type TicketTypeItem = z.infer<typeof organisations.ticketTypeItem>;

export const ticketTypesQuery = (event: string | null) =>
  queryOptions({
    queryKey: consoleKeys.ticketTypes.of(event),
    queryFn: (): Promise<Page<TicketTypeItem>> =>
      org.GET('/v1/org/ticket-types', { params: { query: { event: event ?? '', limit: 200 } } }),
    enabled: event !== null,
  });

export const useTicketTypes = (event: string | null) => useQuery(ticketTypesQuery(event));
