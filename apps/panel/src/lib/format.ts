/**
 * The panel's side of the one formatter (`@tp/contract/format`, issue 29): the same functions with the
 * panel's active language (i18next) filled in. Dates are in the event's time zone (spec section 9), read by the
 * device's zone and clock: "Sun, 29 Nov, 12:30 – 6:00 AM" (en) / "dom, 29 nov 00:30–06:00" (es), the year when it is
 * not this year, the zone's short name when the event's zone differs from the device's (issue 40, decision 011);
 * money through Intl with the currency code: "A$1,234.50" / "1.234,50 AUD".
 */
import i18next from 'i18next';
import {
  formatAt,
  formatDateRange,
  formatDateTime,
  formatDay,
  formatLocalDay,
  formatMoney as money,
  formatRelativeStart,
  formatTime,
  langOf,
} from '@tp/contract/format';
import type { Locale } from '@tp/contract/constants';

const activeLang = (): Locale => langOf(i18next.language);

/**
 * An ISO instant shown in a time zone (IANA; the device's when omitted), as a card shows it:
 * "Sat, 28 Nov, 7:00 PM" (en) or "sáb, 28 nov 19:00" (es); year and zone name when needed (formatDateTime).
 */
export function formatDate(iso: string, timeZone?: string, lang: Locale = activeLang()): string {
  return formatDateTime(iso, timeZone, lang);
}

/** An ISO instant inside a sentence ("Usado el {{date}}"): "mié, 25 nov a las 21:53" in Spanish. */
export function formatWhen(iso: string, timeZone?: string, lang: Locale = activeLang()): string {
  return formatAt(iso, timeZone, lang);
}

/** "start – end" in the event's time zone, the day once when both ends fall on it (formatDateRange). */
export function formatRange(startIso: string, endIso: string, timeZone?: string, lang: Locale = activeLang()): string {
  return formatDateRange(startIso, endIso, timeZone, lang);
}

/** A benefit's valid-until day in the event's time zone: "30.12.2026" (en) / "30/12/2026" (es). */
export function formatValidUntil(iso: string, timeZone?: string, lang: Locale = activeLang()): string {
  return formatDay(iso, timeZone, lang);
}

/** An entry rule's event-local day `YYYY-MM-DD` (issue 48): "Fri 10" / "vie 10". */
export const formatEntryDay = (day: string, lang: Locale = activeLang()) => formatLocalDay(day, lang);

/** The time of day of an instant in the event's time zone: "2:02 PM" / "14:02". */
export const formatTimeOfDay = (iso: string, timeZone?: string, lang: Locale = activeLang()) =>
  formatTime(iso, timeZone, lang);

/**
 * How far the event's start is from `now`, by the device's clock: "In 1 hour" / "Dentro de 1 hora" under a day,
 * else calendar days in the event's time zone: "Tomorrow" / "Mañana", "In 3 days", "2 days ago" (formatRelativeStart).
 */
export function startsIn(startIso: string, timeZone?: string, now: Date = new Date(), lang: Locale = activeLang()) {
  return formatRelativeStart(startIso, timeZone, lang, { now });
}

/** An amount in major units of an ISO 4217 currency in the active language: "A$12.50" / "12,50 AUD". */
export const formatMoney = (amount: number, currencyCode: string, lang: Locale = activeLang()) =>
  money(amount, currencyCode, lang);

/**
 * What tells two tickets of the same event and type apart (issue 23): `#` and the entry's `userTicketId`, the id
 * the API already gives every held ticket entry (and the panel's USER_TICKET_ID), shown in cards and pickers.
 */
export const ticketNumber = (userTicketId: number): string => `#${userTicketId}`;

export { assetUrl } from './asset-url';
