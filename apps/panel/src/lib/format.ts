/**
 * Display formats of spec section 9: dates 'ddd, DD MMM hh:mmA' in the event's time zone,
 * benefit validity 'DD.MM.YYYY', money with two decimals, days until or since in whole days.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import 'dayjs/locale/es';
import i18next from 'i18next';

dayjs.extend(utc);
dayjs.extend(timezone);
// Only the screens that show dates load dayjs (this module); it follows the panel's language.
dayjs.locale(i18next.language === 'es' ? 'es' : 'en');

export const DATE_FORMAT = 'ddd, DD MMM hh:mmA';

/** An ISO instant shown in a time zone, e.g. "Sat, 28 Nov 07:00PM". */
export function formatDate(iso: string, timeZone?: string): string {
  const d = timeZone ? dayjs(iso).tz(timeZone) : dayjs(iso);
  return d.format(DATE_FORMAT);
}

/** "start – end" in the event's time zone. */
export function formatRange(startIso: string, endIso: string, timeZone?: string): string {
  return `${formatDate(startIso, timeZone)} – ${formatDate(endIso, timeZone)}`;
}

/** DD.MM.YYYY (benefit valid-until). */
export const formatValidUntil = (iso: string, timeZone?: string) =>
  (timeZone ? dayjs(iso).tz(timeZone) : dayjs(iso)).format('DD.MM.YYYY');

/** Whole calendar days from `now` to the event start: positive ahead, negative since, 0 today. */
export function daysUntil(startIso: string, now: Date = new Date()): number {
  return dayjs(startIso).startOf('day').diff(dayjs(now).startOf('day'), 'day');
}

/** Money with two decimals and its symbol, e.g. "A$12.50". */
export const formatMoney = (amount: number, symbol: string) => `${symbol}${amount.toFixed(2)}`;

export { assetUrl } from './asset-url';
