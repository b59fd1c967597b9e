/** The console's catalogues hold the same keys, and its zoned times round-trip through the event's time zone. */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { emailStatusText, errorText, importRowText } from './errors';
import en from './locales/console-en.json';
import es from './locales/console-es.json';
import { consoleTime, isoToZoned, zonedToIso } from './zoned-time';
import { chartSeries } from './events/components/chart-series';
import { countryOptions } from './country-names';
import { keptTicketTypeFields } from './kept-fields';
import { dayLabel, eventDays } from './events/components/event-days';

const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'object' && v ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );

describe('console', () => {
  it('has every text in English and Spanish', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it("names the event form's countries in the viewer's language (Spanish review N2)", () => {
    expect(countryOptions(['AU', 'NZ'], 'en')).toEqual([
      { code: 'AU', name: 'Australia' },
      { code: 'NZ', name: 'New Zealand' },
    ]);
    expect(countryOptions(['NZ', 'AU'], 'es')).toEqual([
      { code: 'AU', name: 'Australia' },
      { code: 'NZ', name: 'Nueva Zelanda' },
    ]);
  });

  it("never shows the API's English detail on the Spanish console (Spanish review N3)", async () => {
    await i18next.init({
      lng: 'es',
      fallbackLng: 'en',
      resources: { en: { translation: en }, es: { translation: es } },
    });
    const t = i18next.t;
    const webhook = new ApiError('api.org.webhook_url_not_allowed', 422, {
      message: 'api.org.webhook_url_not_allowed',
      detail: 'url: must be https and not a private or loopback address.',
    });
    expect(errorText(t, webhook)).toBe(
      'La URL del webhook no se admite: usa https y una dirección pública (http solo para 127.0.0.1 en pruebas).',
    );
    expect(
      errorText(
        t,
        new ApiError('api.some_new_key', 400, { message: 'api.some_new_key', detail: 'An English detail.' }),
      ),
    ).toBe(es.console.error_generic);
    const row = { row: 2, message: 'api.invalid_request_body', field: 'holderEmail', detail: 'Column holderEmail: x.' };
    expect(importRowText(t, row)).toEqual({ text: 'Columna holderEmail: el correo no es válido.' });
    expect(importRowText(t, { ...row, field: 'seat' })).toEqual({ text: 'Columna seat: el valor no es válido.' });
    await i18next.changeLanguage('en');
    expect(importRowText(t, row)).toEqual({
      text: 'Column holderEmail: the e-mail address is not valid.',
      detail: 'Column holderEmail: x.',
    });
    expect(
      errorText(
        t,
        new ApiError('api.some_new_key', 400, { message: 'api.some_new_key', detail: 'An English detail.' }),
      ),
    ).toBe('An English detail.');
  });

  it("says a holder's failing mail in the console's words, with the relay's SMTP code only (issue 41, re-walk)", async () => {
    await i18next.init({
      lng: 'es',
      fallbackLng: 'en',
      resources: { en: { translation: en }, es: { translation: es } },
    });
    const t = i18next.t;
    const full = "Can't send mail - all recipients were rejected: 452 4.2.2 <ann@example.com>: Mailbox full";
    const failing = emailStatusText(t, 'failing', full);
    expect(failing).toContain('Nuestro último correo a esta dirección aún no se ha entregado');
    expect(failing).toContain('452 4.2.2');
    expect(failing).not.toMatch(/Can't send|rejected|Mailbox full|ann@example\.com/);
    const bounced = emailStatusText(
      t,
      'bounced',
      '550 5.1.1 <x@example.com>: Recipient address rejected: User unknown',
    );
    expect(bounced).toContain('550 5.1.1');
    expect(bounced).not.toMatch(/Recipient|unknown|x@example/);
    // No code in the relay's answer: the console's sentence alone, no empty brackets.
    expect(emailStatusText(t, 'bounced', 'Connection closed unexpectedly')).toBe(emailStatusText(t, 'bounced', null));
    expect(emailStatusText(t, 'bounced', null)).not.toMatch(/\(\s*\)|Connection/);
    await i18next.changeLanguage('en');
    expect(emailStatusText(t, 'failing', full)).toMatch(/has not gone through yet.*452 4\.2\.2/);
  });

  it('writes Spanish list times with two-digit hours, as the panel does (Spanish review N25)', () => {
    const oneAm = new Date(new Date().getFullYear(), 11, 11, 1, 0).toISOString(); // 01:00 this year, the test's own zone
    document.documentElement.lang = 'es';
    // Through the one date formatter (issue 40): no year for this year's date, two-digit hours.
    expect(consoleTime(oneAm)).toMatch(/^[a-zé]{3}, 11 dic 01:00$/);
    document.documentElement.lang = 'en';
    expect(consoleTime(oneAm)).toMatch(/^[A-Z][a-z]{2}, 11 Dec, 1:00 AM$/);
  });

  it("reads a datetime-local value as the event's wall time, across a daylight-saving change", () => {
    // Sydney is UTC+11 in March (daylight saving) and UTC+10 in July.
    expect(zonedToIso('2027-03-01T18:00', 'Australia/Sydney')).toBe('2027-03-01T07:00:00.000Z');
    expect(zonedToIso('2027-07-01T18:00', 'Australia/Sydney')).toBe('2027-07-01T08:00:00.000Z');
    expect(zonedToIso('2027-03-01T18:00', 'Pacific/Auckland')).toBe('2027-03-01T05:00:00.000Z');
    expect(isoToZoned('2027-07-01T08:00:00.000Z', 'Australia/Sydney')).toBe('2027-07-01T18:00');
    expect(zonedToIso('', 'UTC')).toBeNull();
    expect(isoToZoned(null, 'UTC')).toBe('');
  });

  it('draws every 5-minute bucket of the event day, empty ones as zero', () => {
    const [xs, ys] = chartSeries({
      bucketSeconds: 300,
      from: '2027-03-01T01:00:00.000Z',
      to: '2027-03-01T01:30:00.000Z',
      buckets: [
        { at: '2027-03-01T01:05:00.000Z', count: 3 },
        { at: '2027-03-01T01:20:00.000Z', count: 1 },
      ],
      conflicts: [],
    });
    const start = Date.parse('2027-03-01T01:00:00.000Z') / 1000;
    expect(xs).toEqual([0, 1, 2, 3, 4, 5].map((i) => start + i * 300));
    expect(ys).toEqual([0, 3, 0, 0, 1, 0]);
  });

  it("sends back a ticket type's description and its own resale cap, which the type form does not edit (issue 41 re-walk)", () => {
    const type = {
      externalId: 'ga',
      eventExternalId: 'evt',
      name: 'GA',
      description: 'Entry to the main arena.',
      priceCents: 12_900,
      currency: 'AUD',
      resaleCapCents: 14_190,
      isGiftable: true,
      isResellable: true,
      isSwappable: false,
      stock: 100,
      swapTargets: [],
      entryRules: null,
    };
    expect(keptTicketTypeFields(type)).toEqual({ description: 'Entry to the main arena.', resaleCapCents: 14_190 });
    // A cap equal to the price is the API's default: left out, it follows a new price.
    expect(keptTicketTypeFields({ ...type, description: null, resaleCapCents: 12_900 })).toEqual({});
    expect(keptTicketTypeFields(null)).toEqual({});
  });

  it("lists an event's local days for the type form's entry rules (issue 48)", () => {
    // Across the end of daylight saving in Sydney (4 April 2027, 03:00 AEDT -> 02:00 AEST): three days, none twice.
    expect(eventDays('2027-04-03T08:00:00Z', '2027-04-05T12:00:00Z', 'Australia/Sydney')).toEqual([
      '2027-04-03',
      '2027-04-04',
      '2027-04-05',
    ]);
    // The event's days, not UTC's: 23:30 Friday to 01:00 Saturday in Auckland is all Friday in UTC.
    expect(eventDays('2027-07-09T11:30:00Z', '2027-07-09T13:00:00Z', 'Pacific/Auckland')).toEqual([
      '2027-07-09',
      '2027-07-10',
    ]);
    // A season longer than a rule can list: its first 31 days.
    const season = eventDays('2027-01-01T00:00:00Z', '2027-03-31T00:00:00Z', 'UTC');
    expect([season.length, season[0], season.at(-1)]).toEqual([31, '2027-01-01', '2027-01-31']);
    expect(dayLabel('2027-07-10', 'en')).toBe('Sat, 10 July');
    expect(dayLabel('2027-07-10', 'es')).toBe('sáb, 10 jul');
  });
});
