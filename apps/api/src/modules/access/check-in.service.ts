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
 * Door keys (issue 20 point 4): besides the platform SCANNER_KEY (the operator's, every event), an
 * organisation's door key (`tpd_…`, POST /v1/org/door-keys) sees only that organisation's events, or the
 * events it was made for; any other event answers `api.access.not_for_this_event` and admits nobody.
 * Every scan the server hears of, online or synced, goes into the check-in log (issue 26 point 7) with
 * the door key, the device id the scanner sends (header `x-door-device`), the time, verdict and offline flag.
 *
 * A wallet pass's ticket code (kind 3, decision 029) names one ticket and its holder: it admits that ticket
 * only, and only while that holder still holds it (a gift, sale, swap or revocation voids it).
 *
 * Tickets the holder has listed for resale do not admit (a buyer could otherwise buy a used ticket);
 * they come back in `listedForResale` so the door can tell the holder to unlist first.
 */
import { sameSecret } from '../../lib/secrets.js';
import { access, holderDisplayName, type doorKeys } from '@tp/contract';
import type { VerifiedPass } from '@tp/contract/pass-code';
import { walletTotpAdmits } from '@tp/contract/wallet-totp';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { accessRepository as repo } from './access.repository.js';
import { checkInLogRepository as log } from '../doors/check-in-log.repository.js';
import { enqueueTicketEvents } from '../outbound-webhooks/outbound-events.js';
import type { Metrics } from '../../lib/metrics.js';

/**
 * What the key a door presented admits to: the platform key (`doorKeyId` null, every event) or an
 * organisation's door key (its events, or only `eventIds`).
 */
export interface DoorScope {
  doorKeyId: number | null;
  organisationId: number | null;
  eventIds: number[] | null;
}
/** The platform SCANNER_KEY's scope: every event. */
export const PLATFORM_SCOPE: DoorScope = { doorKeyId: null, organisationId: null, eventIds: null };

/** Who is scanning: the key's scope and the device's stable id (header `x-door-device`, or null). */
export interface Door {
  scope: DoorScope;
  deviceId: string | null;
}

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
  /** What a door key (`tpd_…`) admits to, or null when it is not a live one (DoorKeysService.scopeOf). */
  doorKeyScope: (key: string) => Promise<(Omit<DoorScope, 'doorKeyId'> & { doorKeyId: number }) | null>;
  /** Counts each judged check-in (`tp_check_ins_total`, decision 031). */
  metrics: Pick<Metrics, 'checkIn'>;
  now: () => Date;
}) {
  const { db } = deps.database;

  const service = {
    /** True when an `x-scanner-key` header value is the scanner key (compared in constant time). */
    isScannerKey(key: unknown): boolean {
      return typeof key === 'string' && sameSecret(key, deps.scannerKey);
    },

    /**
     * The scope of an `x-scanner-key` value: the platform key's (every event), a live door key's, or null
     * for anything else.
     */
    async scopeOf(key: unknown): Promise<DoorScope | null> {
      if (typeof key !== 'string' || key.length === 0) return null;
      if (service.isScannerKey(key)) return PLATFORM_SCOPE;
      return deps.doorKeyScope(key);
    },

    /** GET /access/events: the events of the door's scope not over yet, soonest start first; `startsAt` ISO 8601 UTC. */
    async events(scope: DoorScope = PLATFORM_SCOPE): Promise<access.ScannerEvent[]> {
      const rows = await repo.eventsEndingAfter(db, deps.now(), scope);
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        city: r.city,
        startsAt: r.startsAt.toISOString(),
        timeZone: r.timeZone,
      }));
    },

    /**
     * POST /access/check-in: admits the pass holder's unused tickets for the event and marks them used now;
     * logs the scan (check-in log) whatever the verdict, once the event is known.
     * @param code the scanned pass text.
     * @param door the key's scope and the device id (default: the platform key, no device).
     * @returns the holder's name (empty when they neither hold nor held a ticket of the event), `admitted`
     *   (marked used by this scan), `alreadyUsed` (with `usedAt`, ISO UTC) and `listedForResale` (not
     *   admitted); all empty when the holder holds no ticket for the event, then `movedAway` names the event's
     *   tickets that left this holder by gift or resale, or that were revoked (issue 40 point 7).
     * @throws AppError `api.access.invalid_code` (400) for a forged, malformed or expired pass, or a device
     *   code of a revoked or ended sign-in (never saying which), `api.access.stale_code` (400) for a Google
     *   Wallet rotating barcode whose TOTP is not fresh (decision 029), `api.access.event_not_found` (404),
     *   `api.access.not_for_this_event` (403) for an event outside the door key's scope,
     *   `api.access.pass_not_yet_available` (409, with `revealAt`) before the event's `passRevealAt` (issue 21).
     */
    async checkIn(
      code: string,
      eventId: number,
      door: Door = { scope: PLATFORM_SCOPE, deviceId: null },
    ): Promise<access.CheckInResponse> {
      const scannedAt = deps.now();
      const entry = { eventId, doorKeyId: door.scope.doorKeyId, deviceId: door.deviceId, scannedAt, offline: false };
      const event = await eventInScope(eventId, door.scope, async () => {
        await log.record(db, { ...entry, holderId: null, verdict: 'not_for_this_event', userTicketIds: [] });
        deps.metrics.checkIn('online', 'not_for_this_event');
      });
      const pass = await deps.verifyCode(code);
      const live = pass && (pass.sessionId === undefined || (await deps.sessionIsLive(pass.sessionId, pass.userId)));
      const holder = live ? await repo.holder(db, pass.userId) : undefined;
      if (!live || !holder) {
        await log.record(db, { ...entry, holderId: null, verdict: 'invalid', userTicketIds: [] });
        deps.metrics.checkIn('online', 'invalid');
        throw new AppError('api.access.invalid_code');
      }
      // A Google Wallet rotating barcode (decision 029): its timestamp must be timely, its TOTP the secret's.
      if (pass.totp && pass.userTicketId !== undefined) {
        const secret = await repo.walletTotpSecret(db, pass.userTicketId, pass.userId);
        if (!(await walletTotpAdmits(secret, pass.totp, Math.floor(scannedAt.getTime() / 1000)))) {
          await log.record(db, {
            ...entry,
            holderId: pass.userId,
            verdict: 'invalid',
            userTicketIds: [pass.userTicketId],
          });
          // Counted under its own reason (issue 41, point 8): a screenshot or a replayed code, not a forged pass.
          deps.metrics.checkIn('online', 'stale_code');
          throw new AppError('api.access.stale_code');
        }
      }
      const holderId = pass.userId;
      // Before the event's passRevealAt no pass admits to it (issue 21), not even one shown for another event.
      if (event.passRevealAt && scannedAt < event.passRevealAt) {
        await log.record(db, { ...entry, holderId, verdict: 'refused', userTicketIds: [] });
        deps.metrics.checkIn('online', 'not_revealed');
        throw new AppError('api.access.pass_not_yet_available', { revealAt: event.passRevealAt.toISOString() });
      }
      const answer = await db.transaction(async (tx) => {
        // A wallet pass's ticket code (decision 029) admits its one ticket, while this holder still holds it.
        const held = (await repo.lockHeldTickets(tx, holderId, eventId)).filter(
          (t) => pass.userTicketId === undefined || t.userTicketId === pass.userTicketId,
        );
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
        // Nothing held: say which of the event's tickets left this holder (or were voided), and name the holder
        // only when the event knows them (issue 40 point 7: another organisation's holder is never named).
        const movedAway = tickets.length
          ? []
          : (await repo.movedAwayTickets(tx, holderId, eventId)).filter(
              (t) => pass.userTicketId === undefined || t.userTicketId === pass.userTicketId,
            );
        const known = tickets.length > 0 || movedAway.length > 0;
        const answer: access.CheckInResponse = {
          ...access.checkInAnswer(known ? holderDisplayName(holder) : '', tickets, new Set(marked)),
          ...(movedAway.length ? { movedAway } : {}),
        };
        await log.record(tx, {
          ...entry,
          holderId,
          verdict: verdictOf(answer),
          userTicketIds: tickets.map((t) => t.userTicketId),
        });
        return answer;
      });
      const verdict = verdictOf(answer);
      deps.metrics.checkIn('online', verdict === 'admitted' ? null : verdict);
      return answer;
    },

    /**
     * GET /access/events/:eventId/admissions: one page of the event's admissions for the offline door,
     * holders by user id above `after` (at most `limit`), each with the name the door shows and every
     * ticket they hold for the event (`usedAt` ISO UTC or null, `listed`). No e-mail, no other field.
     * @throws AppError `api.access.event_not_found` (404), `api.access.not_for_this_event` (403).
     */
    async admissions(
      eventId: number,
      after: number,
      limit: number,
      scope: DoorScope = PLATFORM_SCOPE,
    ): Promise<access.AdmissionsPage> {
      const takenAt = deps.now();
      const keys = await deps.passKeys();
      await eventInScope(eventId, scope);
      return db.transaction(async (tx) => {
        const page = await repo.admissionsPage(tx, eventId, after, limit);
        const byHolder = new Map<number, access.HeldTicket[]>();
        const secrets = new Map<number, { userTicketId: number; totpSecret: string }[]>();
        for (const t of page.tickets) {
          if (t.walletTotpSecret)
            secrets.set(t.holderId!, [
              ...(secrets.get(t.holderId!) ?? []),
              { userTicketId: t.userTicketId, totpSecret: t.walletTotpSecret },
            ]);
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
          holderName: holderDisplayName(h),
          tickets: byHolder.get(h.id) ?? [],
          ...(secrets.has(h.id) && { walletTotpSecrets: secrets.get(h.id) }),
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
     * is an `invalid_pass` conflict), a Google rotating barcode's TOTP too (decision 029); each ticket the door admitted is recorded as admitted (event access
     * used at `scannedAt`) when the pass holder still holds it for this event, unused and unlisted, else
     * reported as a conflict (`moved`, `revoked`, `not_revealed` (scanned before the event's `passRevealAt`),
     * `already_used`, `listed`). Judgements are stored (door_check_ins);
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
      const results: access.SyncResult[] = [];
      for (const item of request.items) results.push(await judge(request.eventId, item, door, event.passRevealAt));
      return { results };
    },
  };

  /** One queued check-in, in one transaction (see `sync`). */
  async function judge(
    eventId: number,
    item: access.SyncItem,
    door: Door,
    revealAt: Date | null,
  ): Promise<access.SyncResult> {
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
        const admissible: number[] = [];
        for (const userTicketId of ids) {
          const row = rows.get(userTicketId);
          if (pass?.userTicketId !== undefined && userTicketId !== pass.userTicketId)
            conflicts.push({ userTicketId, reason: 'invalid_pass' });
          else if (!row || row.holderId !== holderId || row.eventId !== eventId)
            conflicts.push({ userTicketId, reason: 'moved' });
          else if (row.revokedAt) conflicts.push({ userTicketId, reason: 'revoked' });
          else if (revealAt && scannedAt < revealAt) conflicts.push({ userTicketId, reason: 'not_revealed' });
          else if (row.usedAt) conflicts.push({ userTicketId, reason: 'already_used' });
          else if (listed.has(userTicketId)) conflicts.push({ userTicketId, reason: 'listed' });
          else admissible.push(userTicketId);
        }
        admitted = await repo.markAccessUsed(tx, admissible, scannedAt);
        await enqueueTicketEvents(tx, 'ticket.checked_in', admitted, scannedAt, { eventId, offline: true });
      }
      await repo.judgeDoorCheckIn(tx, item.id, { holderId, admittedIds: admitted, conflicts });
      await log.record(tx, {
        eventId,
        doorKeyId: door.scope.doorKeyId,
        deviceId: door.deviceId,
        holderId,
        scannedAt,
        verdict: conflicts.length > 0 ? 'refused' : 'admitted',
        offline: true,
        userTicketIds: ids,
      });
      return { id: item.id, admitted, conflicts, again: false };
    });
    // An item synced before was counted then.
    if (!judged.again) deps.metrics.checkIn('offline', judged.conflicts[0]?.reason ?? null);
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

  /**
   * The event (id, organisation, `passRevealAt`) when it exists and is in the door's scope.
   * @param onRefused run (e.g. logged) before `api.access.not_for_this_event` is thrown.
   * @throws AppError `api.access.event_not_found` (404), `api.access.not_for_this_event` (403).
   */
  async function eventInScope(eventId: number, scope: DoorScope, onRefused?: () => Promise<void>) {
    const event = await repo.event(db, eventId);
    if (!event) throw new AppError('api.access.event_not_found');
    const inScope =
      (scope.organisationId === null || scope.organisationId === event.organisationId) &&
      (scope.eventIds === null || scope.eventIds.includes(eventId));
    if (inScope) return event;
    await onRefused?.();
    throw new AppError('api.access.not_for_this_event');
  }

  return service;
}

/** The check-in log's verdict of an online answer: admitted wins, then already used, listed, no ticket. */
function verdictOf(answer: access.CheckInResponse): doorKeys.CheckInLogVerdict {
  if (answer.admitted.length > 0) return 'admitted';
  if (answer.alreadyUsed.length > 0) return 'already_used';
  if (answer.listedForResale.length > 0) return 'listed';
  return 'no_ticket';
}
export type CheckInService = ReturnType<typeof createCheckInService>;
