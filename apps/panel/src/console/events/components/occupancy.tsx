/**
 * The dashboard's live counts (issue 48, decision 050), from the attendance answer (attendance.api.ts, read every
 * `LIVE_MS`): who is inside now per zone (the general doors first; zones nobody is in are not listed) and how many
 * tickets entered on each event-local day, with the time of the last answer in the event's zone. Nothing until the
 * first answer (the dashboard's `QueryState` says Loading or the error); an empty text when there is nothing yet.
 */
import { useTranslation } from 'react-i18next';
import { langOf } from '@tp/contract/format';
import type { Attendance } from '../api/attendance.api';
import { TableHead, TableRegion } from '../../table-region';
import { dayLabel } from './event-days';

export function Occupancy({
  counts,
  updatedAt,
  timeZone,
}: {
  counts: Attendance | undefined;
  /** When the counts were answered, ms since the epoch. */
  updatedAt: number;
  timeZone: string;
}) {
  const { t } = useTranslation();
  if (!counts) return null;
  const lang = langOf(document.documentElement.lang);
  const number = new Intl.NumberFormat(lang);
  const inside = [...counts.insideByZone].sort((a, b) => (a.zone === null ? -1 : b.zone === null ? 1 : 0));
  // A time with seconds ("5:36:44 PM", "17:36:44"): only en's "pm" has letters, written in capitals (decision 011).
  const at = new Intl.DateTimeFormat(lang === 'es' ? 'es-ES' : 'en-AU', { timeStyle: 'medium', timeZone });
  return (
    <>
      <section className="card stack" aria-labelledby="inside-title">
        <h2 id="inside-title">{t('console.dashboard.inside_title')}</h2>
        <p className="muted" data-testid="inside-updated">
          {t('console.dashboard.inside_updated', { at: at.format(updatedAt).toUpperCase() })}
        </p>
        {inside.length === 0 ? (
          <p data-testid="inside-none">{t('console.dashboard.inside_none')}</p>
        ) : (
          <dl className="stats">
            {inside.map((z) => (
              <div key={z.zone ?? ''} className="stat">
                <dt>{z.zone ?? t('console.dashboard.general_doors')}</dt>
                <dd data-testid={`inside-${z.zone ?? 'general'}`}>{number.format(z.inside)}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      <section className="stack" aria-labelledby="days-title">
        <h2 id="days-title">{t('console.dashboard.days_title')}</h2>
        {counts.entriesByDay.length === 0 ? (
          <p data-testid="days-none">{t('console.dashboard.days_none')}</p>
        ) : (
          <TableRegion label={t('console.dashboard.days_title')} card>
            <table>
              <TableHead columns={[t('console.dashboard.day'), t('console.dashboard.entries')]} />
              <tbody>
                {counts.entriesByDay.map((d) => (
                  <tr key={d.day}>
                    <td>{dayLabel(d.day, lang)}</td>
                    <td data-label={t('console.dashboard.entries')} data-testid={`entries-${d.day}`}>
                      {number.format(d.entries)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </section>
    </>
  );
}
