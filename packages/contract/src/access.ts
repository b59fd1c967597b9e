/**
 * Access payloads: the holder's QR pass (GET /auth/access/qrCodeData and /auth/access/qr) and the
 * door check-in used by the scanner page (POST /access/check-in, GET /access/events; header
 * `x-scanner-key`).
 */
import * as z from 'zod';
import { ADMISSIONS_PAGE_MAX, SYNC_BATCH_MAX } from './admission.js';
import type { EntryRefusal } from './entry-rules.js';

const id = z.number().int().positive().max(2_147_483_647);

/** QR config: ttl in seconds; the panel polls /auth/access/qr every ttl. */
export const qrCodeData = z.object({
  ttl: z.number().int().positive(),
  /**
   * When the holder's pass appears (ISO 8601 UTC; issue 21): until then /auth/access/qr and the device credential
   * answer 409 `api.access.pass_not_yet_available`. Null or absent: the pass shows now.
   */
  passRevealAt: z.string().nullable().optional(),
});
export type QrCodeData = z.infer<typeof qrCodeData>;

/**
 * POST /auth/access/pass-credential body (decision 010): the raw 32-byte Ed25519 public key of a key
 * pair the panel generated on this device, base64url (43 characters).
 */
export const passCredentialRequest = z.strictObject({
  devicePublicKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'api.access.invalid_device_key'),
});

/**
 * POST /auth/access/pass-credential answer: `certificate` (base64url, 120 bytes: certificate and the
 * server's signature, see `@tp/contract/pass-code`), its end `expiresAt` (ISO 8601 UTC, ≤ 24 h and ≤ the
 * sign-in's end), the server's clock `serverTime` (ISO 8601 UTC; the panel corrects its own clock with
 * it), `ttl` seconds per step and the door's `skewSteps`. Errors: `api.access.invalid_device_key` (400),
 * `api.unauthorized` (401).
 */
export const passCredential = z.object({
  certificate: z.string(),
  expiresAt: z.string(),
  serverTime: z.string(),
  ttl: z.number().int().positive(),
  skewSteps: z.number().int().nonnegative(),
});
export type PassCredential = z.infer<typeof passCredential>;

/**
 * GET /access/pass-keys answer (door scanner, header `x-scanner-key`): the server's Ed25519 public
 * keys, raw 32 bytes in base64url, current first (older ones during a key rotation), with `ttl`
 * seconds per step and `skewSteps` to pass to `verifyPassCode`.
 */
export const passKeys = z.object({
  publicKeys: z.array(z.string()),
  ttl: z.number().int().positive(),
  skewSteps: z.number().int().nonnegative(),
});
export type PassKeys = z.infer<typeof passKeys>;

// ---------------------------------------------------------------------------------------------------
// Entry rules (issue 48, decision 050): days, entries and zones per ticket type, a door's mode and zone, a scan's
// direction. The engine that applies them is entry-rules.ts (pure, re-exported here).
export * from './entry-rules.js';

/** A zone's name (a named area of the venue a door belongs to): trimmed, 1–40 characters. */
export const zoneName = z
  .string()
  .trim()
  // One spelling per name: "Café" typed on two keyboards is one zone; no invisible or control characters.
  .normalize('NFC')
  .min(1)
  .max(40)
  .refine((name) => !/[\p{Cc}\p{Cf}]/u.test(name));

/** An event-local calendar date, `YYYY-MM-DD` (a real date). */
const localDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    'a real date YYYY-MM-DD',
  );

const sortedUnique = (list: readonly string[]) => list.every((v, i) => i === 0 || list[i - 1] < v);

/**
 * A ticket type's entry rules (PUT /v1/org/ticket-types/{externalId} `entryRules`; decision 050): `days` the
 * event-local dates it admits on (sorted, unique, at most 31; absent: any day), `entries` (`once`: one entry per
 * zone; `once_per_day`: one per zone per event-local day; `reentry`: again after each exit scan), `zones` the door
 * zones it admits to (unique, at most 20; absent: every zone). A type with none: `{ entries: "once" }`, today's rule.
 */
