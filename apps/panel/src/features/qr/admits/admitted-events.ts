/**
 * What the pass admits (issue 20 point 6): the holder's upcoming tickets (GET /list/ticket_listing?status=UPCOMING,
 * spec section 7, the TICKETS cache entry My tickets shares) grouped by event, keeping the events of today
 * and otherwise the next ones. "Today" is the event's calendar day in its own time zone. A ticket returned to the
 * exchange queue (issue 45) does not admit: it is counted apart (`returned`), not among the event's tickets; nor does
 * a ticket of a cancelled event (issue 46): the event carries its cancellation (`cancelled`) and counts none. A
 * ticket with entry rules (issue 48) adds what it admits (`entries`), once per ticket type and identical view.
 */
import type { MyTicket } from '@tp/contract';
import type { EntryRules } from '@tp/contract/entry-rules';
import { formatValidUntil } from '../../../lib/format';

/** One event the pass admits: its tickets counted by ticket type, in the order first seen. */
export interface AdmittedEvent {
  key: string;
  eventName: string;
  eventVenue: string;
  eventCity: string;
  /** ISO 8601 UTC. */
  eventStartDateTime: string;
  eventEndDateTime: string;
  /** IANA time zone of the event. */
  eventTimeZone: string;
  isLive: boolean;
  /** Ticket types with how many of each the holder has. */
  types: { name: string; count: number }[];
  /** All tickets of the event that admit. */
  count: number;
  /** Tickets of the event returned to its exchange queue: held, but they do not admit until withdrawn. */
  returned: number;
  /**
   * Its admitting tickets with entry rules (days, zones, inside since: ui/entry-summary.tsx), one per ticket type name
   * with the same rules, scans and first use.
   */
  entries: { key: string; ticket: MyTicket & { entryRules: EntryRules } }[];
  /** The event's cancellation (issue 46) when the organiser cancelled it; then none of its tickets admits. */
  cancelled?: NonNullable<MyTicket['eventCancelled']>;
}

/** True when `startIso` falls on the same calendar day as `now`, both in `timeZone`. */
const sameDay = (startIso: string, now: Date, timeZone: string) =>
  formatValidUntil(startIso, timeZone) === formatValidUntil(now.toISOString(), timeZone);

/**
 * The events of today (live, under way, or starting today in their own time zone) and, when there are
 * none, the next ones (every event on the day of the earliest start still to come).
 * @param tickets the holder's upcoming tickets.
 * @param now the current instant (tests pass one).
 */
export function admittedEvents(tickets: readonly MyTicket[], now: Date = new Date()): AdmittedEvent[] {
  const byEvent = new Map<string, AdmittedEvent>();
  for (const tk of tickets) {
    if (Date.parse(tk.eventEndDateTime) <= now.getTime() && !tk.isLive) continue;
    const key = `${tk.eventName}\u0000${tk.eventStartDateTime}\u0000${tk.eventVenue}`;
    let ev = byEvent.get(key);
    if (!ev) {
      ev = {
        key,
        eventName: tk.eventName,
        eventVenue: tk.eventVenue,
        eventCity: tk.eventCity,
        eventStartDateTime: tk.eventStartDateTime,
        eventEndDateTime: tk.eventEndDateTime,
        eventTimeZone: tk.eventTimeZone,
        isLive: tk.isLive,
        types: [],
        count: 0,
        returned: 0,
        entries: [],
      };
      byEvent.set(key, ev);
    }
    if (tk.eventCancelled) {
      ev.cancelled = tk.eventCancelled;
      continue;
    }
    if (tk.isReturnedToExchange) {
      ev.returned++;
      continue;
    }
    ev.count++;
    if (tk.entryRules) {
      const key = JSON.stringify([tk.ticketName, tk.entryRules, tk.scans, tk.eventAccessUsedOn]);
      if (!ev.entries.some((x) => x.key === key))
        ev.entries.push({ key, ticket: { ...tk, entryRules: tk.entryRules } });
    }
    const type = ev.types.find((t) => t.name === tk.ticketName);
    if (type) type.count++;
    else ev.types.push({ name: tk.ticketName, count: 1 });
  }
  const events = [...byEvent.values()].sort(
    (a, b) => Date.parse(a.eventStartDateTime) - Date.parse(b.eventStartDateTime),
  );
  const today = events.filter(
    (e) =>
      e.isLive ||
      Date.parse(e.eventStartDateTime) <= now.getTime() ||
      sameDay(e.eventStartDateTime, now, e.eventTimeZone),
  );
  if (today.length) return today;
  const next = events[0];
  if (!next) return [];
  const day = formatValidUntil(next.eventStartDateTime, next.eventTimeZone);
  return events.filter((e) => formatValidUntil(e.eventStartDateTime, next.eventTimeZone) === day);
}
