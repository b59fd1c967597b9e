/**
 * GET /v1/org/events/{externalId}/check-ins: an event's check-ins per 5 minutes over the event day, and what offline
 * doors admitted that the server refused when they synced; read again every `REFRESH_MS` while open.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { organisations } from '@tp/contract';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import { REFRESH_MS } from './attendance.api';

export const checkInsQuery = (externalId: string) =>
  queryOptions({
    queryKey: consoleKeys.events.checkIns(externalId),
    queryFn: (): Promise<organisations.CheckInsBody> =>
      org.GET('/v1/org/events/{externalId}/check-ins', { params: { path: { externalId } } }),
    refetchInterval: REFRESH_MS,
  });

export const useCheckIns = (externalId: string) => useQuery(checkInsQuery(externalId));
