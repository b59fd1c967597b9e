/**
 * An event's dashboard (issue 21): issued, checked in, listed and resold (GET /v1/org/events/{externalId}/attendance),
 * the check-ins per 5 minutes over the event day as a bar chart, and what offline doors admitted that the server
 * refused when they synced (GET /v1/org/events/{externalId}/check-ins). Both refresh every 30 seconds. The chart
 * library (uPlot) is its own lazy chunk, loaded only when a dashboard opens (decision 024).
 */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { organisations } from '@tp/contract';
import type * as z from 'zod';
import { useTheme } from '../lib/theme';
import { Button } from '../ui/button';
import { org } from './api';
import { consoleKeys } from './console-query-keys';
import { TableRegion } from './table-region';
import { QueryState } from './query-state';

const CheckInChart = lazy(() => import('./check-in-chart'));

type EventItem = z.infer<typeof organisations.eventItem>;
type Attendance = z.infer<typeof organisations.attendanceResponse>;
type CheckIns = organisations.CheckInsBody;

/** How often the dashboard reads the counts again while open, in milliseconds. */
const REFRESH_MS = 30_000;

export function Dashboard({ event, onBack }: { event: EventItem & { externalId: string }; onBack: () => void }) {
  const { t } = useTranslation();
  const { theme } = useTheme();
  const params = { path: { externalId: event.externalId } };
  const attendance = useQuery({
    queryKey: consoleKeys.events.attendance(event.externalId),
    queryFn: (): Promise<Attendance> => org.GET('/v1/org/events/{externalId}/attendance', { params }),
    refetchInterval: REFRESH_MS,
  });
  const checkIns = useQuery({
    queryKey: consoleKeys.events.checkIns(event.externalId),
    queryFn: (): Promise<CheckIns> => org.GET('/v1/org/events/{externalId}/check-ins', { params }),
    refetchInterval: REFRESH_MS,
  });
  const lang = document.documentElement.lang;
  const clock = (iso: string) =>
    new Date(iso).toLocaleString(lang, { timeZone: event.timeZone, dateStyle: 'short', timeStyle: 'medium' });
  const counts = attendance.data;
  const data = checkIns.data;
  const total = data?.buckets.reduce((sum, b) => sum + b.count, 0) ?? 0;
  const peak = data?.buckets.reduce((max, b) => (b.count > (max?.count ?? 0) ? b : max), data.buckets[0]);
  return (
    <section className="stack">
      <div className="row">
        <h1 style={{ marginRight: 'auto' }}>{t('console.dashboard.title', { name: event.name })}</h1>
        <Button variant="ghost" onClick={onBack}>
          {t('console.back')}
        </Button>
      </div>
      <QueryState query={attendance} />
      <dl className="stats">
        {(['issued', 'checkedIn', 'listedForResale', 'resold'] as const).map((k) => (
          <div key={k} className="card stat">
            <dt>{t(`console.dashboard.${k}`)}</dt>
            <dd data-testid={`stat-${k}`}>{counts ? counts[k].toLocaleString(lang) : '…'}</dd>
          </div>
        ))}
      </dl>
      <section className="card stack" aria-labelledby="chart-title">
        <h2 id="chart-title">{t('console.dashboard.chart_title')}</h2>
        <QueryState query={checkIns} />
        {data && (
          <p className="muted" data-testid="chart-summary">
            {total === 0
              ? counts && counts.checkedIn > 0
                ? // Check-ins before the chart's window (doors open 6 h before the start): say so, not "none".
                  t('console.dashboard.chart_none_outside', { count: counts.checkedIn })
                : t('console.dashboard.chart_none')
              : t('console.dashboard.chart_summary', {
                  count: total,
                  peak: peak!.count,
                  at: new Date(peak!.at).toLocaleTimeString(lang, { timeZone: event.timeZone, timeStyle: 'short' }),
                })}
          </p>
        )}
        {data && (
          <Suspense fallback={<div className="chart" aria-busy="true" />}>
            <CheckInChart
              data={data}
              timeZone={event.timeZone}
              theme={theme}
              label={t('console.dashboard.chart_title')}
            />
          </Suspense>
        )}
      </section>
      <section className="stack" aria-labelledby="conflicts-title">
        <h2 id="conflicts-title">{t('console.dashboard.conflicts_title')}</h2>
        <p className="muted">{t('console.dashboard.conflicts_help')}</p>
        {data && data.conflicts.length === 0 && <p>{t('console.dashboard.conflicts_none')}</p>}
        {data && data.conflicts.length > 0 && (
          <TableRegion label={t('console.dashboard.conflicts_title')} card>
            <table>
              <thead>
                <tr>
                  <th>{t('console.holders.ticket')}</th>
                  <th>{t('console.dashboard.reason')}</th>
                  <th>{t('console.dashboard.scanned_at')}</th>
                  <th>{t('console.dashboard.synced_at')}</th>
                </tr>
              </thead>
              <tbody>
                {data.conflicts.map((c, i) => (
                  <tr key={i}>
                    <td>{c.ticketExternalId ?? '—'}</td>
                    <td>{t(`console.dashboard.conflict.${c.reason}`)}</td>
                    <td data-label={t('console.dashboard.scanned_at')}>{clock(c.scannedAt)}</td>
                    <td data-label={t('console.dashboard.synced_at')}>{clock(c.syncedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </section>
    </section>
  );
}
