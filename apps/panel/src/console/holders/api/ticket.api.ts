/** GET /v1/org/tickets/{externalId}: one ticket with its holder, number and history (the ticket drawer). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { organisations } from '@tp/contract';
import type * as z from 'zod';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export type TicketDetail = z.infer<typeof organisations.ticketDetail>;

export const ticketQuery = (externalId: string) =>
  queryOptions({
    queryKey: consoleKeys.tickets.detail(externalId),
    queryFn: (): Promise<TicketDetail> => org.GET('/v1/org/tickets/{externalId}', { params: { path: { externalId } } }),
  });

export const useTicket = (externalId: string) => useQuery(ticketQuery(externalId));
