/** Ticket queries under the TICKETS and SINGLE_TICKET cache tags. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyTicket, TicketStatus } from '@tp/contract';
import { api } from '../../../lib/api-client';

export const ticketsQuery = (status: TicketStatus) =>
  queryOptions({ queryKey: ['TICKETS', status], queryFn: () => api<MyTicket[]>(`/list/ticket_listing?status=${status}`) });
export const ticketQuery = (id: string) =>
  queryOptions({ queryKey: ['SINGLE_TICKET', id], queryFn: () => api<MyTicket>(`/list/ticket_listing/${encodeURIComponent(id)}`) });

export const useTickets = (status: TicketStatus) => useQuery(ticketsQuery(status));
export const useTicket = (id: string | null) => useQuery({ ...ticketQuery(id ?? ''), enabled: Boolean(id) });
