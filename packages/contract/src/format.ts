/**
 * The one money and date formatter of the product (issue 29): the panel, the public pages, the e-mails,
 * the resale PDF and the door scanner all write amounts and dates through these functions, in the
 * reader's language (en | es) and, for dates, in the event's IANA time zone (spec section 9; decision 011).
 *
 * - Money: `Intl.NumberFormat` with the currency, thousands separators always: "NZ$1,234.50" (en),
 *   "1.234,50 NZD" (es).
 * - Dates (issue 40): the spec's 'ddd, DD MMM hh:mmA' as Intl writes it, "Sat, 28 Nov, 7:00 PM" (en; decision
 *   011 on the space); Spanish writes the day without a leading zero and the 24-hour clock ("mar, 1 dic 19:00"),
 *   "a las" inside a sentence ("el mié, 25 nov a las 21:53") and the day as 30/12/2026. The year is written
 *   when it is not the current one and the zone's short name ("AEDT", "GMT+11") when the event's zone reads
 *   differently from the viewer's (`DateViewer`); a range on one day names the day once (formatRange).
 *   Relative starts ("In 1 hour", "Mañana") through Intl.RelativeTimeFormat.
 *
 * Pure functions of their arguments (no i18next here): the panel passes its active language.
 */
import type { Locale } from './constants.js';

/** Intl locale of each product language. English: `en` gives "A$" and "NZ$" (en-AU would write "$"). */
const INTL_LOCALE: Record<Locale, string> = { en: 'en', es: 'es-ES' };

type Formatter = Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat;
const cache = new Map<string, Formatter>();
function cached<T extends Formatter>(id: string, make: () => T): T {
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
          // The cast: 'always' is ES2023 Intl (Node and every evergreen browser); the ES2022 lib types only a boolean.
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

type Shape = 'day' | 'long';

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
      default:
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
    }
  });
}

type Parts = Partial<Record<Intl.DateTimeFormatPartTypes, string>>;
const partsOf = (f: Intl.DateTimeFormat, at: Date | string): Parts =>
  Object.fromEntries(f.formatToParts(new Date(at)).map((p) => [p.type, p.value]));
/** "sáb." -> "sáb", "sept." -> "sept" (ICU versions differ on the abbreviation dot). */
const noDot = (s: string | undefined) => (s ?? '').replace(/\.$/, '');

/**
 * Who reads a date, and when: the reader's IANA time zone (the device's when omitted; on the server there is no
 * reader zone, so e-mails and pages use formatEventDateTime, which always names the zone) and the current instant
 * (now when omitted). Tests pass both.
 */
export interface DateViewer {
  timeZone?: string;
  now?: Date | number;
}

/** The device's IANA time zone (the browser's in the panel; the server's in Node). */
export const deviceTimeZone = (): string => new Intl.DateTimeFormat().resolvedOptions().timeZone;

const INSTANT_LOCALE: Record<Locale, string> = { en: 'en-AU', es: 'es-ES' };

/** The calendar year of an instant in `timeZone`. */
const yearIn = (at: Date, timeZone: string | undefined): string =>
  cached(`y|${timeZone ?? ''}`, () => new Intl.DateTimeFormat('en', { timeZone, year: 'numeric' })).format(at);

/** Wall-clock minute of an instant in `timeZone`: equal for two zones when they read the same at that instant. */
const wallClock = (at: Date, timeZone: string | undefined): string =>
  cached(
    `w|${timeZone ?? ''}`,
    () =>
      new Intl.DateTimeFormat('en', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }),
  ).format(at);

/**
 * The formatter of an instant or a range: short weekday, day, short month, the year only when an end is not in
 * `now`'s year (in the event's zone), 12-hour (en) or 24-hour (es) time, and the zone's short name ("AEDT",
 * "GMT+11") only when the event's zone reads differently from the viewer's at one of the ends.
 */
function instantFormat(
  lang: Locale,
  timeZone: string | undefined,
  ends: Date[],
  viewer: DateViewer | undefined,
): Intl.DateTimeFormat {
  const now = new Date(viewer?.now ?? Date.now());
  const year = ends.some((d) => yearIn(d, timeZone) !== yearIn(now, timeZone));
  const viewerZone = viewer?.timeZone ?? deviceTimeZone();
  const zone = timeZone !== undefined && ends.some((d) => wallClock(d, timeZone) !== wallClock(d, viewerZone));
  return cached(
    `i|${lang}|${timeZone ?? ''}|${year ? 'y' : ''}|${zone ? 'z' : ''}`,
    () =>
      new Intl.DateTimeFormat(INSTANT_LOCALE[lang], {
        timeZone,
        weekday: 'short',
        day: lang === 'es' ? 'numeric' : '2-digit',
        month: 'short',
        ...(year && { year: 'numeric' }),
        hour: lang === 'es' ? '2-digit' : 'numeric',
        minute: '2-digit',
        hourCycle: lang === 'es' ? 'h23' : 'h12',
        ...(zone && { timeZoneName: 'short' }),
      }),
  );
}

