/**
 * One event as an iCalendar file (RFC 5545), shared by the ticket mails' `.ics` attachment (the API) and the
 * panel's "Add to calendar (.ics)" download (built in the browser): issue 23, and issue 41 point 9.
 *
 * What every file holds, whichever side builds it and whatever the zone of the machine that builds it:
 * - DTSTART and DTEND as wall-clock times in the event's own zone (`DTSTART;TZID=Australia/Sydney:…`), computed
 *   in that zone (a `TZDate`), never through the device's local time, so a start in an hour the device's zone skips
 *   stays as the organiser set it; and that zone's VTIMEZONE, from the `vtimezone` generator the caller passes
 *   (the API's and the panel's zone data differ, and the panel must not bundle the API's);
 * - DTSTAMP in UTC (`…Z`, RFC 5545 3.8.7.2);
 * - no calendar-level `TIMEZONE-ID` (ical-generator writes one when the calendar has a zone name; RFC 5545 has no
 *   such property): `X-WR-TIMEZONE`, the extension calendars read, names the zone instead;
 * - CRLF after every content line, the last (`END:VCALENDAR`) too (RFC 5545 3.1).
 *
 * Import it as `@tp/contract/calendar` (not from the package's index): only the code that builds a file loads
 * ical-generator.
 */
import { TZDate } from '@date-fns/tz';
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';

/** What a calendar entry says about an event. */
export interface IcsEvent {
  /** Stable across versions of the same entry, so a calendar updates it instead of adding another. */
  uid: string;
  /** The entry's title, e.g. "Harbour Lights Festival · VIP". */
  summary: string;
  /** The start and end instants (a Date, or an ISO 8601 string with its offset, e.g. the API's `…Z`). */
  startsAt: Date | string;
  endsAt: Date | string;
  /** IANA zone of the event, e.g. `Australia/Sydney`: the zone DTSTART and DTEND are written in. */
  timeZone: string;
  /** The place as one line (venue, address, city). */
  location: string;
  /** Free text; `\n` starts a new line. */
  description: string;
  /** A link to the ticket (URL property), when there is one. */
  url?: string;
  /** When this version was made (DTSTAMP, written in UTC); a later one supersedes an earlier one. */
  stamp: Date;
  /** Increases when the event changes (time or place), so calendars take the new version. Default 0. */
  sequence?: number;
  /**
   * The calendar's METHOD (RFC 5546): `PUBLISH` for a mail's entry, `CANCEL` to withdraw it (also writes
   * `STATUS:CANCELLED`); left out for a plain download.
   */
  method?: 'PUBLISH' | 'CANCEL';
}

/** How the caller's side writes files. */
export interface IcsOptions {
  /** PRODID's parts, e.g. `{ company: 'Ticket Panel', product: 'My tickets' }`. */
  prodId: { company: string; product: string };
  /** The VTIMEZONE component (`BEGIN:VTIMEZONE…END:VTIMEZONE`) of an IANA zone; null for a zone it does not know. */
  vtimezone: (zone: string) => string | null;
}

/**
 * The text of an `.ics` file with one event (see the module's notes for what it guarantees).
 * @returns the file's text, CRLF line ends, ending with `END:VCALENDAR\r\n`
 */
export function icsText(e: IcsEvent, opts: IcsOptions): string {
  const cal = ical({ prodId: opts.prodId });
  if (e.method) cal.method(e.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.PUBLISH);
  // No calendar-level zone name: ical-generator would write it as `TIMEZONE-ID` and also format DTSTAMP in the
  // device's local time without `Z`. The generator still adds the VTIMEZONE of the event's own zone.
  cal.timezone({ name: '', generator: opts.vtimezone });
  cal.x('X-WR-TIMEZONE', e.timeZone);
  const event = cal.createEvent({
    id: e.uid,
    sequence: e.sequence ?? 0,
    start: new TZDate(new Date(e.startsAt).getTime(), e.timeZone),
    end: new TZDate(new Date(e.endsAt).getTime(), e.timeZone),
    timezone: e.timeZone,
    stamp: e.stamp,
    summary: e.summary,
    location: e.location,
    description: e.description,
    ...(e.url !== undefined && { url: e.url }),
  });
  if (e.method === 'CANCEL') event.status(ICalEventStatus.CANCELLED);
  return `${cal.toString()}\r\n`;
}
