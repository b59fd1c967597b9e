/**
 * GET /v1/org/events: the organisation's events, upcoming or past (`when`), the first 100 (issue 21). Shared by two
 * areas, so at the console's root (areas never import each other): the events screen's list, and the Holders
 * screen's event filter (both lists).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { organisations } from '@tp/contract';
import type * as z from 'zod';
import { org, type Page } from './api';
import { consoleKeys } from './console-query-keys';

export type EventItem = z.infer<typeof organisations.eventItem>;

export const eventsQuery = (when: 'upcoming' | 'past') =>
  queryOptions({
    queryKey: consoleKeys.events.list(when),
    queryFn: (): Promise<Page<EventItem>> => org.GET('/v1/org/events', { params: { query: { when, limit: 100 } } }),
  });

export const useEvents = (when: 'upcoming' | 'past') => useQuery(eventsQuery(when));
