/**
 * Wallet passes (issue 22, decision 029): the holder's ticket in Apple Wallet and Google Wallet.
 * GET /tickets/{userTicketId}/wallet/apple answers the signed `.pkpass` (`application/vnd.apple.pkpass`);
 * GET /tickets/{userTicketId}/wallet/google answers `{ saveUrl }`; GET /wallet/test-ca.pem the test mode's CA
 * (PEM) that signs Apple passes.
 */
import * as z from 'zod';

/** The `.pkpass` media type Apple Wallet opens. */
export const PKPASS_MEDIA_TYPE = 'application/vnd.apple.pkpass';

/** Path parameters of the wallet routes: the held ticket (user_tickets.id). */
export const walletTicketParams = z.strictObject({ userTicketId: z.coerce.number().int().positive().max(2147483647) });

/** GET /tickets/{userTicketId}/wallet/apple: the `.pkpass` zip, bytes. */
export const applePass = z.string().meta({ format: 'binary' });

/** GET /wallet/test-ca.pem: the test CA's certificate, PEM text. */
export const testCaPem = z.string();

/** GET /tickets/{userTicketId}/wallet/google: Google's save link, `https://pay.google.com/gp/v/save/<JWT>`. */
export const googleSaveLink = z.object({ saveUrl: z.url().meta({ description: "Google Wallet's save link" }) });
export type GoogleSaveLink = z.infer<typeof googleSaveLink>;
