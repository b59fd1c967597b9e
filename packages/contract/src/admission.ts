/**
 * The door's admission rule (decision 003), pure and with no dependency, so the server's check-in
 * (apps/api check-in.service.ts) and the offline door (apps/panel src/scanner/offline-door.ts) apply
 * the same code. Re-exported by access.ts.
 */
import type { CheckInResponse, HeldTicket } from './access.js';

/** Most holders in one page of GET /access/events/:eventId/admissions. */
export const ADMISSIONS_PAGE_MAX = 1000;

/** Most queued check-ins in one POST /access/sync. */
export const SYNC_BATCH_MAX = 100;

/**
 * Which of the holder's tickets a scan admits (decision 003): every ticket whose event access is
 * unused and that is not listed for resale. Pure; the server marks these used in its transaction, the
 * offline door in its snapshot.
 */
export const admissibleTicketIds = (held: readonly HeldTicket[]): number[] =>
  held.filter((t) => t.usedAt === null && !t.listed).map((t) => t.userTicketId);

/**
 * The door's answer once `admittedIds` (a subset of {@link admissibleTicketIds}) were marked used:
 * used tickets go to `alreadyUsed`, marked ones to `admitted`, listed ones to `listedForResale`.
 */
export function checkInAnswer(
  holderName: string,
  held: readonly HeldTicket[],
  admittedIds: ReadonlySet<number>,
): CheckInResponse {
  const out: CheckInResponse = { holderName, admitted: [], alreadyUsed: [], listedForResale: [] };
  for (const t of held) {
    const ticket = { userTicketId: t.userTicketId, ticketName: t.ticketName };
    if (t.usedAt !== null) out.alreadyUsed.push({ ...ticket, usedAt: t.usedAt });
    else if (admittedIds.has(t.userTicketId)) out.admitted.push(ticket);
    else if (t.listed) out.listedForResale.push(ticket);
  }
  return out;
}
