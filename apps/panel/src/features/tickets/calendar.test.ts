/**
 * "Add to calendar" (issue 23): the .ics file holds the event's start and end as wall-clock times in the event's
 * time zone with that zone's VTIMEZONE, whatever the device's zone; the Google link carries the exact instants
 * in UTC and the zone to show them in.
 */
import { describe, expect, it } from 'vitest';
import { aTicket } from '../../test/fixtures';
import { calendarEntry, googleCalendarUrl } from './calendar';
import { calendarFile, wallTime } from './calendar-file';

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
  it('wall-clock time in the event zone, across a daylight-saving change', () => {
    expect(wallTime('2026-12-05T09:00:00.000Z', 'Australia/Sydney')).toBe('2026-12-05T20:00:00');
    expect(wallTime('2026-06-05T09:00:00.000Z', 'Australia/Sydney')).toBe('2026-06-05T19:00:00');
    expect(wallTime('2026-12-05T23:30:00.000Z', 'Pacific/Auckland')).toBe('2026-12-06T12:30:00');
  });

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
