import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deviceTimeZone, formatAt, formatDateRange, formatDateTime } from '@tp/contract/format';
import { formatDate, formatMoney, formatRange, formatValidUntil, formatWhen, startsIn } from './format';

// 2026-11-28T08:00Z is 19:00 in Sydney (AEDT, UTC+11) and 08:00 in UTC.
const EVENING = '2026-11-28T08:00:00Z';

describe('formatDate (spec section 9, the contract formatter read by the device zone and clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-20T00:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());
  const here = () => ({ timeZone: deviceTimeZone(), now: Date.now() });

  it("is the contract's formatter with the device's zone and today's date", () => {
    for (const lang of ['en', 'es'] as const) {
      expect(formatDate(EVENING, 'Australia/Sydney', lang)).toBe(
        formatDateTime(EVENING, 'Australia/Sydney', lang, here()),
      );
      expect(formatWhen(EVENING, 'Australia/Sydney', lang)).toBe(formatAt(EVENING, 'Australia/Sydney', lang, here()));
      expect(formatRange(EVENING, '2026-11-28T12:00:00Z', 'Australia/Sydney', lang)).toBe(
        formatDateRange(EVENING, '2026-11-28T12:00:00Z', 'Australia/Sydney', lang, here()),
      );
    }
  });

  it('writes an event in the device zone with no zone name and no year this year', () => {
    const zone = deviceTimeZone();
    const noon = new Date(Date.UTC(2026, 10, 28, 12, 5));
    const local = new Intl.DateTimeFormat('en', { timeZone: zone, hour: 'numeric', hourCycle: 'h12' }).format(noon);
    expect(formatDate(noon.toISOString(), zone, 'en')).not.toMatch(/2026|GMT|UTC|[AP]M\S/);
    expect(formatDate(noon.toISOString(), zone, 'en')).toContain(local.replace(/\s*[AP]M/, ':05 '));
  });

  it('benefit validity is DD.MM.YYYY in English and DD/MM/YYYY in Spanish, in the event zone', () => {
    expect(formatValidUntil('2026-11-28T14:00:00Z', 'Australia/Sydney')).toBe('29.11.2026');
    expect(formatValidUntil('2026-11-28T14:00:00Z', 'UTC')).toBe('28.11.2026');
    expect(formatValidUntil('2026-12-30T01:00:00Z', 'Australia/Sydney', 'es')).toBe('30/12/2026');
  });

  it('a card says "In 1 hour" for an event an hour away, not "In 1 day" (issue 40)', () => {
    const now = new Date('2026-11-28T12:00:00Z');
    expect(startsIn('2026-11-28T13:00:00Z', 'Australia/Sydney', now, 'en')).toBe('In 1 hour');
    expect(startsIn('2026-11-28T13:00:00Z', 'Australia/Sydney', now, 'es')).toBe('Dentro de 1 hora');
    expect(startsIn('2026-11-20T08:00:00Z', 'Australia/Sydney', now, 'es')).toBe('Hace 8 días');
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
