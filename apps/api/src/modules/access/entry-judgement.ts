/**
 * The server's one judgement of a door scan by the entry rules (issue 48, decision 050), shared by the online
 * check-in and the offline sync inside their locking transaction: the tickets' recorded scans read, the contract's
 * engine applied (`judgeHeldTickets`), what it counts recorded (ticket_scans) and a first entry marked as event
 * access used.
 */
import { access } from '@tp/contract';
import type { DbOrTx } from '../../db/client.js';
import { accessRepository as repo, type ScanRow } from './access.repository.js';

/** A locked ticket to judge: as `lockHeldTickets` or `lockTickets` read it, and whether it is listed for resale. */
export interface TicketToJudge {
  userTicketId: number;
  ticketName: string;
  usedAt: Date | null;
  entryRules: access.EntryRules | null;
  listed: boolean;
}

/** The scan: its event, when, at which zone, which way, by which door key (null: platform), online or not. */
export interface ScanAt {
  eventId: number;
  timeZone: string;
  at: Date;
  zone: string | null;
  direction: access.RecordedScan['direction'];
  doorKeyId: number | null;
  offline: boolean;
}

/**
 * Judges a scan for these tickets on their recorded scans (pure: what `judgeAndRecord` does between its reads and
 * writes). Tickets with no recorded scan are read from `usedAt` (contract `scansOf`).
 * @returns `held` (the tickets as the engine saw them), `verdicts` per ticket id and `rows`: the scans to record,
 *   by ascending ticket id.
 */
export function judgeScan(
  tickets: readonly TicketToJudge[],
  scans: ReadonlyMap<number, access.RecordedScan[]>,
  scan: ScanAt,
) {
  const held: access.HeldTicket[] = tickets.map((t) => ({
    userTicketId: t.userTicketId,
    ticketName: t.ticketName,
    usedAt: t.usedAt?.toISOString() ?? null,
    listed: t.listed,
    entryRules: t.entryRules,
    ...(scans.has(t.userTicketId) && { scans: scans.get(t.userTicketId) }),
  }));
  const at = scan.at.toISOString();
  const verdicts = access.judgeHeldTickets(held, {
    at,
    zone: scan.zone,
    direction: scan.direction,
    timeZone: scan.timeZone,
  });
  const rows: ScanRow[] = [...verdicts]
    .flatMap(([userTicketId, v]) =>
      v.ok
        ? [{ userTicketId, eventId: scan.eventId, record: v.record, doorKeyId: scan.doorKeyId, offline: scan.offline }]
        : [],
    )
    .sort((x, y) => x.userTicketId - y.userTicketId);
  return { held, verdicts, rows };
}

/**
 * Judges a scan for these locked tickets (`judgeScan` on their recorded scans) and records what counts.
 * @returns `held` (the tickets as the engine saw them), `verdicts` per ticket id, and `firstEntries`: the tickets
 *   this entry marked event access used (their first entry; `user_tickets.event_access_used_at`), ascending.
 */
export async function judgeAndRecord(tx: DbOrTx, tickets: readonly TicketToJudge[], scan: ScanAt) {
  const scans = await repo.scansOf(
    tx,
    tickets.map((t) => t.userTicketId),
  );
  const { held, verdicts, rows } = judgeScan(tickets, scans, scan);
  await repo.recordScans(tx, rows);
  const recorded = rows.map((r) => r.userTicketId);
  const firstEntries = scan.direction === 'in' ? await repo.markAccessUsed(tx, recorded, scan.at) : [];
  return { held, verdicts, firstEntries };
}

/** The direction of a scan that names none: the door's mode (`exit` → `out`, else `in`). */
export const directionOf = (
  asked: access.RecordedScan['direction'] | undefined,
  mode: access.DoorMode,
): access.RecordedScan['direction'] => asked ?? (mode === 'exit' ? 'out' : 'in');
