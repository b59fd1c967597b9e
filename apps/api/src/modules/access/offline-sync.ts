/**
 * Offline sync (POST /v1/access/sync): the check-ins an offline door queued, judged by the server one by one, each
 * in its own transaction; judgements are stored so a re-sent item gets its first answer back.
 */
import { access } from '@tp/contract';
import type { VerifiedPass } from '@tp/contract/pass-code';
import { walletTotpAdmits } from '@tp/contract/wallet-totp';
import { AppError } from '../../lib/app-error.js';
import { accessRepository as repo } from './access.repository.js';
import { checkInLogRepository as log } from '../doors/check-in-log.repository.js';
import { enqueueTicketEvents } from '../outbound-webhooks/outbound-events.js';
import { PLATFORM_SCOPE, type CheckInDeps, type Door, type DoorScopes } from './door-scope.js';
import { directionOf, judgeAndRecord, type TicketToJudge } from './entry-judgement.js';

/** How old a synced offline scan may be, in hours (a door offline for a long festival day and night). */
export const SYNC_MAX_AGE_HOURS = 48;

/**
 * A sync batch's items in the order they were scanned (`scannedAt`; the door queues them so, a batch out of order is
 * put in order; equal times keep their order): the order the server judges them in (decision 050).
 */
export const inScanOrder = <T extends { scannedAt: string }>(items: readonly T[]): T[] =>
  [...items].sort((x, y) => Date.parse(x.scannedAt) - Date.parse(y.scannedAt));

