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
 * POST /access/check-in body: the scanned pass text (`TP1.<userId>.<step>.<mac>`) and the event
 * the door admits to. Errors: `api.access.scanner_unauthorized` (401), `api.access.invalid_code`
 * (400, invalid or expired, never saying which), `api.access.event_not_found` (404).
 */
export const checkInRequest = z.strictObject({ code: z.string().trim().min(1).max(200), eventId: id });
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
