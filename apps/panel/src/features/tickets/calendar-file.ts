/**
 * The .ics file of a calendar entry (issue 23), loaded only when the holder asks for it: ical-generator writes the
 * event with DTSTART/DTEND in the event's time zone (`TZID=`), and timezones-ical-library gives that zone's
 * VTIMEZONE, so every calendar shows the start the organiser set, wherever the holder is.
 */
import ical from 'ical-generator';
import { tzlib_get_ical_block } from 'timezones-ical-library';
import type { CalendarEntry } from './calendar';

/**
 * The iCalendar text (RFC 5545) of one event.
 * @param e the entry (instants in UTC, IANA `timeZone`)
 * @param uid a stable id of the entry, so importing it again updates rather than duplicates it
 */
export function calendarFile(e: CalendarEntry, uid: string): string {
  const cal = ical({
    prodId: { company: 'Ticket Panel', product: 'My tickets' },
    timezone: { name: e.timeZone, generator: (tz) => tzlib_get_ical_block(tz)[0] },
  });
  cal.createEvent({
    id: uid,
    start: wallTime(e.start, e.timeZone),
    end: wallTime(e.end, e.timeZone),
    timezone: e.timeZone,
    stamp: new Date(),
    summary: e.title,
    location: e.location,
    description: e.details,
  });
  return cal.toString();
}

/**
 * The wall-clock time of an instant in a time zone, as `YYYY-MM-DDTHH:mm:ss` without an offset (what the iCal
 * library writes after `TZID=`).
 */
export function wallTime(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
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
