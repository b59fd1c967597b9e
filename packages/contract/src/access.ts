/** Access (QR pass) payloads: GET /auth/access/qrCodeData and /auth/access/qr. */
import * as z from 'zod';

/** QR config: ttl in seconds; the panel polls /auth/access/qr every ttl. */
export const qrCodeData = z.object({ ttl: z.number().int().positive() });
export type QrCodeData = z.infer<typeof qrCodeData>;
