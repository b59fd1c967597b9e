/**
 * "Add to calendar" (issue 23): the .ics file holds the event's start and end as wall-clock times in the event's
 * time zone with that zone's VTIMEZONE, whatever the device's zone; the Google link carries the exact instants
 * in UTC and the zone to show them in.
 */
import ICAL from 'ical.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { aTicket } from '../../test/fixtures';
import { calendarEntry, googleCalendarUrl } from './calendar';
import { calendarFile } from './calendar-file';

// 09:00 UTC on 5 December 2026 is 20:00 in Sydney (daylight saving, UTC+11).
const tk = aTicket(41, {
  eventName: 'Harbour Lights Festival',
  ticketName: 'VIP',
  eventVenue: 'The Domain',
  eventAddress1: '1 Art Gallery Rd',
  eventCity: 'Sydney',
  eventStartDateTime: '2026-12-05T09:00:00.000Z',
  eventEndDateTime: '2026-12-05T13:30:00.000Z',
  eventTimeZone: 'Australia/Sydney',
});
const entry = calendarEntry(tk, 'Ticket #41', 'https://tickets.example/en/?PANEL_TAB=TICKET&USER_TICKET_ID=41');

describe('calendar entry', () => {
  it('the .ics file: the start and end in the event zone, its VTIMEZONE, title, place and ticket number', () => {
    const ics = calendarFile(entry, 'ticket-41@tickets.example').replace(/\r\n /g, '');
    const lines = ics.split(/\r?\n/);
    expect(lines).toContain('DTSTART;TZID=Australia/Sydney:20261205T200000');
    expect(lines).toContain('DTEND;TZID=Australia/Sydney:20261206T003000');
    expect(lines).toContain('UID:ticket-41@tickets.example');
    expect(lines).toContain('SUMMARY:Harbour Lights Festival · VIP');
    expect(lines).toContain('LOCATION:The Domain\\, 1 Art Gallery Rd\\, Sydney');
    expect(ics).toMatch(/BEGIN:VTIMEZONE\r?\nTZID:Australia\/Sydney[\s\S]*TZOFFSETTO:\+1100[\s\S]*END:VTIMEZONE/);
    expect(ics).toContain('DESCRIPTION:Ticket #41\\nhttps://tickets.example/en/?PANEL_TAB=TICKET&USER_TICKET_ID=41');
  });

  it('the Google Calendar link: UTC instants, shown in the event zone', () => {
    const url = new URL(googleCalendarUrl(entry));
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('dates')).toBe('20261205T090000Z/20261205T133000Z');
    expect(url.searchParams.get('ctz')).toBe('Australia/Sydney');
    expect(url.searchParams.get('text')).toBe('Harbour Lights Festival · VIP');
    expect(url.searchParams.get('location')).toBe('The Domain, 1 Art Gallery Rd, Sydney');
  });
});

/**
 * Issue 41, point 9 (re-walk): the file as a holder in New York downloads it. The device's zone must not leak into
 * the file: DTSTAMP in UTC (`…Z`, RFC 5545 3.8.7.2), no `TIMEZONE-ID` (not an RFC 5545 property; X-WR-TIMEZONE
 * names the zone), CRLF after every line including `END:VCALENDAR`, and a start that exists in the event's zone
 * but not in the device's (New York's spring-forward hour) kept as the organiser set it. Read with ical.js.
 */
describe('the .ics file in a New York browser', () => {
  const deviceZone = process.env.TZ;
  beforeAll(() => {
    // Node reads TZ at each conversion: from here on local time is New York's (UTC-5 in November).
    process.env.TZ = 'America/New_York';
  });
  afterAll(() => {
    if (deviceZone === undefined) delete process.env.TZ;
    else process.env.TZ = deviceZone;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The file parsed by ical.js with its VTIMEZONE registered. */
  function read(ics: string) {
    const cal = new ICAL.Component(ICAL.parse(ics) as unknown[]);
    ICAL.TimezoneService.register(cal.getFirstSubcomponent('vtimezone')!);
    const vevent = cal.getFirstSubcomponent('vevent')!;
    return { cal, vevent, event: new ICAL.Event(vevent) };
  }

  it('DTSTAMP in UTC, no TIMEZONE-ID, X-WR-TIMEZONE, CRLF after every line', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-28T23:45:15Z'));
    expect(new Date().getHours()).toBe(18); // the clock really is New York's
    const ics = calendarFile(entry, 'ticket-41@tickets.example');
    expect(ics).toMatch(/^DTSTAMP:20261128T234515Z\r$/m);
    expect(ics).not.toMatch(/^TIMEZONE-ID/m);
    expect(ics).toMatch(/^X-WR-TIMEZONE:Australia\/Sydney\r$/m);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);

    const { cal, vevent, event } = read(ics);
    expect(cal.getFirstPropertyValue('timezone-id')).toBeNull();
    const stamp = vevent.getFirstPropertyValue('dtstamp') as ICAL.Time;
    expect(stamp.zone?.tzid).toBe('UTC');
    expect(stamp.toJSDate().toISOString()).toBe('2026-11-28T23:45:15.000Z');
    expect(event.startDate.zone?.tzid).toBe('Australia/Sydney');
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-12-05T09:00:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2026-12-05T13:30:00.000Z');
  });

  it("a start in the hour New York skips (14 March 2027, 02:00-03:00) stays the event zone's 02:30", () => {
    // 02:30 in London on 14 March 2027 (GMT, UTC+0) is a wall time that does not exist in New York that night.
    const london = calendarEntry(
      aTicket(7, {
        eventStartDateTime: '2027-03-14T02:30:00.000Z',
        eventEndDateTime: '2027-03-14T05:00:00.000Z',
        eventTimeZone: 'Europe/London',
      }),
      'Ticket #7',
      'https://tickets.example/en/?PANEL_TAB=TICKET&USER_TICKET_ID=7',
    );
    const ics = calendarFile(london, 'ticket-7@tickets.example');
    expect(ics).toMatch(/^DTSTART;TZID=Europe\/London:20270314T023000\r$/m);
    const { event } = read(ics);
    expect(event.startDate.toJSDate().toISOString()).toBe('2027-03-14T02:30:00.000Z');
  });
});
