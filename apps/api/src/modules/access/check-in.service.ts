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
import { access, displayName } from '@tp/contract';
import type { VerifiedPass } from '@tp/contract/pass-code';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { accessRepository as repo } from './access.repository.js';
import { enqueueTicketEvents } from '../organisations/webhook-events.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/** How old a synced offline scan may be, in hours (a door offline for a long festival day and night). */
export const SYNC_MAX_AGE_HOURS = 48;

export function createCheckInService(deps: {
  database: Database;
  /** The scanner key door staff must present (config `scannerKey`). */
  scannerKey: string;
  /**
   * Checks a scanned pass with the public keys (AccessService.verifyCode) as of `at` (default now; a
   * synced offline scan's time): what it says, or null.
   */
  verifyCode: (text: string, at?: Date) => Promise<VerifiedPass | null>;
  /** True when a device code's sign-in session is neither revoked nor ended (AccessService.sessionIsLive). */
  sessionIsLive: (sessionId: string, userId: number) => Promise<boolean>;
  /**
   * What verifies passes with no server (AccessService.passKeys): raw Ed25519 public keys (base64url,
   * current first), the time step (seconds) and the device-code skew allowance (steps).
   */
  passKeys: () => Promise<{ publicKeys: string[]; ttl: number; skewSteps: number }>;
  now: () => Date;
}) {
  const { db } = deps.database;
  const expectedKey = sha256(deps.scannerKey);

  const service = {
    /** True when an `x-scanner-key` header value is the scanner key (compared in constant time). */
    isScannerKey(key: unknown): boolean {
      return typeof key === 'string' && key.length > 0 && timingSafeEqual(sha256(key), expectedKey);
    },

    /** GET /access/events: events not over yet, soonest start first; `startsAt` ISO 8601 UTC. */
    async events(): Promise<access.ScannerEvent[]> {
      const rows = await repo.eventsEndingAfter(db, deps.now());
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        city: r.city,
        startsAt: r.startsAt.toISOString(),
        timeZone: r.timeZone,
      }));
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
        const tickets: access.HeldTicket[] = held.map((t) => ({
          userTicketId: t.userTicketId,
          ticketName: t.ticketName,
          usedAt: t.usedAt?.toISOString() ?? null,
          listed: listed.has(t.userTicketId),
        }));
        const at = deps.now();
        const marked = await repo.markAccessUsed(tx, access.admissibleTicketIds(tickets), at);
        await enqueueTicketEvents(tx, 'ticket.checked_in', marked, at, { eventId });
        return access.checkInAnswer(displayName(holder), tickets, new Set(marked));
      });
    },

    /**
     * GET /access/events/:eventId/admissions: one page of the event's admissions for the offline door,
     * holders by user id above `after` (at most `limit`), each with the name the door shows and every
     * ticket they hold for the event (`usedAt` ISO UTC or null, `listed`). No e-mail, no other field.
     * @throws AppError `api.access.event_not_found` (404).
     */
    async admissions(eventId: number, after: number, limit: number): Promise<access.AdmissionsPage> {
      const takenAt = deps.now();
      const keys = await deps.passKeys();
      return db.transaction(async (tx) => {
        if (!(await repo.event(tx, eventId))) throw new AppError('api.access.event_not_found');
        const page = await repo.admissionsPage(tx, eventId, after, limit);
        const byHolder = new Map<number, access.HeldTicket[]>();
        for (const t of page.tickets) {
          const list = byHolder.get(t.holderId!) ?? [];
          list.push({
            userTicketId: t.userTicketId,
            ticketName: t.ticketName,
            usedAt: t.usedAt?.toISOString() ?? null,
            listed: t.listed,
          });
          byHolder.set(t.holderId!, list);
        }
        const holders = page.holders.map((h) => ({
          userId: h.id,
          holderName: displayName(h),
          tickets: byHolder.get(h.id) ?? [],
        }));
        return {
          eventId,
          takenAt: takenAt.toISOString(),
          passPublicKeys: keys.publicKeys,
          passTtlSeconds: keys.ttl,
          passSkewSteps: keys.skewSteps,
          holders,
          nextAfter: holders.length === limit ? holders[holders.length - 1].userId : null,
        };
      });
    },

    /**
     * POST /access/sync: judges the check-ins an offline door queued, each in its own transaction, the
     * server staying the judge. For each item: the pass must verify as of `scannedAt` (else every ticket
     * is an `invalid_pass` conflict); each ticket the door admitted is recorded as admitted (event access
     * used at `scannedAt`) when the pass holder still holds it for this event, unused and unlisted, else
     * reported as a conflict (`moved`, `already_used`, `listed`). Judgements are stored (door_check_ins);
     * an item id synced before gets its stored judgement back and changes nothing.
     * `scannedAt` may not be after now (+1 min of clock skew) nor older than {@link SYNC_MAX_AGE_HOURS}.
     * @throws AppError `api.access.event_not_found` (404), `api.access.sync_bad_time` (400).
     */
    async sync(request: access.SyncRequest): Promise<access.SyncResponse> {
      if (!(await repo.event(db, request.eventId))) throw new AppError('api.access.event_not_found');
      const now = deps.now().getTime();
      for (const item of request.items) {
        const at = Date.parse(item.scannedAt);
        if (at > now + 60_000 || at < now - SYNC_MAX_AGE_HOURS * 3_600_000)
          throw new AppError('api.access.sync_bad_time');
      }
      const results: access.SyncResult[] = [];
      for (const item of request.items) results.push(await judge(request.eventId, item));
      return { results };
    },
  };

  /** One queued check-in, in one transaction (see `sync`). */
  async function judge(eventId: number, item: access.SyncItem): Promise<access.SyncResult> {
    return db.transaction(async (tx) => {
      const scannedAt = new Date(item.scannedAt);
      if (!(await repo.claimDoorCheckIn(tx, { id: item.id, eventId, scannedAt }))) {
        const stored = await repo.doorCheckIn(tx, item.id);
        return {
          id: item.id,
          admitted: stored.admittedIds,
          conflicts: stored.conflicts as access.SyncResult['conflicts'],
        };
      }
      const ids = [...new Set(item.userTicketIds)].sort((a, b) => a - b);
      // The pass as of the scan; a device code of a sign-in revoked since is refused too.
      const pass = await deps.verifyCode(item.code, scannedAt);
      const live = pass && (pass.sessionId === undefined || (await deps.sessionIsLive(pass.sessionId, pass.userId)));
      const holderId = live ? pass.userId : null;
      const conflicts: access.SyncResult['conflicts'] = [];
      let admitted: number[] = [];
      if (holderId === null) {
        for (const userTicketId of ids) conflicts.push({ userTicketId, reason: 'invalid_pass' });
      } else {
        const rows = new Map((await repo.lockTickets(tx, ids)).map((r) => [r.userTicketId, r]));
        const listed = await repo.listedAmong(tx, ids);
        const admissible: number[] = [];
        for (const userTicketId of ids) {
          const row = rows.get(userTicketId);
          if (!row || row.holderId !== holderId || row.eventId !== eventId)
            conflicts.push({ userTicketId, reason: 'moved' });
          else if (row.revokedAt) conflicts.push({ userTicketId, reason: 'revoked' });
          else if (row.usedAt) conflicts.push({ userTicketId, reason: 'already_used' });
          else if (listed.has(userTicketId)) conflicts.push({ userTicketId, reason: 'listed' });
          else admissible.push(userTicketId);
        }
        admitted = await repo.markAccessUsed(tx, admissible, scannedAt);
        await enqueueTicketEvents(tx, 'ticket.checked_in', admitted, scannedAt, { eventId, offline: true });
      }
      await repo.judgeDoorCheckIn(tx, item.id, { holderId, admittedIds: admitted, conflicts });
      return { id: item.id, admitted, conflicts };
    });
  }
  return service;
}
export type CheckInService = ReturnType<typeof createCheckInService>;
