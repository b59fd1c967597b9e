/**
 * An event's days (issue 48, decision 050): the event-local calendar dates `YYYY-MM-DD` a ticket type's entry rules
 * name, and how the console writes one. A day is a date in the event's IANA time zone, as the door's rule engine
 * (`eventLocalDay` of the contract) counts it.
 */
import { eventLocalDay } from '@tp/contract/entry-rules';
import type { Locale } from '@tp/contract/constants';

/** The most days a type's rules list (the contract's `entryRules.days`), so the most the form offers. */
const MAX_RULE_DAYS = 31;

const DAY_MS = 86_400_000;

/**
 * The event-local dates from the start's to the end's, in `timeZone`, the first {@link MAX_RULE_DAYS} of them. An
 * end at local midnight sharp ends the day before (that day has no hour of the event).
 */
export function eventDays(startsAt: string, endsAt: string, timeZone: string): string[] {
  const first = Date.parse(`${eventLocalDay(startsAt, timeZone)}T00:00:00Z`);
  const endMs = Math.max(Date.parse(startsAt), Date.parse(endsAt) - 1);
  const last = Date.parse(`${eventLocalDay(new Date(endMs), timeZone)}T00:00:00Z`);
  const days: string[] = [];
  for (let d = first; d <= last && days.length < MAX_RULE_DAYS; d += DAY_MS)
    days.push(new Date(d).toISOString().slice(0, 10));
  return days;
}

const dayFormats = new Map<Locale, Intl.DateTimeFormat>();

/** A date `YYYY-MM-DD` as a short day: "Sat, 10 July" (en) / "sáb, 10 jul" (es). */
export function dayLabel(day: string, lang: Locale): string {
  let format = dayFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang === 'es' ? 'es-ES' : 'en-AU', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    });
    dayFormats.set(lang, format);
  }
  return format.format(new Date(`${day}T00:00:00Z`)).replace(/\./g, '');
}
