/**
 * Display formats of spec section 9, through `Intl` in the panel's active language (one helper for
 * every date and time on screen):
 * - dates 'ddd, DD MMM hh:mmA' in the event's time zone: English keeps the 12-hour clock of the spec
 *   ("Sat, 28 Nov 07:00PM"), Spanish uses the 24-hour clock ("sáb, 28 nov 19:00");
 * - benefit validity 'DD.MM.YYYY';
 * - money with two decimals; days until or since in whole calendar days.
 */
import i18next from 'i18next';

type Lang = 'en' | 'es';

const activeLang = (): Lang => (i18next.language === 'es' ? 'es' : 'en');

const formats = new Map<string, Intl.DateTimeFormat>();

/** One cached Intl.DateTimeFormat per language, zone and shape (building one costs ~0.1 ms). */
function dateTimeFormat(lang: Lang, timeZone: string | undefined, shape: 'dateTime' | 'day'): Intl.DateTimeFormat {
  const id = `${lang}|${timeZone ?? ''}|${shape}`;
  let f = formats.get(id);
  if (!f) {
    f = new Intl.DateTimeFormat(
      lang === 'es' ? 'es-ES' : 'en-GB',
      shape === 'day'
        ? { day: '2-digit', month: '2-digit', year: 'numeric', timeZone }
        : {
            weekday: 'short',
            day: '2-digit',
            month: 'short',
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: lang === 'es' ? 'h23' : 'h12',
            timeZone,
          },
    );
    formats.set(id, f);
  }
  return f;
}

const parts = (f: Intl.DateTimeFormat, at: Date) =>
  Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value])) as Partial<
    Record<Intl.DateTimeFormatPartTypes, string>
  >;

/**
 * An ISO instant shown in a time zone (IANA; the device's when omitted), in the active language:
 * "Sat, 28 Nov 07:00PM" (en, 12-hour) or "sáb, 28 nov 19:00" (es, 24-hour).
 */
export function formatDate(iso: string, timeZone?: string, lang: Lang = activeLang()): string {
  const p = parts(dateTimeFormat(lang, timeZone, 'dateTime'), new Date(iso));
  const period = lang === 'es' ? '' : (p.dayPeriod ?? '').toUpperCase().replace(/\./g, '');
  return `${p.weekday?.replace(/\.$/, '')}, ${p.day} ${p.month?.replace(/\.$/, '')} ${p.hour}:${p.minute}${period}`;
}

/** "start – end" in the event's time zone. */
export function formatRange(startIso: string, endIso: string, timeZone?: string, lang: Lang = activeLang()): string {
  return `${formatDate(startIso, timeZone, lang)} – ${formatDate(endIso, timeZone, lang)}`;
}

/** DD.MM.YYYY (benefit valid-until) in the event's time zone. */
export function formatValidUntil(iso: string, timeZone?: string): string {
  const p = parts(dateTimeFormat('en', timeZone, 'day'), new Date(iso));
  return `${p.day}.${p.month}.${p.year}`;
}

const localDay = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / 86_400_000;

/** Whole calendar days (device time zone) from `now` to the event start: positive ahead, negative since, 0 today. */
export function daysUntil(startIso: string, now: Date = new Date()): number {
  return localDay(new Date(startIso)) - localDay(now);
}

/** Money with two decimals and its symbol, e.g. "A$12.50". */
export const formatMoney = (amount: number, symbol: string) => `${symbol}${amount.toFixed(2)}`;

export { assetUrl } from './asset-url';