export const entryRules = z
  .strictObject({
    days: z.array(localDate).min(1).max(31).refine(sortedUnique, 'days: sorted and unique').optional(),
    entries: z.enum(['once', 'once_per_day', 'reentry']),
    zones: z
      .array(zoneName)
      .min(1)
      .max(20)
      .refine((zones) => new Set(zones).size === zones.length, 'zones: unique')
      .optional(),
  })
  .meta({
    description:
      'Who this type admits, when and where (decision 050). days: event-local dates (absent: any day); entries: once ' +
      '(per zone), once_per_day (per zone and event-local day) or reentry (again after an exit scan); zones: the door ' +
      'zones it admits to (absent: all). Absent rules: { entries: "once" }.',
    examples: [{ days: ['2027-07-10', '2027-07-11'], entries: 'reentry', zones: ['VIP'] }],
  });

/** A door's mode (door keys): `entry` scans in, `exit` scans out. */
export const doorMode = z.enum(['entry', 'exit']);
export type DoorMode = z.infer<typeof doorMode>;

/** A scan's direction; absent on a check-in or sync item: the door's mode (`entry` → `in`, `exit` → `out`). */
export const scanDirection = z.enum(['in', 'out']);

/** A scan recorded on a ticket (`at` ISO 8601 UTC, the door's zone or null, the event-local `day`). */
export const recordedScan = z.object({
  at: z.string(),
  direction: scanDirection,
  zone: z.string().nullable(),
  day: z.string(),
});

/**
 * Why a door's scan did not count on a ticket by its entry rules (entry-rules.ts `EntryRefusal`): `already_used`,
 * `not_valid_today`, `already_inside`, `wrong_zone`, `not_inside`.
 */
export const entryRefusal = z.enum([
  'already_used',
  'not_valid_today',
  'already_inside',
  'wrong_zone',
  'not_inside',
] as const satisfies readonly EntryRefusal[]);

/**
 * GET /access/door answer: what the key the door presented is (issue 48): its name (null: the platform key), its
 * mode (`entry` or `exit`) and zone (null: the event's general doors).
 */
export const doorInfo = z.object({ name: z.string().nullable(), mode: doorMode, zone: z.string().nullable() });
export type DoorInfo = z.infer<typeof doorInfo>;

/**
 * POST /access/check-in body: the scanned pass text (a `TP2.` server or device code, see
 * `@tp/contract/pass-code`), the event the door admits to, and the scan's `direction` (absent: the door key's mode).
 * Errors: `api.access.scanner_unauthorized` (401), `api.access.invalid_code`
 * (400, invalid or expired, never saying which), `api.access.event_not_found` (404).
 */
export const checkInRequest = z.strictObject({
  code: z.string().trim().min(1).max(400),
  eventId: id,
  direction: scanDirection.optional(),
});

/** A ticket named on the door's answer. */
const checkInTicket = z.object({ userTicketId: id, ticketName: z.string() });

/**
 * POST /access/check-in answer. `admitted`: the holder's tickets for the event this entry scan admitted (recorded;
 * `usedAt` stays the first entry). `alreadyUsed`: those their entry rules refuse as used (`once`: entered this zone
 * before; `once_per_day`: today), with `usedAt` (ISO 8601 UTC, their latest entry).
 * `exited` (absent: none): the tickets an exit scan recorded as out. `refused` (absent: none): tickets their entry
 * rules refuse for another `reason` (`not_valid_today`, `already_inside`, `wrong_zone`, `not_inside`), with the
 * type's `days` and `zones` when it has them (so the door can say "valid Sat–Sun" or "not for this zone").
 * `listedForResale`: tickets the holder has listed for resale; they do not admit until unlisted.
 * `returned` (absent: none): tickets the holder returned to the event's exchange queue (issue 45, decision 042); they
 * do not admit until sold or withdrawn, and are in no other list.
 * All lists empty: the holder holds no ticket for this event; then `movedAway` (issue 40 point 7) names the
 * event's tickets the holder held that left them (`transferred`: gifted or resold, the new holder never named) or
 * that the organiser voided (`revoked`) or whose payment went back (`refunded`: refunded or disputed, issue 46). `holderName` is empty when the pass's holder neither holds nor held a
 * ticket of the event: a door never names someone else's holder (issue 40 point 7).
 */
