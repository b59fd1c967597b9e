/**
 * A My-tickets card (spec section 2 My tickets): logo, name, city, venue, date range, how far the start is
 * (hours under a day, else calendar days in the event's zone: issue 40), a live, cancelled or new date (issue 46) badge and the used/total count of
 * event access and benefits; what a pass with entry rules admits (issue 48, ui/entry-summary.tsx, loaded lazily); and
 * the ticket number, which tells tickets of the same event and type apart (issue 23).
 */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyTicket } from '@tp/contract';
import { formatRange, assetUrl, startsIn, ticketNumber } from '../../../lib/format';
import { Badge } from '../../../ui/bits';
import { Thumb } from '../../../ui/thumb';
import { ChevronIcon } from '../../../ui/icons';

/**
 * What a pass with entry rules admits (issue 48), its code and texts loaded only for such a ticket. Declared here, not
 * in a shared module: a chunk of its own would add its name to the app start's preload list (the LOGIN budget).
 */
const LazyEntrySummary = lazy(() => import('../../../ui/entry-summary').then((m) => m.withTexts()));

export function TicketCard(props: { ticket: MyTicket; onOpen: () => void; assetsBaseUrl?: string; now?: Date }) {
  const { t } = useTranslation();
  const tk = props.ticket;
  const number = t('tickets.number', { number: ticketNumber(tk.userTicketId) });
  const when = tk.isLive ? t('tickets.live_now') : startsIn(tk.eventStartDateTime, tk.eventTimeZone, props.now);
  return (
    <li>
      <button
        type="button"
        className="ticket-card"
        onClick={props.onOpen}
        aria-label={`${tk.eventName}, ${tk.ticketName}, ${number}`}
      >
        <Thumb src={assetUrl(tk.ticketLogo ?? tk.eventLogo, props.assetsBaseUrl)} size={64} />
        <span className="ticket-card__body">
          <span className="ticket-card__top">
            <span className="ticket-card__name">{tk.eventName}</span>
            {tk.isLive && <Badge tone="live">{t('tickets.live')}</Badge>}
            {tk.eventCancelled && <Badge tone="used">{t('tickets.cancelled')}</Badge>}
            {tk.eventRescheduled && !tk.eventCancelled && <Badge tone="used">{t('tickets.new_date')}</Badge>}
          </span>
          <span className="ticket-card__type">
            {/* The dot stays with the type when the number wraps to the next line. */}
            {tk.ticketName}&nbsp;· <span className="ticket-card__number">{number}</span>
          </span>
          <span className="ticket-card__meta">
            {tk.eventCity} · {tk.eventVenue}
          </span>
          <span className="ticket-card__meta">
            {formatRange(tk.eventStartDateTime, tk.eventEndDateTime, tk.eventTimeZone)}
          </span>
          {tk.entryRules && (
            <Suspense fallback={null}>
              <span className="ticket-card__meta">
                <LazyEntrySummary ticket={{ ...tk, entryRules: tk.entryRules }} />
              </span>
            </Suspense>
          )}
          <span className="ticket-card__foot">
            <span className="ticket-card__when">{when}</span>
            <span className="ticket-card__count" title={t('tickets.used_count_title')}>
              {t('tickets.used_count', { used: tk.totalBenefitUsedCount, total: tk.totalBenefitCount })}
            </span>
          </span>
        </span>
        <ChevronIcon />
      </button>
    </li>
  );
}
