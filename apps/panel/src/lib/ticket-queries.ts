/**
 * The ticket listing queries several features read (My tickets, the ticket page, the gift dropdown):
 * GET /v1/list/ticket_listing?status=UPCOMING|PAST under the TICKETS cache tag and
 * GET /v1/list/ticket_listing/{id} under SINGLE_TICKET (spec sections 4, 7). One definition, so every
 * screen shares one cache entry and one invalidation.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyTicket, TicketStatus } from '@tp/contract';
import { client } from './api-client';
import { queryKeys } from './query-keys';

export const ticketsQuery = (status: TicketStatus) =>
  queryOptions({
    queryKey: queryKeys.tickets.list(status),
    queryFn: (): Promise<MyTicket[]> => client.GET('/v1/list/ticket_listing', { params: { query: { status } } }),
  });
export const ticketQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.singleTicket.detail(id),
    queryFn: (): Promise<MyTicket> =>
      client.GET('/v1/list/ticket_listing/{ticketUserId}', { params: { path: { ticketUserId: Number(id) } } }),
  });

/** The holder's tickets with that status. @throws ApiError (message key). */
export const useTickets = (status: TicketStatus) => useQuery(ticketsQuery(status));
/** One ticket; idle without an id. @throws ApiError (`api.ticket.not_found`). */
export const useTicket = (id: string | null) => useQuery({ ...ticketQuery(id ?? ''), enabled: Boolean(id) });
