/**
 * The one money and date formatter of the product (issue 29): the panel, the public pages, the e-mails,
 * the resale PDF and the door scanner all write amounts and dates through these functions, in the
 * reader's language (en | es) and, for dates, in the event's IANA time zone (spec section 9; decision 011).
 *
 * - Money: `Intl.NumberFormat` with the currency, thousands separators always: "NZ$1,234.50" (en),
 *   "1.234,50 NZD" (es).
 * - Dates: English keeps the spec's 'ddd, DD MMM hh:mmA' ("Sat, 28 Nov 07:00PM"); Spanish writes the day
 *   without a leading zero and the 24-hour clock ("mar, 1 dic 19:00"), "a las" inside a sentence
 *   ("el mié, 25 nov a las 21:53") and the day as 30/12/2026.
 *
 * Pure functions of their arguments (no i18next here): the panel passes its active language.
 */
import type { Locale } from './constants.js';

/** Intl locale of each product language. English: `en` gives "A$" and "NZ$" (en-AU would write "$"). */
const INTL_LOCALE: Record<Locale, string> = { en: 'en', es: 'es-ES' };

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(id: string, make: () => T): T {
  let f = cache.get(id) as T | undefined;
  if (!f) {
    f = make();
    cache.set(id, f);
  }
  return f;
}

export { langOf } from './locale.js';

/**
 * An amount in major units (12.5) of an ISO 4217 currency (`currencyCode`, "AUD") in `lang`:
 * "A$1,234.50" / "1.234,50 AUD". Thousands are always grouped (es-ES would leave 1234,50 alone).
 * An unknown code falls back to "<code> 12.50" rather than throwing.
 */
export function formatMoney(amount: number, currencyCode: string, lang: Locale): string {
  let f: Intl.NumberFormat;
  try {
    f = cached(
      `m|${lang}|${currencyCode}`,
      () =>
        new Intl.NumberFormat(INTL_LOCALE[lang], {
          style: 'currency',
          currency: currencyCode,
          useGrouping: 'always' as unknown as boolean,
        }),
    );
  } catch {
    return `${currencyCode} ${amount.toFixed(2)}`;
  }
  return f.format(amount);
}

/** Integer minor units (cents, 1234) of a currency in `lang`: formatMoney(cents / 100, ...). */
export const formatCents = (cents: number, currencyCode: string, lang: Locale): string =>
  formatMoney(cents / 100, currencyCode, lang);

type Shape = 'card' | 'day' | 'long' | 'short';

function dateFormat(lang: Locale, timeZone: string | undefined, shape: Shape): Intl.DateTimeFormat {
  return cached<Intl.DateTimeFormat>(`d|${lang}|${timeZone ?? ''}|${shape}`, () => {
    const base = { timeZone } as const;
    switch (shape) {
      case 'day':
        return new Intl.DateTimeFormat(INTL_LOCALE[lang], {
          ...base,
          day: '2-digit',
          month: '2-digit',
          year: 'numeric',
        });
      case 'long':
        return new Intl.DateTimeFormat(lang === 'es' ? 'es-ES' : 'en-AU', {
          ...base,
          weekday: 'long',
          day: 'numeric',
          month: 'long',
          year: 'numeric',
          hour: lang === 'es' ? '2-digit' : 'numeric',
          minute: '2-digit',
          hourCycle: lang === 'es' ? 'h23' : 'h12',
          timeZoneName: 'short',
        });
      case 'short':
        return new Intl.DateTimeFormat(lang === 'es' ? 'es-ES' : 'en-GB', {
          ...base,
          weekday: 'short',
          day: lang === 'es' ? 'numeric' : '2-digit',
          month: 'short',
        });
      default:
        return new Intl.DateTimeFormat(lang === 'es' ? 'es-ES' : 'en-GB', {
          ...base,
          weekday: 'short',
          day: lang === 'es' ? 'numeric' : '2-digit',
          month: 'short',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: lang === 'es' ? 'h23' : 'h12',
        });
    }
  });
}

type Parts = Partial<Record<Intl.DateTimeFormatPartTypes, string>>;
const partsOf = (f: Intl.DateTimeFormat, at: Date | string): Parts =>
  Object.fromEntries(f.formatToParts(new Date(at)).map((p) => [p.type, p.value]));
