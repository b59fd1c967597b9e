/**
 * The holder's UPCOMING tickets for the gift dropdown (spec sections 2 Gift, 9 "Gift list filter
 * UPCOMING"): GET /v1/list/ticket_listing?status=UPCOMING under the TICKETS cache tag, the same key
 * My tickets uses, so both screens share one cache entry and one invalidation.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyTicket } from '@tp/contract';
import { api } from '../../../lib/api-client';

/** Fetches the upcoming tickets. @throws ApiError (message key). */
export const fetchUpcomingTickets = () => api<MyTicket[]>('/list/ticket_listing?status=UPCOMING');

export const upcomingTicketsQuery = queryOptions({ queryKey: ['TICKETS', 'UPCOMING'], queryFn: fetchUpcomingTickets });

export const useUpcomingTickets = () => useQuery(upcomingTicketsQuery);
