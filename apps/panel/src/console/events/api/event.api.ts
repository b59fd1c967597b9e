/**
 * GET /v1/org/events/{externalId}: one event by the organiser's id, for a view of it opened from its URL; from the
 * lists already loaded (`initialData`) when the console came from them, else asked (a reload, a link).
 */
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import type { Page } from '../../api';
import type { EventItem } from '../../events-list.api';

export const eventQuery = (client: QueryClient, externalId: string) =>
  queryOptions({
    queryKey: consoleKeys.events.detail(externalId),
    queryFn: (): Promise<EventItem> => org.GET('/v1/org/events/{externalId}', { params: { path: { externalId } } }),
    initialData: () =>
      client
        .getQueriesData<Page<EventItem>>({ queryKey: consoleKeys.events.all })
        .flatMap(([, page]) => (page && Array.isArray(page.items) ? page.items : []))
        .find((e) => e.externalId === externalId),
  });

export const useEvent = (externalId: string) => useQuery(eventQuery(useQueryClient(), externalId));
