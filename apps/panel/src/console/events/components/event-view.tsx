/**
 * One event's view (its form, dashboard, exchange queue, ticket types or a ticket type's form), the event read by its id
 * (`useEvent`: from the lists already loaded, else GET /org/events/{externalId} on a reload or a link). The form's view
 * has the refund policy (refund-policy-box.tsx) and the "Cancel event" action (cancel-event.tsx) under it (issue 46); a
 * cancelled event's views say so atop, and its form's view has neither the form nor the cancel action (a cancelled
 * event cannot change), but keeps the refund policy (`on_cancel` is set after a cancel too).
 */
import { QueryState } from '../../query-state';
import { goUp, type ConsoleRoute } from '../../routing';
import { Dashboard } from './dashboard';
import { useEvent } from '../api/event.api';
import { BackRow } from './back-row';
import { CancelEvent, Cancelled } from './cancel-event';
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
        {event.cancelledAt ? (
          <>
            <BackRow onBack={() => goUp(LIST)}>
              <h1>{event.name}</h1>
            </BackRow>
            <Cancelled event={event} />
          </>
        ) : (
          <EventForm event={event} onDone={() => goUp(LIST)} />
        )}
        <RefundPolicyBox event={event} />
        <CancelEvent event={event} />
      </section>
    );
  return (
    <section className="stack">
      <Cancelled event={event} />
      {route.view === 'dashboard' ? (
        <Dashboard event={event} onBack={() => goUp(LIST)} />
      ) : route.view === 'exchange' ? (
        <ExchangeView event={event} onBack={() => goUp(LIST)} />
      ) : (
        <TicketTypes
          event={event}
          type={route.view === 'ticket-type' ? route.type : undefined}
          onBack={() => goUp(LIST)}
        />
      )}
    </section>
  );
}
