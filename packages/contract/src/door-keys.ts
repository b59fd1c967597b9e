/**
 * Door keys per organisation (issue 20 point 4): `/v1/org/door-keys` with the organisation API key. A door
 * key is what the organisation's door scanners present in `x-scanner-key`; with it `/v1/access/*` sees only
 * that organisation's events (or the events named when it was made). The key is shown once and stored
 * hashed; the list never shows it.
 */
import * as z from 'zod';
import { externalId } from './organisations.js';
import { hasNoNul } from './fields.js';
import { doorMode, zoneName } from './access.js';

const id = z.number().int().positive().max(2_147_483_647);

/**
 * POST /v1/org/door-keys body: a name staff recognise, optionally the events (your ids) it admits to, its `mode`
 * (`entry`, the default, or `exit`: its scans let people out) and its `zone` (absent: the event's general doors;
 * decision 050).
 */
export const createDoorKeyRequest = z
  .strictObject({
    name: z.string().trim().min(1).max(100).refine(hasNoNul),
    eventExternalIds: z.array(externalId).min(1).max(100).optional(),
    mode: doorMode.optional(),
    zone: zoneName.optional(),
  })
  .meta({
    description:
      'Door staff enter the key on /scanner (header `x-scanner-key` of /v1/access/*). With it the door lists, ' +
      'downloads and admits to your events only (or `eventExternalIds`); another event answers 403 ' +
      'api.access.not_for_this_event. mode: entry (default) or exit; zone: the area the door guards (a ticket ' +
      "type's entryRules.zones), absent for the general doors.",
    examples: [
      { name: 'North gate', eventExternalIds: ['evt-2027-sydney'] },
      { name: 'VIP exit', mode: 'exit', zone: 'VIP' },
    ],
  });
export type CreateDoorKeyRequest = z.infer<typeof createDoorKeyRequest>;

/** POST /v1/org/door-keys answer (201): the key, shown once (`tpd_` + 8 characters + `_` + 43 characters). */
export const createDoorKeyResponse = z
  .object({ id, key: z.string() })
  .meta({ examples: [{ id: 4, key: 'tpd_Zx8kQ2mN_...' }] });
export type CreateDoorKeyResponse = z.infer<typeof createDoorKeyResponse>;

/**
 * GET /v1/org/door-keys entry (never the key): its public prefix, name, the events it admits to (your ids;
 * null: every event of the organisation), its `mode` and `zone` (null: the general doors), `createdAt` ISO 8601 UTC.
 * Revoked keys are not listed.
 */
export const doorKeyItem = z.object({
  id,
  name: z.string(),
  prefix: z.string(),
  eventExternalIds: z.array(z.string()).nullable(),
  mode: doorMode,
  zone: z.string().nullable(),
  createdAt: z.string(),
});
export type DoorKeyItem = z.infer<typeof doorKeyItem>;

/** Path parameters of DELETE /v1/org/door-keys/{id}. */
export const doorKeyParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/**
 * A verdict in the check-in log (issue 26 point 7): what the server answered an online scan (`admitted`,
 * `already_used`, `listed`, `returned` (returned to the exchange queue), `no_ticket`, `invalid`,
 * `not_for_this_event`; since issue 48 also `exited` (an exit scan recorded) and the entry rule that refused:
 * `not_valid_today`, `already_inside`, `wrong_zone`, `not_inside`) or made of a synced offline one
 * (`admitted`, `exited`, or `refused` when a ticket was not recorded).
 */
export const checkInLogVerdict = z.enum([
  'admitted',
  'already_used',
  'listed',
  'returned',
  'no_ticket',
  'invalid',
  'not_for_this_event',
  'refused',
  'exited',
  'not_valid_today',
  'already_inside',
  'wrong_zone',
  'not_inside',
]);
export type CheckInLogVerdict = z.infer<typeof checkInLogVerdict>;
