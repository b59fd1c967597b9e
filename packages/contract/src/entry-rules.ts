/**
 * Entry rules (issue 48, decision 050): the one rule engine that decides whether a scan at a door admits a ticket,
 * lets it out, or refuses it, from the ticket type's rules, the ticket's recorded scans and the scan. Pure and with
 * no dependency (the time zone through `Intl.DateTimeFormat`), so the server's online check-in, its judgement of
 * synced offline scans (apps/api offline-sync.ts) and the offline door (apps/panel src/scanner) run the same code.
 * Re-exported by access.ts, whose zod schemas (`entryRules`, `recordedScan`) describe these shapes on the wire.
 *
 * Semantics (decision 050):
 * - A day is an event-local calendar date `YYYY-MM-DD`: the scan's instant in the event's IANA time zone, from
 *   local midnight to local midnight. A scan at 01:00 after a Friday show is Saturday's.
 * - Entries and "inside" are counted per zone: the door's zone, or `null` for a door of no zone (the event's
 *   general doors). A person inside the grounds (zone null) who enters the VIP zone is then inside both.
 * - `once`: one entry per zone, ever (`already_used` after). `once_per_day`: one entry per zone per day.
 *   `reentry`: any number of entries, but not while inside that zone (`already_inside`: scan out first).
 * - An exit scan (`direction: "out"`) is recorded only when the ticket is inside that zone (`not_inside` else),
 *   whatever the day or the zones the type lists; it never consumes an entry.
 * - Inside a zone: the ticket's latest recorded scan at that zone (by time, then by position in the history) is an
 *   entry.
 * - `days` absent: any day; `zones` absent: every zone (and a door of no zone admits every type).
 */

/** How often a ticket admits: once per zone, once per zone per event-local day, or again after each exit. */
export type EntryKind = 'once' | 'once_per_day' | 'reentry';

/**
 * A ticket type's entry rules. `days`: event-local dates (`YYYY-MM-DD`) the type admits on (absent: any day);
 * `zones`: the door zones it admits to (absent: every zone).
 */
export interface EntryRules {
  days?: string[];
  entries: EntryKind;
  zones?: string[];
}

/** Today's behaviour, the rules of a type that has none: one entry, any day, any zone. */
export const DEFAULT_ENTRY_RULES: EntryRules = { entries: 'once' };

/** A scan's direction: `in` (an entry door) or `out` (an exit door). */
export type ScanDirection = 'in' | 'out';

/**
 * A scan recorded on a ticket: `at` ISO 8601 UTC, its direction, the door's zone (null: no zone) and the
 * event-local day (`YYYY-MM-DD`) it fell on.
 */
export interface RecordedScan {
  at: string;
  direction: ScanDirection;
  zone: string | null;
  day: string;
}

/** A scan to judge: when (ISO 8601 UTC), at which zone (null: none), which way, and the event's IANA time zone. */
export interface EntryScan {
  at: string;
  zone: string | null;
  direction: ScanDirection;
  timeZone: string;
}

/**
 * Why a scan does not count (each is also a message key's last part, `api.access.<reason>` style on the door):
 * `already_used` (`once`: entered this zone before; `once_per_day`: entered it today), `not_valid_today` (the day
 * is not one of the type's `days`), `already_inside` (`reentry`: inside this zone, no exit since), `wrong_zone`
 * (the door's zone is not one the type lists), `not_inside` (an exit scan of a ticket not inside this zone).
 */
export type EntryRefusal = 'already_used' | 'not_valid_today' | 'already_inside' | 'wrong_zone' | 'not_inside';

/** The engine's verdict: the scan to record on the ticket, or why not. */
export type EntryJudgement = { ok: true; record: RecordedScan } | { ok: false; reason: EntryRefusal };

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The event-local calendar date of an instant: `YYYY-MM-DD` in the IANA `timeZone`.
 * @throws RangeError for an unknown time zone (from `Intl.DateTimeFormat`).
 */
export function eventLocalDay(at: string | Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(typeof at === 'string' ? new Date(at) : at);
  const part = (type: 'year' | 'month' | 'day') => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * True when the ticket is inside `zone`: its latest scan at that zone (by `at`, a later position winning a tie) is
 * an entry.
 */
export function isInside(history: readonly RecordedScan[], zone: string | null): boolean {
  let last: RecordedScan | undefined;
  for (const s of history) if (s.zone === zone && (!last || Date.parse(s.at) >= Date.parse(last.at))) last = s;
  return last?.direction === 'in';
}

/**
 * Judges one scan of one ticket (see the module's semantics).
 * @param rules the ticket type's rules; null or undefined: {@link DEFAULT_ENTRY_RULES}.
 * @param history the ticket's recorded scans, in any order.
 * @param scan the scan: time, the door's zone, direction and the event's time zone.
 * @returns `{ ok: true, record }` (the scan to add to the history) or `{ ok: false, reason }`.
 */
export function judgeEntry(
  rules: EntryRules | null | undefined,
  history: readonly RecordedScan[],
  scan: EntryScan,
): EntryJudgement {
  const { entries, days, zones } = rules ?? DEFAULT_ENTRY_RULES;
  const day = eventLocalDay(scan.at, scan.timeZone);
  const record: RecordedScan = { at: scan.at, direction: scan.direction, zone: scan.zone, day };
  const inside = isInside(history, scan.zone);
  if (scan.direction === 'out') return inside ? { ok: true, record } : { ok: false, reason: 'not_inside' };
  if (scan.zone !== null && zones && !zones.includes(scan.zone)) return { ok: false, reason: 'wrong_zone' };
  if (days && !days.includes(day)) return { ok: false, reason: 'not_valid_today' };
  const entered = history.filter((s) => s.direction === 'in' && s.zone === scan.zone);
  if (entries === 'once' && entered.length > 0) return { ok: false, reason: 'already_used' };
  if (entries === 'once_per_day' && entered.some((s) => s.day === day)) return { ok: false, reason: 'already_used' };
  if (entries === 'reentry' && inside) return { ok: false, reason: 'already_inside' };
  return { ok: true, record };
}

/**
 * What a pass admits, as its holder reads it (issue 48; the panel's ticket page, card and QR screen): its rule of
 * `entries`; its `days`, each `used` once it entered on that day (any zone); its `zones`; and, for `reentry` while
 * inside a zone, `insideSince` (ISO 8601 UTC): the start of the current stay, the earliest of the latest entries of
 * the zones it is inside. Absent parts: any day, every zone, not inside.
 */
export interface EntryView {
  entries: EntryKind;
  days?: { day: string; used: boolean }[];
  zones?: string[];
  insideSince?: string;
}

/**
 * The holder's view of a ticket's rules and recorded scans (see {@link EntryView}).
 * @param history the ticket's recorded scans, oldest first (the latest scan of a zone says whether it is inside).
 */
export function entryView(rules: EntryRules, history: readonly RecordedScan[]): EntryView {
  const entered = new Set(history.filter((s) => s.direction === 'in').map((s) => s.day));
  const latest = new Map<string | null, RecordedScan>();
  for (const s of history) latest.set(s.zone, s);
  const stays = [...latest.values()].filter((s) => s.direction === 'in').map((s) => s.at);
  stays.sort();
  return {
    entries: rules.entries,
    ...(rules.days ? { days: rules.days.map((day) => ({ day, used: entered.has(day) })) } : {}),
    ...(rules.zones ? { zones: rules.zones } : {}),
    ...(rules.entries === 'reentry' && stays[0] ? { insideSince: stays[0] } : {}),
  };
}
