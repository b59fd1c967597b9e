/**
 * One event's view (its form with its refund policy below, dashboard, exchange queue, ticket types or a ticket type's
 * form), the event read by its id (`useEvent`: from the lists already loaded, else GET /org/events/{externalId} on a
 * reload or a link).
 */
import { QueryState } from '../../query-state';
import { goUp, type ConsoleRoute } from '../../routing';
import { Dashboard } from './dashboard';
import { useEvent } from '../api/event.api';
import { BackRow } from './back-row';
import { EventForm } from './event-form';
import { ExchangeView } from './exchange-view';
import { RefundPolicyBox } from './refund-policy-box';
import { TicketTypes } from './ticket-types';

export type EventsRoute = Extract<ConsoleRoute, { screen: 'events' }>;
/** The events list's route, where a view goes back to. */
export const LIST: ConsoleRoute = { screen: 'events' };

export function EventView({ route }: { route: Extract<EventsRoute, { event: string }> }) {
  const id = route.event;
  const found = useEvent(id);
  if (!found.data)
    return (
      <section className="stack">
        <BackRow onBack={() => goUp(LIST)} />
        <QueryState query={found} />
      </section>
    );
  const event = { ...found.data, externalId: id };
  if (route.view === 'edit')
    return (
      <section className="stack">
        <EventForm event={event} onDone={() => goUp(LIST)} />
        <RefundPolicyBox event={event} />
      </section>
    );
  if (route.view === 'dashboard') return <Dashboard event={event} onBack={() => goUp(LIST)} />;
  if (route.view === 'exchange') return <ExchangeView event={event} onBack={() => goUp(LIST)} />;
  return (
    <TicketTypes event={event} type={route.view === 'ticket-type' ? route.type : undefined} onBack={() => goUp(LIST)} />
  );
}