/** "sáb." -> "sáb", "sept." -> "sept" (ICU versions differ on the abbreviation dot). */
const noDot = (s: string | undefined) => (s ?? '').replace(/\.$/, '');

/**
 * An instant (ISO 8601 or Date) as a card shows it, in `timeZone` (IANA; the device's when omitted):
 * "Sat, 28 Nov 07:00PM" (en, the spec's 'ddd, DD MMM hh:mmA') / "sáb, 28 nov 19:00", "mar, 1 dic 09:05" (es).
 */
export function formatDateTime(at: Date | string, timeZone: string | undefined, lang: Locale): string {
  const p = partsOf(dateFormat(lang, timeZone, 'card'), at);
  const period = lang === 'es' ? '' : (p.dayPeriod ?? '').toUpperCase().replace(/\./g, '');
  return `${noDot(p.weekday)}, ${p.day} ${noDot(p.month)} ${p.hour}:${p.minute}${period}`;
}

/**
 * An instant inside a sentence ("Used on {{date}}", "Usado el {{date}}"): English as on a card,
 * Spanish with "a las" before the time: "mié, 25 nov a las 21:53".
 */
export function formatAt(at: Date | string, timeZone: string | undefined, lang: Locale): string {
  if (lang === 'en') return formatDateTime(at, timeZone, lang);
  const p = partsOf(dateFormat(lang, timeZone, 'card'), at);
  return `${noDot(p.weekday)}, ${p.day} ${noDot(p.month)} a las ${p.hour}:${p.minute}`;
}

/** "start – end" of an event in its time zone, each end as formatDateTime writes it. */
export function formatDateRange(
  start: Date | string,
  end: Date | string,
  timeZone: string | undefined,
  lang: Locale,
): string {
  return `${formatDateTime(start, timeZone, lang)} – ${formatDateTime(end, timeZone, lang)}`;
}

/** A weekday and day with no time: "Tue, 01 Dec" (en) / "mar, 1 dic" (es). */
export function formatShortDate(at: Date | string, timeZone: string | undefined, lang: Locale): string {
  const p = partsOf(dateFormat(lang, timeZone, 'short'), at);
  return `${noDot(p.weekday)}, ${p.day} ${noDot(p.month)}`;
}

/** A calendar day (benefit valid-until): "30.12.2026" (en, spec 'DD.MM.YYYY') / "30/12/2026" (es). */
export function formatDay(at: Date | string, timeZone: string | undefined, lang: Locale): string {
  const p = partsOf(dateFormat(lang, timeZone, 'day'), at);
  return `${p.day}${lang === 'es' ? '/' : '.'}${p.month}${lang === 'es' ? '/' : '.'}${p.year}`;
}

/**
 * An event's date and time in full, for e-mails, public pages and the PDF, in its own time zone:
 * "Saturday 14 March 2026 at 7:30 pm AEDT" / "sábado, 14 de marzo de 2026, 19:30 GMT+11".
 */
export function formatEventDateTime(lang: Locale, at: Date | string, timeZone: string): string {
  return dateFormat(lang, timeZone, 'long').format(new Date(at));
}

/**
 * An event's date and time inside a sentence ("Your ticket is for {{when}}."), in its own time zone: English as
 * formatEventDateTime; Spanish with "a las" before the time and the zone in brackets: "domingo, 29 de noviembre
 * de 2026, a las 20:00 (GMT+11)" (Spanish review N19).
 */
export function formatEventAt(lang: Locale, at: Date | string, timeZone: string): string {
  if (lang !== 'es') return formatEventDateTime(lang, at, timeZone);
  const parts = dateFormat(lang, timeZone, 'long').formatToParts(new Date(at));
  const p = Object.fromEntries(parts.map((x) => [x.type, x.value])) as Partial<
    Record<Intl.DateTimeFormatPartTypes, string>
  >;
  return `${p.weekday}, ${p.day} de ${p.month} de ${p.year}, a las ${p.hour}:${p.minute} (${p.timeZoneName})`;
}