/**
 * Writes Intl's parts the house way: no abbreviation dot ("sáb." -> "sáb"), "AM"/"PM" in capitals after a space
 * (en), two-digit hours on the 24-hour clock (es: "00:30", which ICU's range patterns write "0:30"), and in Spanish
 * no comma between the day and the time ("sáb, 28 nov 19:00"), or " a las " inside a sentence (`sentence`).
 * Narrow and thin spaces (newer ICU) become plain spaces, so every runtime writes the same string.
 */
function joinParts(parts: Intl.DateTimeFormatPart[], lang: Locale, sentence: boolean): string {
  return parts
    .map((p, i) => {
      switch (p.type) {
        case 'weekday':
        case 'month':
          return noDot(p.value);
        case 'dayPeriod':
          return p.value.replace(/\./g, '').toUpperCase();
        case 'hour':
          return lang === 'es' ? p.value.padStart(2, '0') : p.value;
        case 'literal':
          if (lang === 'es' && parts[i + 1]?.type === 'hour' && /^(month|year)$/.test(parts[i - 1]?.type ?? ''))
            return sentence ? ' a las ' : ' ';
          return p.value.replace(/[\u202f\u2009\u00a0]/g, ' ');
        default:
          return p.value;
      }
    })
    .join('');
}

/**
 * An instant (ISO 8601 or Date) as a card shows it, in the event's `timeZone` (IANA; the device's when omitted):
 * "Sun, 29 Nov, 12:30 AM" (en) / "dom, 29 nov 00:30" (es); with the year when it is not the current year
 * ("Sun, 29 Nov 2027, 12:30 AM") and the zone's short name when the event's zone differs from the viewer's
 * ("Sun, 29 Nov, 12:30 AM AEDT", "dom, 29 nov 00:30 GMT+11"). Decision 011.
 */
export function formatDateTime(
  at: Date | string,
  timeZone: string | undefined,
  lang: Locale,
  viewer?: DateViewer,
): string {
  const d = new Date(at);
  return joinParts(instantFormat(lang, timeZone, [d], viewer).formatToParts(d), lang, false);
}

/**
 * An instant inside a sentence ("Used on {{date}}", "Usado el {{date}}"): English as on a card,
 * Spanish with "a las" before the time: "mié, 25 nov a las 21:53"; year and zone as formatDateTime.
 */
export function formatAt(at: Date | string, timeZone: string | undefined, lang: Locale, viewer?: DateViewer): string {
  const d = new Date(at);
  return joinParts(instantFormat(lang, timeZone, [d], viewer).formatToParts(d), lang, true);
}

/**
 * "start – end" of an event in its time zone through `Intl.DateTimeFormat.formatRange`: a range within one day
 * names the day once ("Sun, 29 Nov, 12:30 – 6:00 AM" / "dom, 29 nov 00:30–06:00"), one across days names both;
 * year and zone as formatDateTime (the year when either end is not in the current year).
 */
export function formatDateRange(
  start: Date | string,
  end: Date | string,
  timeZone: string | undefined,
  lang: Locale,
  viewer?: DateViewer,
): string {
  const a = new Date(start);
  const b = new Date(end);
  if (!(b.getTime() > a.getTime())) return formatDateTime(a, timeZone, lang, viewer);
  return joinParts(instantFormat(lang, timeZone, [a, b], viewer).formatRangeToParts(a, b), lang, false);
}

const HOUR_MS = 3_600_000;
/** The calendar day of an instant in `timeZone`, as a day count since 1970-01-01. */
const dayNumber = (at: Date, timeZone: string | undefined): number => {
  const f = cached(
    `n|${timeZone ?? ''}`,
    () => new Intl.DateTimeFormat('en', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }),
  );
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1) / 86_400_000;
};

/**
 * How far an event's start is from the viewer's now, as a card's foot says it, through `Intl.RelativeTimeFormat`:
 * under a day away by minutes or hours ("In 1 hour", "Dentro de 1 hora", "45 minutes ago"); otherwise by calendar
 * days in the event's `timeZone` ("Tomorrow"/"Mañana", "In 3 days"/"Dentro de 3 días", "Yesterday"/"Ayer").
 * Starts with a capital letter (it stands alone).
 */