export const checkInResponse = z.object({
  holderName: z.string(),
  admitted: z.array(checkInTicket),
  alreadyUsed: z.array(checkInTicket.extend({ usedAt: z.string() })),
  listedForResale: z.array(checkInTicket),
  returned: z.array(checkInTicket).optional(),
  exited: z.array(checkInTicket).optional(),
  refused: z
    .array(
      checkInTicket.extend({
        reason: entryRefusal,
        days: z.array(z.string()).optional(),
        zones: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  movedAway: z.array(checkInTicket.extend({ reason: z.enum(['transferred', 'revoked', 'refunded']) })).optional(),
});
export type CheckInResponse = z.infer<typeof checkInResponse>;

/**
 * GET /access/events entry: an event the door can admit to; `startsAt` ISO 8601 UTC, shown in the event's IANA
 * `timeZone` like the panel does (issue 29).
 */
export const scannerEvent = z.object({
  id,
  name: z.string(),
  city: z.string(),
  startsAt: z.string(),
  timeZone: z.string(),
});
export const scannerEvents = z.array(scannerEvent);
export type ScannerEvent = z.infer<typeof scannerEvent>;

// ---------------------------------------------------------------------------------------------------
// The offline door (issue 10 point 4; decision record 013-offline-door): a snapshot of an event's
// admissions taken while online, check-ins queued offline and synced later. The admission rule below
// (admission.ts, re-exported here) is the one rule both the server's check-in (apps/api
// check-in.service.ts) and the offline door apply.
export * from './admission.js';

/** A ticket the pass holder holds for the event, as the door sees it (a locked row or a snapshot entry). */
export const heldTicket = z.object({
  userTicketId: id,
  ticketName: z.string(),
  /** When event access was used (ISO 8601 UTC), null while unused. */
  usedAt: z.string().nullable(),
  /** In a live resale listing: does not admit until unlisted (decision 003). */
  listed: z.boolean(),
  /** Its type's entry rules (decision 050); null or absent: `{ entries: "once" }`. */
  entryRules: entryRules.nullable().optional(),
  /**
   * Its recorded scans (entries and exits, oldest first). Absent (a snapshot of before issue 48): one entry at
   * `usedAt` at no zone when used, else none.
   */
  scans: z.array(recordedScan).optional(),
});
export type HeldTicket = z.infer<typeof heldTicket>;

/** GET /access/events/:eventId/admissions query: holders with a user id above `after`, at most `limit`. */
export const admissionsQuery = z.strictObject({
  after: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
  limit: z.coerce.number().int().min(1).max(ADMISSIONS_PAGE_MAX).default(500),
});
export const eventParams = z.strictObject({ eventId: z.coerce.number().int().positive().max(2_147_483_647) });

/** One holder in the snapshot: the user id a verified pass names, the name the door shows, their tickets. */
export const admissionHolder = z.object({
  userId: id,
  holderName: z.string(),
  tickets: z.array(heldTicket),
  /**
   * The TOTP secrets (hex) of the holder's Google Wallet passes for these tickets (decision 029), so an offline
   * door checks a rotating barcode's freshness; absent when none. Only in the snapshot of the event's own
   * organisation's doors (and the platform key).
   */
  walletTotpSecrets: z.array(z.object({ userTicketId: id, totpSecret: z.string() })).optional(),
});
export type AdmissionHolder = z.infer<typeof admissionHolder>;

/**
 * One page of an event's admissions, ordered by `userId`: `nextAfter` is the `after` of the next page,
 * null on the last. `takenAt` (ISO 8601 UTC) is when the server read the page. `passPublicKeys` (the
 * server's raw Ed25519 public keys, base64url, current first; empty while the server has none),
 * `passTtlSeconds` (the pass time step, QR_TTL_SECONDS) and `passSkewSteps` (device-code clock allowance)
 * let the door verify pass codes with no server (pass-code.ts, decision 010-offline-pass).
 */
export const admissionsPage = z.object({
  eventId: id,
  takenAt: z.string(),
  /** The event's IANA time zone: the door computes a scan's event-local day with it (decision 050). */
  timeZone: z.string(),
  passPublicKeys: z.array(z.string()),
  passTtlSeconds: z.number().int().positive(),
  passSkewSteps: z.number().int().min(0),
  holders: z.array(admissionHolder),
  nextAfter: id.nullable(),
});
export type AdmissionsPage = z.infer<typeof admissionsPage>;

/**
 * A check-in the door made offline: `id` (the door's UUID; a resent item gets its first answer back),
 * the pass text scanned, when (ISO 8601 UTC, the door's clock), the tickets the door admitted (or let out) and the
 * scan's `direction` (absent: the door key's mode).
 */
export const syncItem = z.strictObject({
  id: z.uuid(),
  code: z.string().trim().min(1).max(2000),
  scannedAt: z.iso.datetime(),
  userTicketIds: z.array(id).min(1).max(50),
  direction: scanDirection.optional(),
});
export type SyncItem = z.infer<typeof syncItem>;

/** POST /access/sync body: check-ins queued by one door for one event. */
export const syncRequest = z.strictObject({ eventId: id, items: z.array(syncItem).min(1).max(SYNC_BATCH_MAX) });
export type SyncRequest = z.infer<typeof syncRequest>;

/**
 * Why the server did not record an offline admission: `already_used` (admitted before, e.g. at another
 * door), `moved` (gifted, resold or swapped away from the pass holder, or not for this event),
 * `listed` (listed for resale), `returned` (returned to the event's exchange queue, decision 042), `revoked` (the
 * organiser revoked the ticket), `refunded` (the payment it was bought with was refunded or is disputed; issue 46),
 * `event_cancelled` (the organiser cancelled the event; issue 46), `invalid_pass` (forged, not valid at `scannedAt`, its sign-in revoked, or a Google
 * Wallet rotating barcode whose TOTP was not fresh at `scannedAt`), `not_revealed` (scanned before the event's
 * `passRevealAt`), and by the type's entry rules (decision 050, judged against every scan the server has recorded on
 * the ticket): `not_valid_today`, `already_inside`, `wrong_zone`, `not_inside` (an exit of a ticket not inside).
 */
export const syncConflictReason = z.enum([
  'already_used',
  'moved',
  'listed',
  'returned',
  'revoked',
  'refunded',
  'event_cancelled',
  'invalid_pass',
  'not_revealed',
  'not_valid_today',
  'already_inside',
  'wrong_zone',
  'not_inside',
]);
export type SyncConflictReason = z.infer<typeof syncConflictReason>;

/**
 * The server's judgement of one queued check-in: the tickets it recorded (ascending ids; admitted, or let out for an
 * item whose direction is `out`, decision 050), and the conflicts.
 */
export const syncResult = z.object({
  id: z.uuid(),
  admitted: z.array(id),
  conflicts: z.array(z.object({ userTicketId: id, reason: syncConflictReason })),
});
export type SyncResult = z.infer<typeof syncResult>;
export const syncResponse = z.object({ results: z.array(syncResult) });
export type SyncResponse = z.infer<typeof syncResponse>;

/** GET /auth/access/qr: the QR pass as the spec's text response, a base64-encoded PNG (`text/plain`). */
export const qrPng = z.string().meta({ contentEncoding: 'base64', contentMediaType: 'image/png' });
