/**
 * What the pass admits, on the QR screen (issue 20 point 6): each event of today (or the next ones) with its date
 * in the event's time zone, venue, and its tickets counted by type (admits/admitted-events.ts); tickets returned to
 * the exchange queue are named apart, as not admitting (issue 45: "the QR screen and the door say why"); a cancelled
 * event (issue 46) says so, with the organiser's words, in place of its tickets; a ticket type with entry rules
 * (issue 48) says what it admits: its days, zones and since when inside (ui/entry-summary.tsx, loaded lazily).
 */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRange } from '../../../lib/format';
import type { AdmittedEvent } from '../admits/admitted-events';

/**
 * What a pass with entry rules admits (issue 48), its code and texts loaded only for such a ticket. Declared here, not
 * in a shared module: a chunk of its own would add its name to the app start's preload list (the LOGIN budget).
 */
const LazyEntrySummary = lazy(() => import('../../../ui/entry-summary').then((m) => m.withTexts()));

/** The admitted events' list, or a line saying there are none. */
export function PassAdmits({ events }: { events: AdmittedEvent[] }) {
  const { t } = useTranslation();
  return (
    <section className="pass-admits" aria-label={t('pass.admits')}>
      {events.length === 0 ? (
        <p className="qr-box__hint">{t('pass.no_events')}</p>
      ) : (
        <ul>
          {events.map((e) => (
            <li key={e.key} className="pass-admits__event">
              <strong className="pass-admits__name">{e.eventName}</strong>
              <span>{formatRange(e.eventStartDateTime, e.eventEndDateTime, e.eventTimeZone)}</span>
              <span>
                {e.eventVenue}, {e.eventCity}
              </span>
              {e.count > 0 && (
                <span className="pass-admits__tickets">
                  {t('pass.tickets', { count: e.count })}:{' '}
                  {e.types.map((ty) => t('pass.type_count', { count: ty.count, name: ty.name })).join(', ')}
                </span>
              )}
              {e.entries.length > 0 && (
                <Suspense fallback={null}>
                  {e.entries.map((x) => (
                    <span key={x.key} className="pass-admits__entry" data-testid="pass-entry">
                      <strong>{x.ticket.ticketName}</strong>
                      <LazyEntrySummary ticket={x.ticket} />
                    </span>
                  ))}
                </Suspense>
              )}
              {e.cancelled && (
                <span className="pass-admits__returned" data-testid="pass-cancelled">
                  {t('ticket.cancelled')}
                </span>
              )}
              {e.cancelled?.reason != null && (
                <span className="pass-admits__tickets">{t('ticket.cancelled_by', { reason: e.cancelled.reason })}</span>
              )}
              {e.returned > 0 && !e.cancelled && (
                <span className="pass-admits__returned" data-testid="pass-returned">
                  {t('pass.returned', { count: e.returned })}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
