/**
 * The calendar entry of a ticket e-mail (issue 23): an iCalendar (RFC 5545) file by the contract's `icsText`
 * (ical-generator; shared with the panel's "Add to calendar" download), with the event's start and end as wall-clock
 * times in the event's own time zone (`DTSTART;TZID=…`) and that zone's VTIMEZONE (@touch4it/ical-timezones, the
 * API's zone data), so a calendar shows the right hour wherever its owner is. DTSTAMP in UTC, CRLF after every line,
 * no non-standard `TIMEZONE-ID` (issue 41, point 9; checked with ical.js in the tests).
 */
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import { icsText } from '@tp/contract/calendar';

/** What a calendar entry says about an event. */
export interface CalendarEvent {
  /** Stable across mails of the same ticket, so a calendar updates the entry instead of adding another. */
  uid: string;
  name: string;
  startsAt: Date;
  endsAt: Date;
  /** IANA zone, e.g. `Europe/Madrid`. */
  timeZone: string;
  /** The place as one line (venue, address, city). */
  location: string;
  /** A link to the ticket in the panel. */
  url: string;
  description: string;
  /** When this version was made (DTSTAMP); a later one supersedes it. */
  stamp: Date;
  /** Increases when the event changes (time or place), so calendars take the new version. */
  sequence?: number;
  /**
   * True: the entry is withdrawn (`METHOD:CANCEL`, `STATUS:CANCELLED`, RFC 5546 3.2.5), e.g. for a giver once the
   * ticket is someone else's (issue 40 point 11); its `uid` is the entry's and its `sequence` higher than any sent.
   */
  cancelled?: boolean;
}

/** VTIMEZONE components by zone: generating one takes about a millisecond, the zones of a run are few. */
const vtimezones = new Map<string, string | null>();
/** The VTIMEZONE of `zone`, generated once per process (@touch4it/ical-timezones); null for an unknown zone. */
function vtimezoneOf(zone: string): string | null {
  let v = vtimezones.get(zone);
  if (v === undefined) {
    v = getVtimezoneComponent(zone) ?? null;
    vtimezones.set(zone, v);
  }
  return v;
}

/** The `.ics` attachment's content type. */
export const ICS_CONTENT_TYPE = 'text/calendar; charset=utf-8; method=PUBLISH';
/** The content type of an `.ics` that withdraws an entry (`cancelled`). */
export const ICS_CANCEL_CONTENT_TYPE = 'text/calendar; charset=utf-8; method=CANCEL';

/**
 * One event as an `.ics` file (UTF-8): published, or withdrawn when `e.cancelled` (issue 40 point 11). Written by
 * the contract's `icsText`, the builder the panel's download shares.
 * @returns the file's bytes
 */
export function calendarFile(e: CalendarEvent): Buffer {
  const text = icsText(
    {
      uid: e.uid,
      summary: e.name,
      startsAt: e.startsAt,
      endsAt: e.endsAt,
      timeZone: e.timeZone,
      location: e.location,
      description: e.description,
      url: e.url,
      stamp: e.stamp,
      sequence: e.sequence ?? 0,
      method: e.cancelled ? 'CANCEL' : 'PUBLISH',
    },
    { prodId: { company: 'ticket-panel', product: 'mail' }, vtimezone: vtimezoneOf },
  );
  return Buffer.from(text, 'utf8');
}
