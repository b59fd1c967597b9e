/**
 * Wallet passes (issue 22, decision 029): the holder's ticket in Apple Wallet and Google Wallet.
 * GET /tickets/{userTicketId}/wallet/apple answers the signed `.pkpass` (`application/vnd.apple.pkpass`);
 * GET /tickets/{userTicketId}/wallet/google answers `{ saveUrl }`; GET /wallet/test-ca.pem the test mode's CA
 * (PEM) that signs Apple passes, and GET /wallet/test-fakes what its local APNs and Google fakes received.
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

/**
 * GET /wallet/test-fakes (wallet test mode only, 404 otherwise): what the server's local fakes received, so a
 * browser journey in another process can check it: the pushes the APNs fake recorded and the objects the Google
 * Wallet fake holds (with their TOTP secrets: test passes only).
 */
export const walletTestFakes = z.object({
  apnsPushes: z.array(z.object({ pushToken: z.string(), topic: z.string(), at: z.number() })),
  googleObjects: z.array(z.looseObject({ id: z.string() })),
});

/** GET /tickets/{userTicketId}/wallet/google: Google's save link, `https://pay.google.com/gp/v/save/<JWT>`. */
export const googleSaveLink = z.object({ saveUrl: z.url().meta({ description: "Google Wallet's save link" }) });

/**
 * Apple's pass update web service (the pass's `webServiceURL` is `<API>/v1/wallet/apple/`; paths as Apple's
 * reference names them). Device calls carry `Authorization: ApplePass <authenticationToken>`.
 */
/**
 * A device library id, pass type id or serial: Apple's are hex or reverse-DNS, ours `ticket-<id>-<holder>`; at most 100
 * URL-safe characters (the router's limit of a path parameter).
 */
const identifier = z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/);

/** Path of register / unregister: `/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}`. */
export const appleRegistrationParams = z.strictObject({
  deviceLibraryIdentifier: identifier,
  passTypeIdentifier: identifier,
  serialNumber: identifier,
});

/**
 * Body of register: the device's APNs push token, hex (Apple's are 64 hex digits today; Apple says the length may
 * grow, so up to 200). Anything else (a NUL byte, a control character, a path separator) is a 400, never stored.
 */
export const appleRegistrationBody = z.object({ pushToken: z.string().regex(/^[0-9A-Fa-f]{8,200}$/) });

/** Path of the changed serials: `/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}`. */
export const appleDeviceParams = z.strictObject({
  deviceLibraryIdentifier: identifier,
  passTypeIdentifier: identifier,
});

/** Query of the changed serials: the tag of the last answer (`lastUpdated`), absent on the first call. */
export const appleUpdatedSinceQuery = z.object({ passesUpdatedSince: z.string().max(40).optional() });

/** The changed serials; `lastUpdated` is the tag for the next call (ms since the epoch, as text). */
export const appleSerialNumbers = z.object({ serialNumbers: z.array(z.string()), lastUpdated: z.string() });

/** Path of the latest pass: `/v1/passes/{passTypeIdentifier}/{serialNumber}`. */
export const applePassParams = z.strictObject({ passTypeIdentifier: identifier, serialNumber: identifier });
/**
 * Headers of Apple's latest-pass request: `If-Modified-Since` (an HTTP date, as the last answer's `Last-Modified`
 * said) answers 304 with no body when the pass has not changed since (issue 41, point 10). Other headers pass.
 */
export const appleLatestPassHeaders = z.looseObject({
  'if-modified-since': z.string().optional().meta({
    description: 'The Last-Modified of the pass the device has: 304, no content, when the pass is unchanged since',
  }),
});

/**
 * Body of the log endpoint: messages from devices about errors with the web service. The route takes at most
 * {@link APPLE_LOG_BODY_LIMIT_BYTES} of body and logs at most {@link APPLE_LOG_MAX_LINES} lines of
 * {@link APPLE_LOG_LINE_CHARS} characters a request.
 */
export const appleLogBody = z.object({ logs: z.array(z.string().max(2000)).max(100) });

/** Largest body of the device-log endpoint, bytes (larger: 413, nothing logged). */
export const APPLE_LOG_BODY_LIMIT_BYTES = 16 * 1024;
/** Lines of one device-log request that reach the server log (the rest are counted). */
export const APPLE_LOG_MAX_LINES = 10;
/** Characters of one logged device-log line (control characters become spaces). */
export const APPLE_LOG_LINE_CHARS = 200;