/** The offline sync part: `sync`. */
export function createOfflineSync(deps: CheckInDeps, scopes: Pick<DoorScopes, 'eventInScope'>) {
  const { db } = deps.database;
  const { eventInScope } = scopes;
  /** One queued check-in, in one transaction (see `sync`). */
  async function judge(
    event: { id: number; timeZone: string; passRevealAt: Date | null; cancelledAt: Date | null },
    item: access.SyncItem,
    door: Door,
  ): Promise<access.SyncResult> {
    const { id: eventId, passRevealAt: revealAt } = event;
    const cancelled = event.cancelledAt !== null;
    const direction = directionOf(item.direction, door.scope.mode);
    const scannedAt = new Date(item.scannedAt);
    // The pass as of the scan; a device code of a sign-in revoked since is refused too. Checked before the
    // transaction: the session lookup reads outside it, and PGlite's one connection would wait for it forever.
    const pass = await deps.verifyCode(item.code, scannedAt);
    const live =
      pass &&
      (pass.sessionId === undefined || (await deps.sessionIsLive(pass.sessionId, pass.userId))) &&
      (await rotatingCodeAdmits(pass, scannedAt));
    const judged = await db.transaction(async (tx) => {
      if (!(await repo.claimDoorCheckIn(tx, { id: item.id, eventId, scannedAt }))) {
        const stored = await repo.doorCheckIn(tx, item.id);
        return {
          id: item.id,
          admitted: stored.admittedIds,
          conflicts: stored.conflicts as access.SyncResult['conflicts'],
          again: true,
        };
      }
      const ids = [...new Set(item.userTicketIds)].sort((a, b) => a - b);
      const holderId = live ? pass.userId : null;
      const conflicts: access.SyncResult['conflicts'] = [];
      let admitted: number[] = [];
      if (holderId === null) {
        for (const userTicketId of ids) conflicts.push({ userTicketId, reason: 'invalid_pass' });
      } else {
        const rows = new Map((await repo.lockTickets(tx, ids)).map((r) => [r.userTicketId, r]));
        const listed = await repo.listedAmong(tx, ids);
        const returned = await repo.returnedAmong(tx, ids);
        const toJudge: TicketToJudge[] = [];
        for (const userTicketId of ids) {
          const row = rows.get(userTicketId);
          if (pass?.userTicketId !== undefined && userTicketId !== pass.userTicketId)
            conflicts.push({ userTicketId, reason: 'invalid_pass' });
          else if (!row || row.holderId !== holderId || row.eventId !== eventId)
            conflicts.push({ userTicketId, reason: 'moved' });
          // The organiser cancelled the event (issue 46): nothing of it admits, even scanned before the cancel.
          else if (cancelled) conflicts.push({ userTicketId, reason: 'event_cancelled' });
          else if (row.revokedAt) conflicts.push({ userTicketId, reason: row.revokedReason ? 'refunded' : 'revoked' });
          else if (revealAt && scannedAt < revealAt) conflicts.push({ userTicketId, reason: 'not_revealed' });
          else if (returned.has(userTicketId)) conflicts.push({ userTicketId, reason: 'returned' });
          else toJudge.push({ ...row, listed: listed.has(userTicketId) });
        }
        // The entry rules (decision 050) against every scan the server has recorded on the ticket.
        const { verdicts, firstEntries } = await judgeAndRecord(tx, toJudge, {
          eventId,
          timeZone: event.timeZone,
          at: scannedAt,
          zone: door.scope.zone,
          direction,
          doorKeyId: door.scope.doorKeyId,
          offline: true,
        });
        for (const [userTicketId, verdict] of verdicts)
          if (!verdict.ok) conflicts.push({ userTicketId, reason: verdict.reason });
        conflicts.sort((x, y) => x.userTicketId - y.userTicketId);
        admitted = access.recordedIds(verdicts);
        await enqueueTicketEvents(tx, 'ticket.checked_in', firstEntries, scannedAt, { eventId, offline: true });
      }
      await repo.judgeDoorCheckIn(tx, item.id, { holderId, admittedIds: admitted, conflicts });
      await log.record(tx, {
        eventId,
        doorKeyId: door.scope.doorKeyId,
        deviceId: door.deviceId,
        holderId,
        scannedAt,
        verdict: conflicts.length > 0 ? 'refused' : direction === 'out' ? 'exited' : 'admitted',
        offline: true,
        userTicketIds: ids,
      });
      return { id: item.id, admitted, conflicts, again: false };
    });
    // An item synced before was counted then.
    if (!judged.again)
      deps.metrics.checkIn('offline', judged.conflicts[0]?.reason ?? (direction === 'out' ? 'exited' : null));
    return { id: judged.id, admitted: judged.admitted, conflicts: judged.conflicts };
  }
  /**
   * A synced Google Wallet rotating barcode (decision 029) as of its scan: its TOTP timestamp within
   * `WALLET_TOTP_MAX_SKEW_SECONDS` of `scannedAt` and its value the pass's secret's (where the pass still has one),
   * so a code shown long before the scan (a 10-minute-old screenshot) is `invalid_pass`; true for every other code.
   */
  async function rotatingCodeAdmits(pass: VerifiedPass, scannedAt: Date): Promise<boolean> {
    if (!pass.totp || pass.userTicketId === undefined) return true;
    const secret = await repo.walletTotpSecret(db, pass.userTicketId, pass.userId);
    return walletTotpAdmits(secret, pass.totp, Math.floor(scannedAt.getTime() / 1000));
  }

  return {
    /**
     * POST /access/sync: judges the check-ins an offline door queued, each in its own transaction, the
     * server staying the judge. For each item: the pass must verify as of `scannedAt` (else every ticket
     * is an `invalid_pass` conflict), a Google rotating barcode's TOTP too (decision 029); each ticket the door admitted is recorded as admitted (event access
     * used at `scannedAt`) when the pass holder still holds it for this event, unused, unlisted and not returned to
     * the exchange queue, else reported as a conflict (`moved`, `revoked`, `not_revealed` (scanned before the event's
     * `passRevealAt`), `already_used`, `listed`, `returned` (decision 042)). Judgements are stored (door_check_ins);
     * an item id synced before gets its stored judgement back and changes nothing.
     * `scannedAt` may not be after now (+1 min of clock skew) nor older than {@link SYNC_MAX_AGE_HOURS}.
     * Each judged item goes into the check-in log (offline, `admitted` or `refused`).
     * @throws AppError `api.access.event_not_found` (404), `api.access.not_for_this_event` (403),
     *   `api.access.sync_bad_time` (400).
     */
    async sync(
      request: access.SyncRequest,
      door: Door = { scope: PLATFORM_SCOPE, deviceId: null },
    ): Promise<access.SyncResponse> {
      const event = await eventInScope(request.eventId, door.scope);
      const now = deps.now().getTime();
      for (const item of request.items) {
        const at = Date.parse(item.scannedAt);
        if (at > now + 60_000 || at < now - SYNC_MAX_AGE_HOURS * 3_600_000)
          throw new AppError('api.access.sync_bad_time');
      }
      const results = new Map<string, access.SyncResult>();
      for (const item of inScanOrder(request.items)) results.set(item.id, await judge(event, item, door));
      return { results: request.items.map((item) => results.get(item.id)!) };
    },
  };
}
