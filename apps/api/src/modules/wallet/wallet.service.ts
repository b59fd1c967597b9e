/**
 * Wallet passes (issue 22, decision 029): a held ticket as an Apple Wallet `.pkpass`. The barcode is a ticket
 * code (`@tp/contract/pass-code`, kind 3) signed with the pass-signing key, so the door's public-key check
 * admits it online and offline; it is valid from the event's `passRevealAt` (or 24 h before the event starts
 * when unset) until the event ends, and the online door admits it only while its holder still holds the ticket.
 * Google Wallet: an event-ticket class per event and an object per held ticket inserted through the REST API
 * (a local fake in test mode), the save link a JWT naming only the object's id; its rotating barcode shows
 * `<rotating ticket code>.{totp_timestamp_seconds}.{totp_value_0}` (kind 4: refused without the suffix).
 */
import { randomBytes } from 'node:crypto';
import { sameSecret } from '../../lib/secrets.js';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { importPKCS8, SignJWT } from 'jose';
import { holderDisplayName } from '@tp/contract';
import { signTicketCode, type TicketCodeMedium } from '@tp/contract/pass-code';
import { WALLET_TOTP_DIGITS, WALLET_TOTP_PERIOD_SECONDS } from '@tp/contract/wallet-totp';
import type { WalletConfig } from '../../config.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { pickLang, type Lang } from '../../lib/lang.js';
import { nodeEd25519 } from '../../lib/ed25519.js';
import type { Holder } from '../../db/predicates.js';
import type { GoogleWalletApi, ServiceAccountKey } from '../../providers/google-wallet/google-wallet.provider.js';
import { deadPushToken, type ApnsClient } from '../../providers/apns/apns.provider.js';
import { createPassSigner } from './pass-signer.js';
import { walletRepository as repo, type WalletPassRow, type WalletTicketRow } from './wallet.repository.js';

/** Seconds before an event's start its wallet pass is issued when the event sets no `passRevealAt`. */
export const WALLET_DEFAULT_REVEAL_SECONDS = 24 * 3600;
/** Google's save link prefix: the signed JWT follows. */
export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';
/** Path of Apple's pass update web service under the API (the pass's `webServiceURL` ends with it). */
export const APPLE_WEB_SERVICE_PATH = '/v1/wallet/apple';

/** A pass's serial number (Apple) and Google object suffix: one per ticket and holder. */
export const walletSerialNumber = (userTicketId: number, holderId: number) => `ticket-${userTicketId}-${holderId}`;

/** The labels an Apple pass shows, in each language (issue 40; wording from the Spanish review, N1). */
export const PASS_LABELS: Record<
  Lang,
  Record<'event' | 'ticket' | 'holder' | 'starts' | 'venue' | 'address', string>
> = {
  en: { event: 'EVENT', ticket: 'TICKET', holder: 'HOLDER', starts: 'STARTS', venue: 'VENUE', address: 'ADDRESS' },
  es: {
    event: 'EVENTO',
    ticket: 'ENTRADA',
    holder: 'TITULAR',
    starts: 'EMPIEZA',
    venue: 'LUGAR',
    address: 'DIRECCIÓN',
  },
};

/**
 * The pass's labels for a holder whose account language is `lang`, and its `.lproj` strings: pass.json writes the
 * labels in the holder's language (what Wallet shows on a device in a language the pass has no `.lproj` for), and
 * each language's `pass.strings` maps those labels to its own words, so an English or Spanish device reads its own.
 */
export function passLabels(lang: Lang) {
  const labels = PASS_LABELS[lang];
  const keys = Object.keys(labels) as (keyof typeof labels)[];
  const localizations = Object.fromEntries(
    LANGS.map((l) => [l, Object.fromEntries(keys.map((k) => [labels[k], PASS_LABELS[l][k]]))]),
  );
  return { labels, localizations };
}
const LANGS: readonly Lang[] = ['en', 'es'];

/** Non-empty parts joined by ", " (an event without a street address is not ", Sydney"). */
const joined = (...parts: (string | null | undefined)[]) => parts.filter((p) => p?.trim()).join(', ');

