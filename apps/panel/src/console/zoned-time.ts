/**
 * Wall-clock times in an event's IANA time zone, for the `datetime-local` inputs of the console's forms: the
 * organiser types the event's local time; the API takes ISO 8601 with an offset and answers UTC.
 */

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
 * An instant as the console's lists show it: date and time in `timeZone` (default the browser's) and the page's language
 * ("11 Dec 2026, 1:00 am"; Spanish on the 24-hour clock with two-digit hours, "11 dic 2026, 01:00", as the panel
 * and the scanner write it: Spanish review N25).
 */
export const consoleTime = (iso: string, timeZone?: string) => {
  const lang = document.documentElement.lang;
  const es = lang.startsWith('es');
  return new Date(iso).toLocaleString(lang, {
    timeZone,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: es ? '2-digit' : 'numeric',
    minute: '2-digit',
    hourCycle: es ? 'h23' : undefined,
  });
};
