/**
 * Door check-in (DESIGN: the door-scanner page; spec section 2, QR: "the giver's QR no longer admits
 * that ticket", "the seller's QR no longer admits them").
 *
 * Door staff authenticate with the scanner key (`x-scanner-key` = config SCANNER_KEY). A scanned pass
 * (a `TP2.` server or device code, see `@tp/contract/pass-code` and decision 010) names its holder; a
 * device code is refused when its sign-in session was revoked (logout) or has ended, which only an
 * online door can know; the check-in admits the tickets
 * that user HOLDS for the chosen event (holder_id = user), so a ticket gifted or sold away no longer
 * admits on the old holder's pass, and a ticket held under a resale code (holder_id null) admits nobody
 * until it is redeemed. Admission marks `event_access_used_at` in one transaction that locks the holder's
 * tickets for the event, so parallel scans of one pass admit each ticket once.
 *
 * Tickets the holder has listed for resale do not admit (a buyer could otherwise buy a used ticket);
 * they come back in `listedForResale` so the door can tell the holder to unlist first.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { displayName, type access } from '@tp/contract';
import type { VerifiedPass } from '@tp/contract/pass-code';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { accessRepository as repo } from './access.repository.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest();

export function createCheckInService(deps: {
  database: Database;
  /** The scanner key door staff must present (config `scannerKey`). */
  scannerKey: string;
  /** Checks a scanned pass with the public keys (AccessService.verifyCode): what it says, or null. */
  verifyCode: (text: string) => Promise<VerifiedPass | null>;
  /** True when a device code's sign-in session is neither revoked nor ended (AccessService.sessionIsLive). */
  sessionIsLive: (sessionId: string, userId: number) => Promise<boolean>;
  now: () => Date;
}) {
  const { db } = deps.database;
  const expectedKey = sha256(deps.scannerKey);

  return {
    /** True when an `x-scanner-key` header value is the scanner key (compared in constant time). */
    isScannerKey(key: unknown): boolean {
      return typeof key === 'string' && key.length > 0 && timingSafeEqual(sha256(key), expectedKey);
    },

    /** GET /access/events: events not over yet, soonest start first; `startsAt` ISO 8601 UTC. */
    async events(): Promise<access.ScannerEvent[]> {
      const rows = await repo.eventsEndingAfter(db, deps.now());
      return rows.map((r) => ({ id: r.id, name: r.name, city: r.city, startsAt: r.startsAt.toISOString() }));
    },

    /**
     * POST /access/check-in: admits the pass holder's unused tickets for the event and marks them used now.
     * @param code the scanned pass text.
     * @returns the holder's name, `admitted` (marked used by this scan), `alreadyUsed` (with `usedAt`, ISO
     *   UTC) and `listedForResale` (not admitted); all empty when the holder holds no ticket for the event.
     * @throws AppError `api.access.invalid_code` (400) for a forged, malformed or expired pass, or a device
     *   code of a revoked or ended sign-in (never saying which), `api.access.event_not_found` (404).
     */
    async checkIn(code: string, eventId: number): Promise<access.CheckInResponse> {
      const pass = await deps.verifyCode(code);
      if (!pass) throw new AppError('api.access.invalid_code');
      if (pass.sessionId !== undefined && !(await deps.sessionIsLive(pass.sessionId, pass.userId)))
        throw new AppError('api.access.invalid_code');
      const holderId = pass.userId;
      return db.transaction(async (tx) => {
        if (!(await repo.event(tx, eventId))) throw new AppError('api.access.event_not_found');
        const holder = await repo.holder(tx, holderId);
        if (!holder) throw new AppError('api.access.invalid_code');
        const held = await repo.lockHeldTickets(tx, holderId, eventId);
        const listed = await repo.listedAmong(
          tx,
          held.map((t) => t.userTicketId),
        );
        const at = deps.now();
        const marked = new Set(
          await repo.markAccessUsed(
            tx,
            held.filter((t) => t.usedAt === null && !listed.has(t.userTicketId)).map((t) => t.userTicketId),
            at,
          ),
        );
        const out: access.CheckInResponse = {
          holderName: displayName(holder),
          admitted: [],
          alreadyUsed: [],
          listedForResale: [],
        };
        for (const t of held) {
          const ticket = { userTicketId: t.userTicketId, ticketName: t.ticketName };
          if (t.usedAt) out.alreadyUsed.push({ ...ticket, usedAt: t.usedAt.toISOString() });
          else if (marked.has(t.userTicketId)) out.admitted.push(ticket);
          else if (listed.has(t.userTicketId)) out.listedForResale.push(ticket);
        }
        return out;
      });
    },
  };
}
export type CheckInService = ReturnType<typeof createCheckInService>;
