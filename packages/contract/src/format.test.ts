import { describe, expect, it } from 'vitest';
import {
  formatAt,
  formatDateRange,
  formatDateTime,
  formatEventDateTime,
  formatLocalDay,
  formatLocalDays,
  formatRelativeStart,
  formatTime,
} from './format.js';

// The viewer sits in Sydney on 28 Nov 2026 unless a test says otherwise.
const SYD = 'Australia/Sydney';
const HERE = { timeZone: SYD, now: new Date('2026-11-28T01:00:00Z') };
// 2026-11-28T13:30Z is Sun 29 Nov 00:30 in Sydney (AEDT, UTC+11); 19:00Z is 06:00 there.
const NIGHT_START = '2026-11-28T13:30:00Z';
const NIGHT_END = '2026-11-28T19:00:00Z';

describe('formatDateTime (issue 40 point 4: one formatter that knows both time zones)', () => {
  it('writes "12:30 AM" with a space in English and the 24-hour clock in Spanish', () => {
    expect(formatDateTime(NIGHT_START, SYD, 'en', HERE)).toBe('Sun, 29 Nov, 12:30 AM');
    expect(formatDateTime(NIGHT_START, SYD, 'es', HERE)).toBe('dom, 29 nov 00:30');
    expect(formatDateTime('2026-12-01T08:00:00Z', SYD, 'en', HERE)).toBe('Tue, 01 Dec, 7:00 PM');
    expect(formatDateTime('2026-12-01T08:00:00Z', SYD, 'es', HERE)).toBe('mar, 1 dic 19:00');
  });

  it('shows the year only when it is not the current year, counted in the event zone', () => {
    expect(formatDateTime('2027-03-06T08:00:00Z', SYD, 'en', HERE)).toBe('Sat, 06 Mar 2027, 7:00 PM');
    expect(formatDateTime('2027-03-06T08:00:00Z', SYD, 'es', HERE)).toBe('sáb, 6 mar 2027 19:00');
    // 31 Dec 14:00 UTC is already 1 Jan 2027 in Sydney.
    expect(formatDateTime('2026-12-31T14:00:00Z', SYD, 'en', HERE)).toBe('Fri, 01 Jan 2027, 1:00 AM');
    expect(formatDateTime('2026-12-31T12:00:00Z', SYD, 'es', HERE)).toBe('jue, 31 dic 23:00');
  });

  it("names the event's zone when it differs from the viewer's, not when it reads the same", () => {
    const madrid = { ...HERE, timeZone: 'Europe/Madrid' };
    expect(formatDateTime(NIGHT_START, SYD, 'en', madrid)).toBe('Sun, 29 Nov, 12:30 AM AEDT');
    expect(formatDateTime(NIGHT_START, SYD, 'es', madrid)).toBe('dom, 29 nov 00:30 GMT+11');
    // Melbourne keeps Sydney's clock: no zone name.
    const melbourne = { ...HERE, timeZone: 'Australia/Melbourne' };
    expect(formatDateTime(NIGHT_START, SYD, 'en', melbourne)).toBe('Sun, 29 Nov, 12:30 AM');
    expect(formatDateTime(NIGHT_START, 'Pacific/Auckland', 'en', HERE)).toBe('Sun, 29 Nov, 2:30 AM NZDT');
  });
});

describe('formatDateRange (formatRange: the day once for a same-night event)', () => {
  it('names the day once when both ends fall on one day', () => {
    expect(formatDateRange(NIGHT_START, NIGHT_END, SYD, 'en', HERE)).toBe('Sun, 29 Nov, 12:30 – 6:00 AM');
    expect(formatDateRange(NIGHT_START, NIGHT_END, SYD, 'es', HERE)).toBe('dom, 29 nov 00:30–06:00');
  });

  it('names both days across midnight, with the zone once when the viewer is elsewhere', () => {
    const start = '2026-11-28T08:00:00Z'; // Sat 19:00 Sydney
    const end = '2026-11-28T15:00:00Z'; // Sun 02:00 Sydney
    expect(formatDateRange(start, end, SYD, 'en', HERE)).toBe('Sat, 28 Nov, 7:00 PM – Sun, 29 Nov, 2:00 AM');
    expect(formatDateRange(start, end, SYD, 'es', HERE)).toBe('sáb, 28 nov 19:00 – dom, 29 nov 02:00');
    const london = { ...HERE, timeZone: 'Europe/London' };
    expect(formatDateRange(NIGHT_START, NIGHT_END, SYD, 'en', london)).toBe('Sun, 29 Nov, 12:30 – 6:00 AM AEDT');
  });

  it('shows the year when either end is in another year', () => {
    expect(formatDateRange('2026-12-31T09:00:00Z', '2026-12-31T15:00:00Z', SYD, 'en', HERE)).toBe(
      'Thu, 31 Dec 2026, 8:00 PM – Fri, 01 Jan 2027, 2:00 AM',
    );
  });
});

