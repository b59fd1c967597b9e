/**
 * The .ics file of a calendar entry (issue 23), loaded only when the holder asks for it: the contract's `icsText`
 * (ical-generator, the builder the ticket mails share) writes the event with DTSTART/DTEND in the event's time zone
 * (`TZID=`), and timezones-ical-library gives that zone's VTIMEZONE, so every calendar shows the start the organiser
 * set, wherever the holder is. DTSTAMP in UTC, no `TIMEZONE-ID`, CRLF after every line (issue 41, point 9).
 */
import { icsText } from '@tp/contract/calendar';
import { tzlib_get_ical_block } from 'timezones-ical-library';
import type { CalendarEntry } from './calendar';

/**
 * The iCalendar text (RFC 5545) of one event, DTSTAMP the current instant in UTC.
 * @param e the entry (instants in UTC, IANA `timeZone`)
 * @param uid a stable id of the entry, so importing it again updates rather than duplicates it
 */
export function calendarFile(e: CalendarEntry, uid: string): string {
  return icsText(
    {
      uid,
      summary: e.title,
      startsAt: e.start,
      endsAt: e.end,
      timeZone: e.timeZone,
      location: e.location,
      description: e.details,
      stamp: new Date(),
    },
    {
      prodId: { company: 'Ticket Panel', product: 'My tickets' },
      vtimezone: (tz) => tzlib_get_ical_block(tz)[0] ?? null,
    },
  );
}

/** A file name from the event's name: letters, digits and dashes. */
const fileName = (eventName: string) =>
  `${
    eventName
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .toLowerCase() || 'event'
  }.ics`;

/** Builds the file and hands it to the browser as a download named after the event. */
export function downloadCalendarFile(e: CalendarEntry, uid: string, eventName: string): void {
  const url = URL.createObjectURL(new Blob([calendarFile(e, uid)], { type: 'text/calendar;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName(eventName);
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
