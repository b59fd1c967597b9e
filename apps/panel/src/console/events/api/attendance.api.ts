/**
 * GET /v1/org/events/{externalId}/attendance: an event's counts (issued, checked in, listed for resale, resold),
 * read again every `REFRESH_MS` while the dashboard is open.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { organisations } from '@tp/contract';
import type * as z from 'zod';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

type Attendance = z.infer<typeof organisations.attendanceResponse>;

/** How often the dashboard reads its counts again while open, in milliseconds. */
export const REFRESH_MS = 30_000;

export const attendanceQuery = (externalId: string) =>
  queryOptions({
    queryKey: consoleKeys.events.attendance(externalId),
    queryFn: (): Promise<Attendance> =>
      org.GET('/v1/org/events/{externalId}/attendance', { params: { path: { externalId } } }),
    refetchInterval: REFRESH_MS,
  });

export const useAttendance = (externalId: string) => useQuery(attendanceQuery(externalId));
