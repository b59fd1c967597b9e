/**
 * GET /v1/org/events/{externalId}/attendance: an event's counts (issued, checked in, listed for resale, resold, and
 * since issue 48 the people inside per zone and the entries per event-local day), read again every `LIVE_MS` while
 * the dashboard is open: the organiser watches the doors with it.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { organisations } from '@tp/contract';
import type * as z from 'zod';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export type Attendance = z.infer<typeof organisations.attendanceResponse>;

/** How often the dashboard's chart, conflicts and the exchange queue are read again while open, in milliseconds. */
export const REFRESH_MS = 30_000;

/** How often the dashboard reads its counts (who is inside) again while open, in milliseconds (issue 48: ≤ 5 s). */
export const LIVE_MS = 5_000;

export const attendanceQuery = (externalId: string) =>
  queryOptions({
    queryKey: consoleKeys.events.attendance(externalId),
    queryFn: (): Promise<Attendance> =>
      org.GET('/v1/org/events/{externalId}/attendance', { params: { path: { externalId } } }),
    refetchInterval: LIVE_MS,
  });

export const useAttendance = (externalId: string) => useQuery(attendanceQuery(externalId));