/** The pass's colours when the organisation has no brand colour. */
const DEFAULT_COLOR = '#1f2937';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** When a ticket's wallet code starts admitting: `passRevealAt`, else 24 h before the event starts. */
export function walletRevealAt(event: { passRevealAt: Date | null; startsAt: Date }): Date {
  return event.passRevealAt ?? new Date(event.startsAt.getTime() - WALLET_DEFAULT_REVEAL_SECONDS * 1000);
}

/** `rgb(r, g, b)` of a `#rrggbb` colour (the form pass.json takes). */
function rgb(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/**
 * The wallet service: Apple passes, Google save links and test mode's CA. A wallet whose settings are missing
 * (`WalletConfig.apple` / `google` null) answers `api.wallet.not_configured`.
 */
export function createWalletService(deps: {
  database: Database;
  config: WalletConfig;
  /** The 32-byte Ed25519 seed that signs pass codes (config `passSigningKey`). */
  signingKey: Uint8Array;
  /** Public URL of this service (the save JWT's `origins`). */
  publicUrl: string;
  /** The Google Wallet REST API (a local fake in test mode) and the service account key; null when not configured. */
  google: { api: GoogleWalletApi; key: ServiceAccountKey } | null;
  /** APNs (a local fake in test mode); null when Apple is not configured. */
  apns: ApnsClient | null;
  now: () => Date;
}) {
  const { db } = deps.database;
  const ed25519 = nodeEd25519();
  const apple = deps.config.apple;
  /** Apple passes are built and signed off the event loop (issue 39); threads start on the first pass. */
  const signer = apple ? createPassSigner({ certificates: apple, config: deps.config.signing }) : null;
  /** Icons in the organisation's colour, by colour and size (square PNGs). */
  const icons = new Map<string, Promise<Buffer>>();
  const icon = (color: string, size: number) => {
    const key = `${color}:${size}`;
    let png = icons.get(key);
    if (!png) {
      png = sharp({ create: { width: size, height: size, channels: 3, background: color } })
        .png()
        .toBuffer();
      icons.set(key, png);
    }
    return png;
  };

  /**
   * The held ticket and its code's validity, or an error.
   * @throws AppError `api.ticket.not_found` (404) for a ticket the caller does not hold (or revoked),
   *   `api.wallet.not_yet_available` (409, with `revealAt` ISO 8601 UTC) before the reveal time,
   *   `api.wallet.event_ended` (409) once the event has ended.
   */
  async function issuable(holder: Holder, userTicketId: number) {
    const row = await repo.heldTicket(db, holder, userTicketId);
    if (!row) throw new AppError('api.ticket.not_found');
    const at = deps.now();
    const revealAt = walletRevealAt(row.event);
    if (at < revealAt) throw new AppError('api.wallet.not_yet_available', { revealAt: revealAt.toISOString() });
    if (at >= row.event.endsAt) throw new AppError('api.wallet.event_ended');
    const pass = await repo.ensurePass(db, {
      serialNumber: walletSerialNumber(row.userTicketId, row.holderId),
      userTicketId: row.userTicketId,
      holderId: row.holderId,
      authenticationToken: randomBytes(24).toString('base64url'),
      totpSecret: randomBytes(20).toString('hex'),
      updatedAt: at,
    });
    return { row, pass, code: await ticketCode(row) };
  }

  /**
   * The ticket code of a held ticket's pass (valid from the reveal time to the event's end): `static` for Apple's
   * barcode, `rotating` for Google's (kind 4: the door refuses it without its TOTP suffix, decision 029).
   */
  const ticketCode = (row: WalletTicketRow, medium: TicketCodeMedium = 'static') =>
    signTicketCode(
      deps.signingKey,
      {
        userTicketId: row.userTicketId,
        holderId: row.holderId,
        validFrom: seconds(walletRevealAt(row.event)),
        validUntil: seconds(row.event.endsAt),
      },
      ed25519,
      medium,
    );

  /** The pass.json fields of a ticket (eventTicket style, semantic tags, relevance). */
  function passProps(row: WalletTicketRow, pass: WalletPassRow, a: NonNullable<WalletConfig['apple']>) {
    const color = row.primaryColor ?? DEFAULT_COLOR;
    const { event } = row;
    return {
      formatVersion: 1 as const,
      passTypeIdentifier: a.passTypeId,
      teamIdentifier: a.teamId,
      serialNumber: pass.serialNumber,
      webServiceURL: `${deps.publicUrl}${APPLE_WEB_SERVICE_PATH}/`,
      authenticationToken: pass.authenticationToken,
      organizationName: row.organisationName,
      description: `${event.name} — ${row.ticketName}`,
      logoText: row.organisationName,
      backgroundColor: rgb(color),
      foregroundColor: 'rgb(255, 255, 255)',
      labelColor: 'rgb(255, 255, 255)',
      semantics: {
        eventName: event.name,
        eventType: 'PKEventTypeGeneric' as const,
        eventStartDate: event.startsAt.toISOString(),
        eventEndDate: event.endsAt.toISOString(),
        venueName: event.venue,
        ...(event.latitude !== null && event.longitude !== null
          ? { venueLocation: { latitude: event.latitude, longitude: event.longitude } }
          : {}),
        attendeeName: holderDisplayName(row.holder),
      },
    };
  }

  const googleKey = deps.google ? importPKCS8(deps.google.key.private_key, 'RS256') : null;
  /** Google ids: `<issuer>.<suffix>`; the object's names its holder, so a new holder gets a new object. */
  const googleIds = (row: WalletTicketRow, pass: WalletPassRow, issuerId: string) => ({
    classId: `${issuerId}.event-${row.event.id}`,
    objectId: `${issuerId}.${pass.serialNumber}`,
  });

  /**
   * The signed `.pkpass` of an issued pass: its ticket code in the barcode while the pass's holder holds the
   * ticket (`code`), else voided (`voided: true`, no barcode). Only the plain data is made here; the pass is built
   * and signed on a signing thread (pass-signer.ts, issue 39).
   * @throws AppError `api.wallet.not_configured` (404), `api.wallet.busy` (503, Retry-After) from the signer.
   */
  async function pkpass(row: WalletTicketRow, pass: WalletPassRow, code: string | null): Promise<Buffer> {
    if (!apple || !signer) throw new AppError('api.wallet.not_configured');
    const color = row.primaryColor ?? DEFAULT_COLOR;
    const { event } = row;
    const { labels, localizations } = passLabels(pickLang(row.holder.locale));
    return signer.sign({
      images: {
        'icon.png': await icon(color, 29),
        'icon@2x.png': await icon(color, 58),
        'logo.png': await icon(color, 50),
      },
      props: { ...passProps(row, pass, apple), ...(code ? {} : { voided: true }) },
      primaryFields: [{ key: 'event', label: labels.event, value: event.name }],
      secondaryFields: [
        { key: 'ticket', label: labels.ticket, value: row.ticketName },
        { key: 'holder', label: labels.holder, value: holderDisplayName(row.holder) },
      ],
      auxiliaryFields: [
        {
          key: 'starts',
          label: labels.starts,
          value: event.startsAt.toISOString(),
          dateStyle: 'PKDateStyleMedium',
          timeStyle: 'PKDateStyleShort',
        },
        { key: 'venue', label: labels.venue, value: joined(event.venue, event.city) },
      ],
      backFields: [{ key: 'address', label: labels.address, value: joined(event.address1, event.city) }],
      barcode: code,
      relevantDate: event.startsAt,
      expirationDate: event.endsAt,
      location:
        event.latitude !== null && event.longitude !== null
          ? { latitude: event.latitude, longitude: event.longitude, relevantText: event.name }
          : null,
      localizations,
    });
  }

  /**
   * The pass of `serialNumber` when `passTypeIdentifier` is this service's and `authorization` is
   * `ApplePass <its authenticationToken>`.
   * @throws AppError `api.unauthorized` (401) otherwise (an unknown serial too, as Apple's reference asks).
   */
  async function authorizedPass(passTypeIdentifier: string, serialNumber: string, authorization: string | undefined) {
    const pass = apple && passTypeIdentifier === apple.passTypeId ? await repo.pass(db, serialNumber) : undefined;
    const token = authorization?.startsWith('ApplePass ') ? authorization.slice('ApplePass '.length) : '';
    if (!pass || !sameSecret(token, pass.authenticationToken)) throw new AppError('api.unauthorized');
    return pass;
  }
  /**
   * A Google Wallet LocalizedString tagged with the holder's language (issue 40; it was always `en`). The values are
   * the organiser's own words (event, venue, ticket type), which have no translations: no `translatedValues`.
   */
  const text = (value: string, lang: Lang) => ({ defaultValue: { language: lang, value } });

  return {
    /**
     * GET /tickets/{userTicketId}/wallet/google: inserts (or updates) the event's class and the ticket's object
     * in Google Wallet and answers the save link, `https://pay.google.com/gp/v/save/<JWT>` (RS256 by the service
     * account; `payload.eventTicketObjects` holds only the object's id).
     * @throws AppError `api.wallet.not_configured` (404), `api.ticket.not_found` (404),
     *   `api.wallet.not_yet_available` (409), `api.wallet.event_ended` (409).
     */
    async googleSaveUrl(holder: Holder, userTicketId: number): Promise<{ saveUrl: string }> {
      const google = deps.google;
      const issuerId = deps.config.google?.issuerId;
      if (!google || !googleKey || !issuerId) throw new AppError('api.wallet.not_configured');
      const { row, pass } = await issuable(holder, userTicketId);
      const code = await ticketCode(row, 'rotating');
      const { event } = row;
      const { classId, objectId } = googleIds(row, pass, issuerId);
      const color = row.primaryColor ?? DEFAULT_COLOR;
      const lang = pickLang(row.holder.locale);
      await google.api.upsertClass({
        id: classId,
        issuerName: row.organisationName,
        reviewStatus: 'UNDER_REVIEW',
        eventName: text(event.name, lang),
        venue: { name: text(event.venue, lang), address: text(joined(event.address1, event.city), lang) },
        dateTime: { start: event.startsAt.toISOString(), end: event.endsAt.toISOString() },
        hexBackgroundColor: color,
      });
      await google.api.upsertObject({
        id: objectId,
        classId,
        state: 'ACTIVE',
        ticketHolderName: holderDisplayName(row.holder),
        ticketType: text(row.ticketName, lang),
        hexBackgroundColor: color,
        validTimeInterval: {
          start: { date: walletRevealAt(event).toISOString() },
          end: { date: event.endsAt.toISOString() },
        },
        ...(event.latitude !== null && event.longitude !== null
          ? { locations: [{ latitude: event.latitude, longitude: event.longitude }] }
          : {}),
        rotatingBarcode: {
          type: 'QR_CODE',
          valuePattern: `${code}.{totp_timestamp_seconds}.{totp_value_0}`,
          totpDetails: {
            periodMillis: WALLET_TOTP_PERIOD_SECONDS * 1000,
            algorithm: 'TOTP_SHA1',
            parameters: [{ key: pass.totpSecret, valueLength: WALLET_TOTP_DIGITS }],
          },
        },
      });
      const jwt = await new SignJWT({
        typ: 'savetowallet',
        origins: [deps.publicUrl],
        payload: { eventTicketObjects: [{ id: objectId }] },
      })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
        .setIssuer(google.key.client_email)
        .setAudience('google')
        .setIssuedAt(seconds(deps.now()))
        .sign(await googleKey);
      await repo.setGoogleObject(db, pass.serialNumber, objectId);
      return { saveUrl: GOOGLE_SAVE_URL + jwt };
    },
    /**
     * GET /wallet/test-ca.pem: the test CA's certificate (PEM), read when asked.
     * @throws AppError `api.wallet.not_configured` (404) outside wallet test mode.
     */
    testCaPem(): string {
      if (!deps.config.testMode || !apple) throw new AppError('api.wallet.not_configured');
      return readFileSync(apple.wwdrPath, 'utf8');
    },
    /**
     * GET /tickets/{userTicketId}/wallet/apple: the signed `.pkpass` (zip: pass.json, icons, manifest.json
     * with each file's SHA-1, detached PKCS #7 `signature` by the Pass Type ID certificate).
     * @throws AppError `api.wallet.not_configured` (404), `api.ticket.not_found` (404),
     *   `api.wallet.not_yet_available` (409), `api.wallet.event_ended` (409).
     */
    async applePass(holder: Holder, userTicketId: number): Promise<Buffer> {
      if (!apple) throw new AppError('api.wallet.not_configured');
      const { row, pass, code } = await issuable(holder, userTicketId);
      return pkpass(row, pass, code);
    },

    /**
     * Apple's pass update web service, register: `POST /v1/devices/{deviceLibraryIdentifier}/registrations/
     * {passTypeIdentifier}/{serialNumber}` with `{ pushToken }`. Answers 201 when the device is new for this
     * pass, 200 when it was registered (its push token updated). Capped (decision 029): a pass keeps at most
     * `config.devicesPerPass` devices and a device at most `config.passesPerDevice` passes; a registration past a
     * cap evicts the oldest one (race-safe: the pass row and the device id are locked in one transaction).
     * @throws AppError `api.unauthorized` (401) for a wrong pass type, serial or authentication token.
     */
    async register(
      p: { deviceLibraryIdentifier: string; passTypeIdentifier: string; serialNumber: string },
      authorization: string | undefined,
      pushToken: string,
    ): Promise<200 | 201> {
      const pass = await authorizedPass(p.passTypeIdentifier, p.serialNumber, authorization);
      const caps = { devicesPerPass: deps.config.devicesPerPass, passesPerDevice: deps.config.passesPerDevice };
      const created = await db.transaction((tx) =>
        repo.register(
          tx,
          { deviceLibraryIdentifier: p.deviceLibraryIdentifier, serialNumber: pass.serialNumber, pushToken },
          caps,
        ),
      );
      return created ? 201 : 200;
    },

    /**
     * Unregister: `DELETE /v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}`.
     * @throws AppError `api.unauthorized` (401) as {@link register}.
     */
    async unregister(
      p: { deviceLibraryIdentifier: string; passTypeIdentifier: string; serialNumber: string },
      authorization: string | undefined,
    ): Promise<void> {
      const pass = await authorizedPass(p.passTypeIdentifier, p.serialNumber, authorization);
      await repo.unregister(db, p.deviceLibraryIdentifier, pass.serialNumber);
    },

    /**
     * Changed serials: `GET /v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}
     * ?passesUpdatedSince=<tag>`. The tag is the last change's time in ms since the epoch (UTC), as text.
     * Answers `{ serialNumbers, lastUpdated }`, or null (204) when none changed since the tag.
     */
    async updatedSerials(
      deviceLibraryIdentifier: string,
      passTypeIdentifier: string,
      passesUpdatedSince: string | undefined,
    ): Promise<{ serialNumbers: string[]; lastUpdated: string } | null> {
      if (!apple || passTypeIdentifier !== apple.passTypeId) return null;
      const since =
        passesUpdatedSince && /^\d{1,15}$/.test(passesUpdatedSince) ? new Date(Number(passesUpdatedSince)) : null;
      const rows = await repo.devicePasses(db, deviceLibraryIdentifier, since);
      if (!rows.length) return null;
      return {
        serialNumbers: rows.map((r) => r.serialNumber),
        lastUpdated: String(Math.max(...rows.map((r) => r.updatedAt.getTime()))),
      };
    },

    /**
     * Latest pass: `GET /v1/passes/{passTypeIdentifier}/{serialNumber}`: the pass as it is now, signed; voided
     * (`voided: true`, no barcode) once its holder no longer holds the ticket. `lastModified` is its update time.
     * `lastModified` (the Last-Modified to send, whole seconds as HTTP dates go) is the pass's update time, or the
     * second before it while that second lasts, so a change later in the same second never looks like the version
     * the device has. With `ifModifiedSince` (the request's If-Modified-Since, an HTTP date) at or after the update
     * time's second, `pkpass` is null and nothing is signed: the route answers 304 (issue 41, point 10). A ticket
     * that moved before its pass was voided (the update job still due) is always answered in full.
     * `beforeSigning(holderId)` runs once the token is checked and a pass is to be signed (the route's per-holder
     * limit, which throws `api.too_many_requests`).
     * @throws AppError `api.unauthorized` (401) as {@link register}; `api.wallet.not_configured` (404).
     */
    async latestPass(
      passTypeIdentifier: string,
      serialNumber: string,
      authorization: string | undefined,
      ifModifiedSince?: string,
      beforeSigning?: (holderId: number) => Promise<void>,
    ): Promise<{ pkpass: Buffer | null; lastModified: Date }> {
      const pass = await authorizedPass(passTypeIdentifier, serialNumber, authorization);
      const row = await repo.passTicket(db, pass.userTicketId, pass.holderId);
      if (!row) throw new AppError('api.unauthorized');
      const live = row.held && !pass.voidedAt;
      const second = Math.floor(pass.updatedAt.getTime() / 1000) * 1000;
      const lastModified = new Date(second < Math.floor(deps.now().getTime() / 1000) * 1000 ? second : second - 1000);
      const since = ifModifiedSince ? Date.parse(ifModifiedSince) : NaN;
      if (second <= since && (live || pass.voidedAt)) return { pkpass: null, lastModified };
      await beforeSigning?.(pass.holderId);
      return { pkpass: await pkpass(row, pass, live ? await ticketCode(row) : null), lastModified };
    },

    /**
     * Job `wallet.apple_update` (decision 029, "kept true"): the tickets moved or changed (gift, resale, swap,
     * revocation). A pass whose holder no longer holds its ticket is voided; one still held (a swap changed its
     * type) gets a new update tag; either way every device registered for it is pushed, so it fetches the pass
     * as it is now. A voided pass is not pushed again, but by a retry of a job (`opts.retry`: its earlier attempt
     * may have voided the pass and then failed to push, e.g. an APNs that timed out, issue 39). A push token
     * APNs calls dead (410 `Unregistered`, 400 `BadDeviceToken`) loses every registration, so it is never pushed
     * again; at most `config.devicesPerPass` devices are pushed per pass.
     * @returns the pushes sent
     */
    async appleUpdate(userTicketIds: number[], opts: { retry?: boolean } = {}): Promise<number> {
      if (!deps.apns || !apple) return 0;
      let pushes = 0;
      for (const pass of await repo.passesOfTickets(db, userTicketIds)) {
        if (pass.voidedAt && !opts.retry) continue;
        // A pass voided already (a retry) is only pushed again.
        if (!pass.voidedAt) {
          const row = await repo.passTicket(db, pass.userTicketId, pass.holderId);
          if (row?.held) await repo.touchPass(db, pass.serialNumber, deps.now());
          else if (!(await repo.voidPass(db, pass.serialNumber, deps.now()))) continue;
        }
        for (const token of await repo.pushTokens(db, pass.serialNumber, deps.config.devicesPerPass)) {
          const answer = await deps.apns.push(token, apple.passTypeId);
          if (deadPushToken(answer)) await repo.dropPushToken(db, token);
          pushes++;
        }
      }
      return pushes;
    },

    /**
     * Job `wallet.google_update` (decision 029, "kept true"): each Google object of the tickets whose holder no
     * longer holds the ticket is PATCHed `state: INACTIVE` (the new holder gets a new object when they save
     * theirs); one still held gets its ticket type PATCHed (a swap). Idempotent.
     * @returns the objects PATCHed
     */
    async googleUpdate(userTicketIds: number[]): Promise<number> {
      if (!deps.google) return 0;
      let patched = 0;
      for (const pass of await repo.passesOfTickets(db, userTicketIds)) {
        if (!pass.googleObjectId) continue;
        const row = await repo.passTicket(db, pass.userTicketId, pass.holderId);
        await deps.google.api.patchObject(
          pass.googleObjectId,
          row?.held
            ? { state: 'ACTIVE', ticketType: text(row.ticketName, pickLang(row.holder.locale)) }
            : { state: 'INACTIVE' },
        );
        patched++;
      }
      return patched;
    },

    /** The pass-signing pool right now: passes signing (`busy`) and waiting (`queued`); zeros without Apple. */
    signingStats: () => signer?.stats() ?? { busy: 0, queued: 0 },
    /** Ends the pass-signing threads (the app's onClose). */
    async close(): Promise<void> {
      await signer?.close();
    },
  };
}
export type WalletService = ReturnType<typeof createWalletService>;
