import { describe, expect, it } from 'vitest';
import { daysUntil, formatDate, formatMoney, formatRange, formatValidUntil, formatWhen } from './format';

// 2026-11-28T08:00Z is 19:00 in Sydney (AEDT, UTC+11) and 08:00 in UTC.
const EVENING = '2026-11-28T08:00:00Z';

describe('formatDate (spec section 9, Intl in the active language)', () => {
  it('shows Spanish times on the 24-hour clock, in the event time zone', () => {
    expect(formatDate(EVENING, 'Australia/Sydney', 'es')).toBe('sáb, 28 nov 19:00');
    expect(formatDate('2026-11-28T12:05:00Z', 'UTC', 'es')).toBe('sáb, 28 nov 12:05');
    expect(formatDate('2026-11-28T00:30:00Z', 'UTC', 'es')).toBe('sáb, 28 nov 00:30');
  });

  it("keeps English on the spec's 12-hour 'ddd, DD MMM hh:mmA'", () => {
    expect(formatDate(EVENING, 'Australia/Sydney', 'en')).toBe('Sat, 28 Nov 07:00PM');
    expect(formatDate('2026-11-28T00:30:00Z', 'UTC', 'en')).toBe('Sat, 28 Nov 12:30AM');
  });

  it('follows the time zone across the date line', () => {
    expect(formatDate('2026-11-28T14:00:00Z', 'Australia/Sydney', 'es')).toBe('dom, 29 nov 01:00');
  });

  it('ranges join two dates in one zone', () => {
    expect(formatRange(EVENING, '2026-11-28T12:00:00Z', 'Australia/Sydney', 'es')).toBe(
      'sáb, 28 nov 19:00 – sáb, 28 nov 23:00',
    );
  });

  it('benefit validity is DD.MM.YYYY in English and DD/MM/YYYY in Spanish, in the event zone', () => {
    expect(formatValidUntil('2026-11-28T14:00:00Z', 'Australia/Sydney')).toBe('29.11.2026');
    expect(formatValidUntil('2026-11-28T14:00:00Z', 'UTC')).toBe('28.11.2026');
    expect(formatValidUntil('2026-12-30T01:00:00Z', 'Australia/Sydney', 'es')).toBe('30/12/2026');
  });

  it('Spanish days have no leading zero, and a time inside a sentence takes "a las" (issue 29)', () => {
    expect(formatDate('2026-12-01T08:00:00Z', 'Australia/Sydney', 'es')).toBe('mar, 1 dic 19:00');
    expect(formatDate('2026-12-01T08:00:00Z', 'Australia/Sydney', 'en')).toBe('Tue, 01 Dec 07:00PM');
    expect(formatWhen('2026-11-25T10:53:00Z', 'Australia/Sydney', 'es')).toBe('mié, 25 nov a las 21:53');
    expect(formatWhen('2026-11-25T10:53:00Z', 'Australia/Sydney', 'en')).toBe('Wed, 25 Nov 09:53PM');
  });

  it('days until counts calendar days', () => {
    const now = new Date(2026, 10, 28, 23, 0);
    expect(daysUntil(new Date(2026, 10, 29, 1, 0).toISOString(), now)).toBe(1);
    expect(daysUntil(new Date(2026, 10, 28, 1, 0).toISOString(), now)).toBe(0);
    expect(daysUntil(new Date(2026, 10, 20, 1, 0).toISOString(), now)).toBe(-8);
  });
});

describe('formatMoney (issue 29: Intl with the currency, one formatter for every surface)', () => {
  it('writes English amounts with the symbol and Spanish ones the Spanish way, thousands grouped', () => {
    expect(formatMoney(45.5, 'NZD', 'en')).toBe('NZ$45.50');
    expect(formatMoney(45.5, 'NZD', 'es')).toBe('45,50\u00a0NZD');
    expect(formatMoney(1234.5, 'AUD', 'en')).toBe('A$1,234.50');
    expect(formatMoney(1234.5, 'AUD', 'es')).toBe('1.234,50\u00a0AUD');
    expect(formatMoney(0, 'NZD', 'es')).toBe('0,00\u00a0NZD');
  });
});
