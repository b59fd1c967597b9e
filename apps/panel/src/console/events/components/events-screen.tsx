/**
 * Events (issue 21): the organisation's events, upcoming or past; create or edit one by form (event-form.tsx); its
 * ticket types (ticket-types.tsx, ticket-type-form.tsx), its dashboard and its exchange queue (exchange-view.tsx), each at its URL
 * (routing.ts) through the event's view (event-view.tsx).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateRange, langOf } from '@tp/contract/format';
import { Button } from '../../../ui/button';
import { QueryState } from '../../query-state';
import { RowButton } from '../../table-region';
import { goUp, navigate } from '../../routing';
import { useEvents, type EventItem } from '../../events-list.api';
import { EventForm } from './event-form';
import { EventView, LIST, type EventsRoute } from './event-view';
import { TicketTypes } from './ticket-types';

/** The events screen at `route` (routing.ts): the list, the new-event form, or a view of one event. */
export function EventsScreen({ route }: { route: EventsRoute }) {
  const { t } = useTranslation();
  const [when, setWhen] = useState<'upcoming' | 'past'>('upcoming');
  // An event made outside the organisation API (the demo's) has no id of the organiser's, so no URL: its form and
  // its ticket types open in place.
  const [unnamed, setUnnamed] = useState<{ event: EventItem; view: 'edit' | 'ticket-types' } | null>(null);
  const events = useEvents(when);

  if (route.view === 'new') return <EventForm event={null} onDone={() => goUp(LIST)} />;
  if ('event' in route) return <EventView key={route.event} route={route} />;
  if (unnamed?.view === 'edit') return <EventForm event={unnamed.event} onDone={() => setUnnamed(null)} />;
  if (unnamed) return <TicketTypes event={unnamed.event} onBack={() => setUnnamed(null)} />;
  /** The view of an event: its URL, or in place for an event without the organiser's id. */
  const open = (e: EventItem, view: 'edit' | 'ticket-types' | 'dashboard' | 'exchange') => {
    if (e.externalId !== null) navigate({ screen: 'events', event: e.externalId, view });
    else if (view === 'edit' || view === 'ticket-types') setUnnamed({ event: e, view });
  };
  return (
    <section className="stack">
      <div className="row">
        <h1 style={{ marginRight: 'auto' }}>{t('console.events.title')}</h1>
        <Button onClick={() => navigate({ screen: 'events', view: 'new' })}>{t('console.events.new')}</Button>
      </div>
      <div className="row" role="group" aria-label={t('console.events.when')}>
        {(['upcoming', 'past'] as const).map((w) => (
          <Button
            key={w}
            variant={w === when ? 'primary' : 'ghost'}
            className="btn--small"
            aria-pressed={w === when}
            onClick={() => setWhen(w)}
          >
            {t(`console.events.${w}`)}
          </Button>
        ))}
      </div>
      <QueryState query={events} empty={events.data?.items.length === 0} none={t('console.events.none')} />
      <div className="grid">
        {events.data?.items.map((e) => (
          <EventCard key={e.externalId} event={e} open={(view) => open(e, view)} />
        ))}
      </div>
    </section>
  );
}

/**
 * One event of the list: its name (marked when cancelled), dates (in its zone) and place, and the buttons of its views
 * (a cancelled event's without Edit: it cannot change).
 */
function EventCard({
  event: e,
  open,
}: {
  event: EventItem;
  open: (view: 'edit' | 'ticket-types' | 'dashboard' | 'exchange') => void;
}) {
  const { t } = useTranslation();
  const views: ['edit' | 'ticket-types' | 'dashboard' | 'exchange', string][] = [
    ['ticket-types', t('console.events.ticket_types')],
  ];
  if (!e.cancelledAt) views.unshift(['edit', t('console.edit')]);
  if (e.externalId !== null)
    views.push(['dashboard', t('console.events.dashboard')], ['exchange', t('console.events.exchange')]);
  return (
    <article className="card stack">
      <h2>
        {e.name}
        {e.cancelledAt && (
          <>
            {' '}
            <span className="badge badge--warning">{t('console.cancel_event.badge')}</span>
          </>
        )}
      </h2>
      <p className="muted">
        {formatDateRange(e.startsAt, e.endsAt, e.timeZone, langOf(document.documentElement.lang))}
        {' · '}
        {e.venue}, {e.city}
      </p>
      <div className="row">
        {views.map(([view, label]) => (
          <RowButton key={view} label={label} name={e.name} onClick={() => open(view)} />
        ))}
      </div>
    </article>
  );
}
