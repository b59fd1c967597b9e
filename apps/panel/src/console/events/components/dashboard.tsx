/**
 * An event's dashboard (issue 21): issued, checked in, listed and resold, and since issue 48 who is inside per zone
 * and the entries per day (attendance.api.ts, read every 5 seconds; occupancy.tsx), the check-ins per 5 minutes over
 * the event day as a bar chart, and what offline doors admitted that the server refused when they synced
 * (check-ins.api.ts, every 30 seconds). The chart library (uPlot) is its own lazy chunk, loaded
 * only when a dashboard opens (decision 024). Times in the event's zone through the contract's formatter.
 */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { organisations } from '@tp/contract';
import { formatTime, langOf } from '@tp/contract/format';
import type * as z from 'zod';
import { useTheme } from '../../../lib/theme';
import { Button } from '../../../ui/button';
import { QueryState } from '../../query-state';
import { useAttendance } from '../api/attendance.api';
import { useCheckIns } from '../api/check-ins.api';
import { Conflicts } from './conflicts';
import { Occupancy } from './occupancy';

const CheckInChart = lazy(() => import('./check-in-chart'));

type EventItem = z.infer<typeof organisations.eventItem>;

export function Dashboard({ event, onBack }: { event: EventItem & { externalId: string }; onBack: () => void }) {
  const { t } = useTranslation();
  const { theme } = useTheme();
  const attendance = useAttendance(event.externalId);
  const checkIns = useCheckIns(event.externalId);
  const lang = document.documentElement.lang;
  const counts = attendance.data;
  const data = checkIns.data;
  const total = data?.buckets.reduce((sum, b) => sum + b.count, 0) ?? 0;
  const peak = data?.buckets.reduce((max, b) => (b.count > (max?.count ?? 0) ? b : max), data.buckets[0]);
  const number = new Intl.NumberFormat(lang);
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
            <dd data-testid={`stat-${k}`}>{counts ? number.format(counts[k]) : '…'}</dd>
          </div>
        ))}
      </dl>
      <Occupancy counts={counts} updatedAt={attendance.dataUpdatedAt} timeZone={event.timeZone} />
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
                  at: formatTime(peak!.at, event.timeZone, langOf(lang)),
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
      <Conflicts data={data} timeZone={event.timeZone} />
    </section>
  );
}
