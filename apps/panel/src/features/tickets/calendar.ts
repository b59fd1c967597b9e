/**
 * "Add to calendar" on the ticket page (issue 23): the event as a calendar entry in the event's own time zone.
 * This module is the light part the ticket page loads with it (the Google Calendar link and the entry's fields);
 * the .ics file is built by `calendar-file.ts`, imported only when the holder asks for it (the contract's `icsText`
 * on ical-generator, with the time zone's VTIMEZONE from timezones-ical-library), so the page's budget holds.
 */
import type { MyTicket } from '@tp/contract';

/** What goes into the calendar: the same in the .ics file and the Google link. */
export interface CalendarEntry {
  /** "Event · Ticket type". */
  title: string;
  /** Venue, street address and city, each left out when empty. */
  location: string;
  /** The ticket number and where the ticket page is. */
  details: string;
  /** ISO 8601 UTC instants (the API's eventStartDateTime / eventEndDateTime). */
  start: string;
  end: string;
  /** IANA time zone of the event (the API's eventTimeZone). */
  timeZone: string;
}

/**
 * The entry for a ticket; `numberText` names its ticket number in the holder's language ("Ticket #41"), `pageUrl` is
 * the ticket page the entry links back to.
 */
export function calendarEntry(tk: MyTicket, numberText: string, pageUrl: string): CalendarEntry {
  return {
    title: `${tk.eventName} · ${tk.ticketName}`,
    location: [tk.eventVenue, tk.eventAddress1, tk.eventCity].filter(Boolean).join(', '),
    details: `${numberText}\n${pageUrl}`,
    start: tk.eventStartDateTime,
    end: tk.eventEndDateTime,
    timeZone: tk.eventTimeZone,
  };
}

/** An instant as iCalendar/Google UTC basic format: 20261205T090000Z. */
const utcBasic = (iso: string) =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * Google Calendar's "create event" link: the exact instants in UTC, shown in the event's time zone (`ctz`).
 */
export function googleCalendarUrl(e: CalendarEntry): string {
  const q = new URLSearchParams({
    action: 'TEMPLATE',
    text: e.title,
    dates: `${utcBasic(e.start)}/${utcBasic(e.end)}`,
    ctz: e.timeZone,
    location: e.location,
    details: e.details,
  });
  return `https://calendar.google.com/calendar/render?${q.toString()}`;
}
