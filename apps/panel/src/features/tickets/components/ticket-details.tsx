/**
 * The ticket page's details (spec section 2 Ticket page): live badge and ticket name, the event's name, its dates
 * in the event's time zone, place with a map link, what a pass with entry rules admits (issue 48: days, zones, inside
 * since; ui/entry-summary.tsx, loaded lazily), "Add to calendar" (issue 23; not for a cancelled event) and the wallet badges when the
 * operator configured a wallet (issue 22, ui/wallet-buttons.tsx, loaded lazily).
 */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyTicket } from '@tp/contract';
import { usePanelConfig } from '../../../lib/queries';
import { formatRange } from '../../../lib/format';
import { Badge } from '../../../ui/bits';
import { CalendarIcon, PinIcon } from '../../../ui/icons';
import { AddToCalendar } from './add-to-calendar';
import { eventPlace } from './event-place';

/**
 * What a pass with entry rules admits (issue 48), its code and texts loaded only for such a ticket. Declared here, not
 * in a shared module: a chunk of its own would add its name to the app start's preload list (the LOGIN budget).
 */
const LazyEntrySummary = lazy(() => import('../../../ui/entry-summary').then((m) => m.withTexts()));

/** The wallet badges (decision 029), loaded only when the operator configured a wallet. */
const WalletButtons = lazy(() => import('../../../ui/wallet-buttons'));

/** The ticket's header; its `h1` has the id `ticket-title` that labels the page. */
export function TicketDetails({ tk }: { tk: MyTicket }) {
  const { t } = useTranslation();
  const config = usePanelConfig();
  const { place, mapUrl } = eventPlace(tk);
  return (
    <header className="stack-sm">
      <div className="row-wrap">
        {tk.isLive && <Badge tone="live">{t('tickets.live')}</Badge>}
        <span className="muted">{tk.ticketName}</span>
      </div>
      <h1 id="ticket-title" className="screen-title">
        {tk.eventName}
      </h1>
      <p className="icon-line">
        <CalendarIcon />
        {formatRange(tk.eventStartDateTime, tk.eventEndDateTime, tk.eventTimeZone)}
      </p>
      <p className="icon-line">
        <PinIcon />
        <span>
          {place} ·{' '}
          <a href={mapUrl} target="_blank" rel="noopener noreferrer">
            {t('ticket.map')}
          </a>
        </span>
      </p>
      {tk.entryRules && (
        <Suspense fallback={null}>
          <p className="ticket-entry">
            <LazyEntrySummary ticket={{ ...tk, entryRules: tk.entryRules }} />
          </p>
        </Suspense>
      )}
      {/* A cancelled show is not offered for a calendar: its holders' calendars got the cancellation (decision 045). */}
      {!tk.eventCancelled && <AddToCalendar ticket={tk} />}
      {(config?.wallets?.apple || config?.wallets?.google) && (
        <Suspense fallback={null}>
          <WalletButtons userTicketId={tk.userTicketId} timeZone={tk.eventTimeZone} />
        </Suspense>
      )}
    </header>
  );
}
