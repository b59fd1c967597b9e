/**
 * Access payloads: the holder's QR pass (GET /auth/access/qrCodeData and /auth/access/qr) and the
 * door check-in used by the scanner page (POST /access/check-in, GET /access/events; header
 * `x-scanner-key`).
 */
import * as z from 'zod';

const id = z.number().int().positive().max(2_147_483_647);

/** QR config: ttl in seconds; the panel polls /auth/access/qr every ttl. */
export const qrCodeData = z.object({ ttl: z.number().int().positive() });
export type QrCodeData = z.infer<typeof qrCodeData>;

/**
 * POST /auth/access/pass-credential body (decision 010): the raw 32-byte Ed25519 public key of a key
 * pair the panel generated on this device, base64url (43 characters).
 */
export const passCredentialRequest = z.strictObject({
  devicePublicKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'api.access.invalid_device_key'),
});
export type PassCredentialRequest = z.infer<typeof passCredentialRequest>;

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

/**
 * POST /access/check-in body: the scanned pass text (a `TP2.` server or device code, see
 * `@tp/contract/pass-code`) and the event the door admits to. Errors: `api.access.scanner_unauthorized` (401), `api.access.invalid_code`
 * (400, invalid or expired, never saying which), `api.access.event_not_found` (404).
 */
export const checkInRequest = z.strictObject({ code: z.string().trim().min(1).max(400), eventId: id });
export type CheckInRequest = z.infer<typeof checkInRequest>;

/** A ticket named on the door's answer. */
const checkInTicket = z.object({ userTicketId: id, ticketName: z.string() });

/**
 * POST /access/check-in answer. `admitted`: the holder's tickets for the event whose access was
 * unused and is now marked used. `alreadyUsed`: those used before, with `usedAt` (ISO 8601 UTC).
 * `listedForResale`: tickets the holder has listed for resale; they do not admit until unlisted.
 * All lists empty: the holder holds no ticket for this event.
 */
export const checkInResponse = z.object({
  holderName: z.string(),
  admitted: z.array(checkInTicket),
  alreadyUsed: z.array(checkInTicket.extend({ usedAt: z.string() })),
  listedForResale: z.array(checkInTicket),
});
export type CheckInResponse = z.infer<typeof checkInResponse>;

/** GET /access/events entry: an event the door can admit to; `startsAt` ISO 8601 UTC. */
export const scannerEvent = z.object({ id, name: z.string(), city: z.string(), startsAt: z.string() });
export const scannerEvents = z.array(scannerEvent);
export type ScannerEvent = z.infer<typeof scannerEvent>;
