/**
 * The door's admission rule (decisions 003 and 050), pure and with no dependency, so the server's check-in
 * (apps/api online-check-in.ts), its judgement of synced offline scans (offline-sync.ts) and the offline door
 * (apps/panel src/scanner/offline-check-in.ts) apply the same code. Re-exported by access.ts.
 */
import type { CheckInResponse, HeldTicket } from './access.js';
import { eventLocalDay, judgeEntry, type EntryJudgement, type EntryScan, type RecordedScan } from './entry-rules.js';

/** Most holders in one page of GET /access/events/:eventId/admissions. */
export const ADMISSIONS_PAGE_MAX = 1000;

/** Most queued check-ins in one POST /access/sync. */
export const SYNC_BATCH_MAX = 100;

/** A held ticket's verdict: the entry rules' (entry-rules.ts), or `listed` for an entry the rules allow. */
export type TicketVerdict = EntryJudgement | { ok: false; reason: 'listed' };

/**
 * A ticket's recorded scans: its `scans`, or for a ticket read without them (a snapshot kept from before issue 48)
 * one entry at `usedAt` at no zone when used.
 * @param timeZone the event's IANA time zone (the day of that entry).
 */
export function scansOf(ticket: Pick<HeldTicket, 'scans' | 'usedAt'>, timeZone: string): RecordedScan[] {
  if (ticket.scans) return ticket.scans;
  return ticket.usedAt
    ? [{ at: ticket.usedAt, direction: 'in', zone: null, day: eventLocalDay(ticket.usedAt, timeZone) }]
    : [];
}

/**
 * Judges a scan for each of the holder's tickets: the entry rules' verdict on its history (`judgeEntry`), and an
 * entry the rules allow of a ticket listed for resale is `listed` (decision 003: it does not admit until unlisted).
 * Tickets are judged on their own: one refused does not stop another.
 * @returns the verdict per `userTicketId`; the `ok` ones are what the door records (`record`).
 */
export function judgeHeldTickets(held: readonly HeldTicket[], scan: EntryScan): Map<number, TicketVerdict> {
  const out = new Map<number, TicketVerdict>();
  for (const t of held) {
    const verdict = judgeEntry(t.entryRules, scansOf(t, scan.timeZone), scan);
    out.set(
      t.userTicketId,
      verdict.ok && scan.direction === 'in' && t.listed ? { ok: false, reason: 'listed' } : verdict,
    );
  }
  return out;
}

/** The ids of the tickets a judgement records (its `ok` verdicts), ascending. */
export const recordedIds = (verdicts: ReadonlyMap<number, TicketVerdict>): number[] =>
  [...verdicts]
    .filter(([, v]) => v.ok)
    .map(([id]) => id)
    .sort((a, b) => a - b);

/**
 * The door's answer once the `ok` verdicts of {@link judgeHeldTickets} were recorded: an entry recorded goes to
 * `admitted`, an exit to `exited`, `already_used` to `alreadyUsed` (with the latest entry's time, else `usedAt`),
 * `listed` to `listedForResale`, any other refusal to `refused` (with the type's days and zones). `exited` and
 * `refused` appear only when not empty, so an answer of the rules of before issue 48 reads as it did.
 */
export function checkInAnswer(
  holderName: string,
  held: readonly HeldTicket[],
  verdicts: ReadonlyMap<number, TicketVerdict>,
): CheckInResponse {
  const out: CheckInResponse = { holderName, admitted: [], alreadyUsed: [], listedForResale: [] };
  const exited: NonNullable<CheckInResponse['exited']> = [];
  const refused: NonNullable<CheckInResponse['refused']> = [];
  for (const t of held) {
    const verdict = verdicts.get(t.userTicketId);
    if (!verdict) continue;
    const ticket = { userTicketId: t.userTicketId, ticketName: t.ticketName };
    if (verdict.ok) (verdict.record.direction === 'in' ? out.admitted : exited).push(ticket);
    else if (verdict.reason === 'listed') out.listedForResale.push(ticket);
    else if (verdict.reason === 'already_used') out.alreadyUsed.push({ ...ticket, usedAt: lastEntry(t) });
    else
      refused.push({
        ...ticket,
        reason: verdict.reason,
        ...(t.entryRules?.days && { days: t.entryRules.days }),
        ...(t.entryRules?.zones && { zones: t.entryRules.zones }),
      });
  }
  return { ...out, ...(exited.length && { exited }), ...(refused.length && { refused }) };
}

/** The latest entry of a ticket refused as used (ISO UTC): its latest `in` scan, else `usedAt`. */
function lastEntry(t: HeldTicket): string {
  const entries = (t.scans ?? []).filter((s) => s.direction === 'in').map((s) => s.at);
  return entries.sort().at(-1) ?? t.usedAt ?? '';
}
