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
 * they come back in `listedForResale` so the door can tell the holder to unlist first. Tickets returned to the
 * event's exchange queue (issue 45, decision 042) do not admit either, until sold or withdrawn: they come back in
 * `returned`, are left out of the offline door's admissions snapshot, and an offline scan of one synced later is a
 * `returned` conflict.
 *
 * Composed from its parts: door-scope.ts (who scans, which events a door sees), online-check-in.ts,
 * admissions.ts (the offline door's download) and offline-sync.ts (its queued check-ins judged).
 */
import { createAdmissions } from './admissions.js';
import { createDoorScope, type CheckInDeps } from './door-scope.js';
import { createOfflineSync } from './offline-sync.js';
import { createOnlineCheckIn } from './online-check-in.js';

export type { Door, DoorScope } from './door-scope.js';

/** The door check-in service: its parts' methods together (see above). */
export function createCheckInService(deps: CheckInDeps) {
  const { eventInScope, ...scope } = createDoorScope(deps);
  return {
    ...scope,
    ...createOnlineCheckIn(deps, { eventInScope }),
    ...createAdmissions(deps, { eventInScope }),
    ...createOfflineSync(deps, { eventInScope }),
  };
}
export type CheckInService = ReturnType<typeof createCheckInService>;
