/**
 * Online check-in (POST /v1/access/check-in): a scanned pass admits the tickets its holder holds for the event,
 * marked used in one transaction that locks them; every scan goes into the check-in log and the metrics. See
 * check-in.service.ts for the rules.
 */
import { access, holderDisplayName, type doorKeys } from '@tp/contract';
import { walletTotpAdmits } from '@tp/contract/wallet-totp';
import { AppError } from '../../lib/app-error.js';
import { accessRepository as repo } from './access.repository.js';
import { checkInLogRepository as log } from '../doors/check-in-log.repository.js';
import { enqueueTicketEvents } from '../outbound-webhooks/outbound-events.js';
import { PLATFORM_SCOPE, type CheckInDeps, type Door, type DoorScopes } from './door-scope.js';
import { directionOf, judgeAndRecord } from './entry-judgement.js';

/** The online check-in part: `checkIn`. */
export function createOnlineCheckIn(deps: CheckInDeps, scopes: Pick<DoorScopes, 'eventInScope'>) {
  const { db } = deps.database;
  const { eventInScope } = scopes;
  return {
    /**
     * POST /access/check-in: judges the scan for each ticket the pass holder holds for the event by its type's entry
     * rules (decision 050; at the door key's zone, `direction` default the key's mode), records what counts (a first
     * entry also marks event access used); logs the scan (check-in log, with the rule that decided) whatever the
     * verdict, once the event is known.
     * @param code the scanned pass text.
     * @param door the key's scope and the device id (default: the platform key, no device).
     * @param direction `in` or `out`; absent: the door key's mode.
     * @returns the holder's name (empty when they neither hold nor held a ticket of the event), `admitted`
     *   (entered by this scan), `exited` (let out by it), `refused` (by another entry rule, with its reason),
     *   `alreadyUsed` (with `usedAt`, ISO UTC), `listedForResale` and `returned`
     *   (returned to the exchange queue, decision 042; both not admitted); all empty when the holder holds no ticket for the event, then `movedAway` names the event's
     *   tickets that left this holder by gift or resale, or that were revoked (issue 40 point 7).
     * @throws AppError `api.access.invalid_code` (400) for a forged, malformed or expired pass, or a device
     *   code of a revoked or ended sign-in (never saying which), `api.access.stale_code` (400) for a Google
     *   Wallet rotating barcode whose TOTP is not fresh (decision 029), `api.access.event_not_found` (404),
     *   `api.access.not_for_this_event` (403) for an event outside the door key's scope,
     *   `api.access.pass_not_yet_available` (409, with `revealAt`) before the event's `passRevealAt` (issue 21),
     *   `api.access.event_cancelled` (409) once the organiser cancelled the event (issue 46).
     */
    async checkIn(
      code: string,
      eventId: number,
      door: Door = { scope: PLATFORM_SCOPE, deviceId: null },
      direction?: access.RecordedScan['direction'],
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
      // A cancelled event admits no one (issue 46, decision 045); the door says why.
      if (event.cancelledAt) {
        await log.record(db, { ...entry, holderId, verdict: 'refused', userTicketIds: [] });
        deps.metrics.checkIn('online', 'event_cancelled');
        throw new AppError('api.access.event_cancelled');
      }
      // Before the event's passRevealAt no pass admits to it (issue 21), not even one shown for another event.
      if (event.passRevealAt && scannedAt < event.passRevealAt) {
        await log.record(db, { ...entry, holderId, verdict: 'refused', userTicketIds: [] });
        deps.metrics.checkIn('online', 'not_revealed');
        throw new AppError('api.access.pass_not_yet_available', { revealAt: event.passRevealAt.toISOString() });
      }
      const answer = await db.transaction(async (tx) => {
        // A wallet pass's ticket code (decision 029) admits its one ticket, while this holder still holds it.
        const locked = (await repo.lockHeldTickets(tx, holderId, eventId)).filter(
          (t) => pass.userTicketId === undefined || t.userTicketId === pass.userTicketId,
        );
        const lockedIds = locked.map((t) => t.userTicketId);
        // A ticket returned to the exchange queue (decision 042) stays the holder's but takes no part in the
        // admission rule: it is answered in `returned` alone, as the offline snapshot leaves it out.
        const returnedIds = await repo.returnedAmong(tx, lockedIds);
        const held = locked.filter((t) => !returnedIds.has(t.userTicketId));
        const returned = locked
          .filter((t) => returnedIds.has(t.userTicketId))
          .map((t) => ({ userTicketId: t.userTicketId, ticketName: t.ticketName }));
        const listed = await repo.listedAmong(
          tx,
          held.map((t) => t.userTicketId),
        );
        const at = deps.now();
        const {
          held: tickets,
          verdicts,
          firstEntries,
        } = await judgeAndRecord(
          tx,
          held.map((t) => ({ ...t, listed: listed.has(t.userTicketId) })),
          {
            eventId,
            timeZone: event.timeZone,
            at,
            zone: door.scope.zone,
            direction: directionOf(direction, door.scope.mode),
            doorKeyId: door.scope.doorKeyId,
            offline: false,
          },
        );
        await enqueueTicketEvents(tx, 'ticket.checked_in', firstEntries, at, { eventId });
        // Nothing held: say which of the event's tickets left this holder (or were voided), and name the holder
        // only when the event knows them (issue 40 point 7: another organisation's holder is never named).
        const movedAway = locked.length
          ? []
          : (await repo.movedAwayTickets(tx, holderId, eventId)).filter(
              (t) => pass.userTicketId === undefined || t.userTicketId === pass.userTicketId,
            );
        const known = locked.length > 0 || movedAway.length > 0;
        const answer: access.CheckInResponse = {
          ...access.checkInAnswer(known ? holderDisplayName(holder) : '', tickets, verdicts),
          ...(returned.length ? { returned } : {}),
          ...(movedAway.length ? { movedAway } : {}),
        };
        await log.record(tx, {
          ...entry,
          holderId,
          verdict: verdictOf(answer),
          userTicketIds: lockedIds,
        });
        return answer;
      });
      const verdict = verdictOf(answer);
      deps.metrics.checkIn('online', verdict === 'admitted' ? null : verdict);
      return answer;
    },
  };
}

/**
 * The check-in log's verdict of an online answer: admitted wins, then exited, already used, listed, returned, the
 * first other entry rule that refused (decision 050), no ticket.
 */
function verdictOf(answer: access.CheckInResponse): doorKeys.CheckInLogVerdict {
  if (answer.admitted.length > 0) return 'admitted';
  if (answer.exited?.length) return 'exited';
  if (answer.alreadyUsed.length > 0) return 'already_used';
  if (answer.listedForResale.length > 0) return 'listed';
  if (answer.returned?.length) return 'returned';
  return answer.refused?.[0]?.reason ?? 'no_ticket';
}
