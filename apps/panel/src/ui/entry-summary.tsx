/**
 * What a pass with entry rules admits (issue 48, `MyTicket.entryRules` and `scans`, read through the contract's
 * `entryView`), on the ticket page, its card and the QR screen:
 * its days as weekday and date with the ones it entered on marked ("Fri 10 ✓ used · Sat 11 · Sun 12"), its zones
 * ("Zones: VIP · Backstage"), and since when it is inside ("Inside since 14:02", event time) or else how often it
 * admits. Its texts are the `entry` feature catalogue, loaded with this module (`withTexts`), so a holder with no
 * such ticket loads neither.
 */
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyTicket } from '@tp/contract';
import { scansOf } from '@tp/contract/admission';
import { entryView, type EntryRules } from '@tp/contract/entry-rules';
import { formatEntryDay, formatTimeOfDay } from '../lib/format';
import { loadCatalogue } from '../lib/feature-catalogues';
import './entry-summary.css';

/** A ticket with entry rules: its rules, recorded scans, first use and event time zone. */
export type RuledTicket = Pick<MyTicket, 'scans' | 'eventAccessUsedOn' | 'eventTimeZone'> & { entryRules: EntryRules };

/**
 * The summary of `ticket`. A ticket used before scans were recorded (no scans, a first use) entered once at its first
 * use, as the door reads it (contract `scansOf`); times are in the event's time zone.
 */
export function EntrySummary({ ticket }: { ticket: RuledTicket }) {
  const { t } = useTranslation();
  const timeZone = ticket.eventTimeZone;
  const history = scansOf(
    { scans: ticket.scans?.length ? ticket.scans : undefined, usedAt: ticket.eventAccessUsedOn },
    timeZone,
  );
  const entry = entryView(ticket.entryRules, history);
  return (
    <span className="entry-summary" data-testid="entry-summary" aria-label={t('entry.label')}>
      {entry.days && (
        <span className="entry-summary__days" data-testid="entry-days">
          {entry.days.map((d, i) => (
            <Fragment key={d.day}>
              {i > 0 && ' · '}
              <span className={d.used ? 'entry-summary__day entry-summary__used' : 'entry-summary__day'}>
                {formatEntryDay(d.day)}
                {d.used && ` ✓ ${t('entry.used')}`}
              </span>
            </Fragment>
          ))}
        </span>
      )}
      {entry.zones && <span data-testid="entry-zones">{t('entry.zones', { zones: entry.zones.join(' · ') })}</span>}
      <span data-testid="entry-state" className={entry.insideSince ? 'entry-summary__inside' : undefined}>
        {entry.insideSince
          ? t('entry.inside_since', { time: formatTimeOfDay(entry.insideSince, timeZone) })
          : t(`entry.${entry.entries}`)}
      </span>
    </span>
  );
}

/** The module for `lazy`: resolves once the `entry` catalogue is in i18next. */
export const withTexts = () => loadCatalogue('entry').then(() => ({ default: EntrySummary }));