export function formatRelativeStart(
  start: Date | string,
  timeZone: string | undefined,
  lang: Locale,
  viewer?: Pick<DateViewer, 'now'>,
): string {
  const now = new Date(viewer?.now ?? Date.now());
  const at = new Date(start);
  const f = cached(`r|${lang}`, () => new Intl.RelativeTimeFormat(INSTANT_LOCALE[lang], { numeric: 'auto' }));
  const ms = at.getTime() - now.getTime();
  let text: string;
  if (Math.abs(ms) < HOUR_MS) text = f.format(Math.trunc(ms / 60_000) || (ms < 0 ? -1 : 1), 'minute');
  else if (Math.abs(ms) < 24 * HOUR_MS) text = f.format(Math.trunc(ms / HOUR_MS), 'hour');
  else text = f.format(dayNumber(at, timeZone) - dayNumber(now, timeZone), 'day');
  return text.charAt(0).toLocaleUpperCase(INSTANT_LOCALE[lang]) + text.slice(1);
}

/**
 * The time of day of an instant in `timeZone` (the device's when omitted), the house way as formatDateTime writes
 * it: "7:30 PM" (en, 12-hour) / "19:30" (es, 24-hour). For a time inside a sentence whose day is known (the
 * console dashboard's busiest 5 minutes of the event day).
 */
export function formatTime(at: Date | string, timeZone: string | undefined, lang: Locale): string {
  const f = cached(
    `t|${lang}|${timeZone ?? ''}`,
    () =>
      new Intl.DateTimeFormat(INSTANT_LOCALE[lang], {
        timeZone,
        hour: lang === 'es' ? '2-digit' : 'numeric',
        minute: '2-digit',
        hourCycle: lang === 'es' ? 'h23' : 'h12',
      }),
  );
  return joinParts(f.formatToParts(new Date(at)), lang, false);
}

/** A calendar day (benefit valid-until): "30.12.2026" (en, spec 'DD.MM.YYYY') / "30/12/2026" (es). */
export function formatDay(at: Date | string, timeZone: string | undefined, lang: Locale): string {
  const p = partsOf(dateFormat(lang, timeZone, 'day'), at);
  return `${p.day}${lang === 'es' ? '/' : '.'}${p.month}${lang === 'es' ? '/' : '.'}${p.year}`;
}

/**
 * An event's date and time in full, for e-mails, public pages and the PDF, in its own time zone:
 * "Saturday 14 March 2026 at 7:30 PM AEDT" / "sábado, 14 de marzo de 2026, 19:30 GMT+11". The year and the zone
 * are always written: the reader's zone and today are not known where these are made.
 */
export function formatEventDateTime(lang: Locale, at: Date | string, timeZone: string): string {
  const f = dateFormat(lang, timeZone, 'long');
  // English writes "7:30 PM" as the cards do; Spanish is Intl's long form unchanged.
  return lang === 'en' ? joinParts(f.formatToParts(new Date(at)), lang, false) : f.format(new Date(at));
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

/**
 * An event-local calendar date `YYYY-MM-DD` (an entry rule's day, issue 48) as its short weekday and day of the
 * month: "Fri 10" (en) / "vie 10" (es). It is a calendar date already: no time zone applies.
 */
export function formatLocalDay(day: string, lang: Locale): string {
  const f = cached(
    `w|${lang}`,
    () => new Intl.DateTimeFormat(INTL_LOCALE[lang], { timeZone: 'UTC', weekday: 'short', day: 'numeric' }),
  );
  const p = partsOf(f, `${day}T12:00:00Z`);
  return `${noDot(p.weekday)} ${p.day}`;
}

/**
 * The days an entry rule admits on, short (the door's "valid …"): each run of consecutive dates as its ends,
 * "Sat 11–Sun 12", runs joined by commas: "Fri 10, Sun 12–Mon 13". `days` sorted `YYYY-MM-DD`.
 */
export function formatLocalDays(days: readonly string[], lang: Locale): string {
  const runs: string[][] = [];
  for (const day of days) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && Date.parse(`${day}T00:00:00Z`) - Date.parse(`${last}T00:00:00Z`) === 86_400_000) run.push(day);
    else runs.push([day]);
  }
  return runs
    .map((run) => [run[0], ...(run.length > 1 ? [run.at(-1)!] : [])].map((d) => formatLocalDay(d, lang)).join('–'))
    .join(', ');
}
