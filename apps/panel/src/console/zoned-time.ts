/**
 * Wall-clock times in an event's IANA time zone, for the `datetime-local` inputs of the console's forms: the
 * organiser types the event's local time; the API takes ISO 8601 with an offset and answers UTC.
 */
import { formatDateTime, langOf } from '@tp/contract/format';

/** The zone's offset from UTC at the instant `ms`, in milliseconds (e.g. +11 h for Australia/Sydney in March). */
function offsetAt(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - Math.floor(ms / 1000) * 1000;
}

/** `2027-03-01T18:00` in `timeZone` as ISO 8601 UTC; empty input gives null. */
export function zonedToIso(local: string, timeZone: string): string | null {
  if (!local) return null;
  const asUtc = Date.parse(`${local}:00Z`);
  if (Number.isNaN(asUtc)) return null;
  let guess = asUtc - offsetAt(asUtc, timeZone);
  guess = asUtc - offsetAt(guess, timeZone);
  return new Date(guess).toISOString();
}

/** An ISO instant as `YYYY-MM-DDTHH:mm` in `timeZone` (for a `datetime-local` input); null gives ''. */
export function isoToZoned(iso: string | null, timeZone: string): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  return new Date(ms + offsetAt(ms, timeZone)).toISOString().slice(0, 16);
}

/**
 * An instant as the console's lists show it, through the product's one date formatter (issue 40): date and time
 * in `timeZone` (default the browser's) and the page's language, the year when it is not this year
 * ("Wed, 25 Nov, 9:53 PM" / "mié, 25 nov 21:53").
 */
export const consoleTime = (iso: string, timeZone?: string) =>
  formatDateTime(iso, timeZone, langOf(document.documentElement.lang));

let zones: Set<string> | undefined;
/**
 * Whether the browser knows the IANA time zone (`Australia/Sydney`, `UTC`), as the API's contract checks it
 * (`Intl.supportedValuesOf('timeZone')` and `UTC`): the form's wall times can be read in it.
 */
export function isTimeZone(zone: string): boolean {
  return zone === 'UTC' || (zones ??= new Set(Intl.supportedValuesOf('timeZone'))).has(zone);
}