describe('formatAt (a time inside a sentence)', () => {
  it('takes "a las" in Spanish and the same year and zone rules', () => {
    expect(formatAt('2026-11-25T10:53:00Z', SYD, 'es', HERE)).toBe('mié, 25 nov a las 21:53');
    expect(formatAt('2026-11-25T10:53:00Z', SYD, 'en', HERE)).toBe('Wed, 25 Nov, 9:53 PM');
    expect(formatAt('2025-11-25T10:53:00Z', SYD, 'es', { ...HERE, timeZone: 'UTC' })).toBe(
      'mar, 25 nov 2025 a las 21:53 GMT+11',
    );
  });
});

describe('formatRelativeStart (Intl.RelativeTimeFormat; hours under a day, else calendar days in the event zone)', () => {
  const now = new Date('2026-11-28T12:00:00Z'); // Sat 23:00 in Sydney
  it('says "In 1 hour", not "In 1 day", for an event an hour away', () => {
    expect(formatRelativeStart('2026-11-28T13:00:00Z', SYD, 'en', { now })).toBe('In 1 hour');
    expect(formatRelativeStart('2026-11-28T13:00:00Z', SYD, 'es', { now })).toBe('Dentro de 1 hora');
    expect(formatRelativeStart('2026-11-28T12:45:00Z', SYD, 'es', { now })).toBe('Dentro de 45 minutos');
  });

  it('counts calendar days in the event zone past a day: tomorrow, in N days, yesterday', () => {
    // Mon 30 Nov 00:30 in Sydney: two calendar days there (one in UTC).
    expect(formatRelativeStart('2026-11-29T13:30:00Z', SYD, 'en', { now })).toBe('In 2 days');
    expect(formatRelativeStart('2026-11-29T13:30:00Z', SYD, 'es', { now })).toBe('Pasado mañana');
    const morning = new Date('2026-11-27T21:00:00Z'); // Sat 08:00 in Sydney; Sun 19:00 is 35 hours on
    expect(formatRelativeStart('2026-11-29T08:00:00Z', SYD, 'en', { now: morning })).toBe('Tomorrow');
    expect(formatRelativeStart('2026-11-29T08:00:00Z', SYD, 'es', { now: morning })).toBe('Mañana');
    expect(formatRelativeStart('2026-12-02T08:00:00Z', SYD, 'es', { now })).toBe('Dentro de 4 días');
    expect(formatRelativeStart('2026-11-27T08:00:00Z', SYD, 'en', { now })).toBe('Yesterday');
    expect(formatRelativeStart('2026-11-20T08:00:00Z', SYD, 'es', { now })).toBe('Hace 8 días');
    expect(formatRelativeStart('2026-11-28T09:00:00Z', SYD, 'en', { now })).toBe('3 hours ago');
  });
});

describe('formatEventDateTime (mails, pages, PDF: reader zone unknown, so year and zone always)', () => {
  it('writes "PM" as the cards do in English and keeps the Spanish long form', () => {
    expect(formatEventDateTime('en', '2026-03-14T08:30:00Z', SYD)).toBe('Saturday 14 March 2026 at 7:30 PM AEDT');
    expect(formatEventDateTime('es', '2026-03-14T08:30:00Z', SYD)).toBe('sábado, 14 de marzo de 2026, 19:30 GMT+11');
  });
});

describe("formatTime (issue 43: the console dashboard's busiest 5 minutes, through the one formatter)", () => {
  it('writes the time of day in the zone: "12:30 AM" in English, "00:30" on the 24-hour clock in Spanish', () => {
    expect(formatTime(NIGHT_START, SYD, 'en')).toBe('12:30 AM');
    expect(formatTime(NIGHT_START, SYD, 'es')).toBe('00:30');
    expect(formatTime('2026-12-01T08:05:00Z', SYD, 'en')).toBe('7:05 PM');
    expect(formatTime('2026-12-01T08:05:00Z', 'UTC', 'es')).toBe('08:05');
  });
});

describe('formatLocalDay(s) (issue 48: the days an entry rule admits on, for the holder and the door)', () => {
  it('writes the short weekday and the day of an event-local date, whatever the device zone', () => {
    expect(formatLocalDay('2027-07-09', 'en')).toBe('Fri 9');
    expect(formatLocalDay('2027-07-10', 'es')).toBe('sáb 10');
  });
  it('writes runs of consecutive days by their ends, across a month', () => {
    expect(formatLocalDays(['2027-07-10', '2027-07-11'], 'en')).toBe('Sat 10–Sun 11');
    expect(formatLocalDays(['2027-07-09', '2027-07-11', '2027-07-12', '2027-07-13'], 'es')).toBe(
      'vie 9, dom 11–mar 13',
    );
    expect(formatLocalDays(['2027-07-31', '2027-08-01'], 'en')).toBe('Sat 31–Sun 1');
    expect(formatLocalDays(['2027-07-31'], 'en')).toBe('Sat 31');
  });
});
