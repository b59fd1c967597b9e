/**
 * Wallet passes (issue 22, decision 029): a held ticket as an Apple Wallet `.pkpass`. The barcode is a ticket
 * code (`@tp/contract/pass-code`, kind 3) signed with the pass-signing key, so the door's public-key check
 * admits it online and offline; it is valid from the event's `passRevealAt` (or 24 h before the event starts
 * when unset) until the event ends, and the online door admits it only while its holder still holds the ticket.
 * Google Wallet: an event-ticket class per event and an object per held ticket inserted through the REST API
 * (a local fake in test mode), the save link a JWT naming only the object's id; its rotating barcode shows
 * `<ticket code>.{totp_timestamp_seconds}.{totp_value_0}`.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { importPKCS8, SignJWT } from 'jose';
import { PKPass } from 'passkit-generator';
import { holderDisplayName } from '@tp/contract';
import { signTicketCode } from '@tp/contract/pass-code';
import type { WalletConfig } from '../../config.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { nodeEd25519 } from '../../lib/ed25519.js';
import type { Holder } from '../../db/predicates.js';
import type { GoogleWalletApi, ServiceAccountKey } from '../../providers/google-wallet/google-wallet.provider.js';
import { walletRepository as repo, type WalletTicketRow } from './wallet.repository.js';

/** Seconds before an event's start its wallet pass is issued when the event sets no `passRevealAt`. */
export const WALLET_DEFAULT_REVEAL_SECONDS = 24 * 3600;
/** Google's save link prefix: the signed JWT follows. */
export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';
/** Seconds per TOTP value of a Google rotating barcode. */
const TOTP_PERIOD_SECONDS = 30;
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
  now: () => Date;
}) {
  const { db } = deps.database;
  const ed25519 = nodeEd25519();
  const apple = deps.config.apple;
  /** Apple's certificates, read once (PEM text). */
  const appleCertificates = apple
    ? () => ({
        wwdr: readFileSync(apple.wwdrPath),
        signerCert: readFileSync(apple.certPath),
        signerKey: readFileSync(apple.keyPath),
        ...(apple.keyPassphrase ? { signerKeyPassphrase: apple.keyPassphrase } : {}),
      })
    : null;
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
    const code = await signTicketCode(
      deps.signingKey,
      {
        userTicketId: row.userTicketId,
        holderId: row.holderId,
        validFrom: seconds(revealAt),
        validUntil: seconds(row.event.endsAt),
      },
      ed25519,
    );
    return { row, code };
  }

  /** The pass.json fields of a ticket (eventTicket style, semantic tags, relevance). */
  function passProps(row: WalletTicketRow, a: NonNullable<WalletConfig['apple']>) {
    const color = row.primaryColor ?? DEFAULT_COLOR;
    const { event } = row;
    return {
      formatVersion: 1 as const,
      passTypeIdentifier: a.passTypeId,
      teamIdentifier: a.teamId,
      serialNumber: `ticket-${row.userTicketId}`,
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
  const googleIds = (row: WalletTicketRow, issuerId: string) => ({
    classId: `${issuerId}.event-${row.event.id}`,
    objectId: `${issuerId}.ticket-${row.userTicketId}-${row.holderId}`,
  });
  /** The per-pass TOTP secret (hex, 20 bytes): derived from the signing key, never stored. */
  const totpSecret = (row: WalletTicketRow) =>
    createHmac('sha256', deps.signingKey)
      .update(`tp-wallet-totp-v1:${row.userTicketId}:${row.holderId}`)
      .digest()
      .subarray(0, 20)
      .toString('hex');
  const text = (value: string) => ({ defaultValue: { language: 'en', value } });

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
      const { row, code } = await issuable(holder, userTicketId);
      const { event } = row;
      const { classId, objectId } = googleIds(row, issuerId);
      const color = row.primaryColor ?? DEFAULT_COLOR;
      await google.api.upsertClass({
        id: classId,
        issuerName: row.organisationName,
        reviewStatus: 'UNDER_REVIEW',
        eventName: text(event.name),
        venue: { name: text(event.venue), address: text(`${event.address1}, ${event.city}`) },
        dateTime: { start: event.startsAt.toISOString(), end: event.endsAt.toISOString() },
        hexBackgroundColor: color,
      });
      await google.api.upsertObject({
        id: objectId,
        classId,
        state: 'ACTIVE',
        ticketHolderName: holderDisplayName(row.holder),
        ticketType: text(row.ticketName),
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
            periodMillis: TOTP_PERIOD_SECONDS * 1000,
            algorithm: 'TOTP_SHA1',
            parameters: [{ key: totpSecret(row), valueLength: 8 }],
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
      if (!apple || !appleCertificates) throw new AppError('api.wallet.not_configured');
      const { row, code } = await issuable(holder, userTicketId);
      const color = row.primaryColor ?? DEFAULT_COLOR;
      const pass = new PKPass(
        {
          'icon.png': await icon(color, 29),
          'icon@2x.png': await icon(color, 58),
          'logo.png': await icon(color, 50),
        },
        appleCertificates(),
        passProps(row, apple),
      );
      pass.type = 'eventTicket';
      const { event } = row;
      pass.primaryFields.push({ key: 'event', label: 'EVENT', value: event.name });
      pass.secondaryFields.push(
        { key: 'ticket', label: 'TICKET', value: row.ticketName },
        { key: 'holder', label: 'HOLDER', value: holderDisplayName(row.holder) },
      );
      pass.auxiliaryFields.push(
        {
          key: 'starts',
          label: 'STARTS',
          value: event.startsAt.toISOString(),
          dateStyle: 'PKDateStyleMedium',
          timeStyle: 'PKDateStyleShort',
        },
        { key: 'venue', label: 'VENUE', value: `${event.venue}, ${event.city}` },
      );
      pass.backFields.push({ key: 'address', label: 'ADDRESS', value: `${event.address1}, ${event.city}` });
      pass.setBarcodes({ message: code, format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1' });
      pass.setRelevantDate(event.startsAt);
      pass.setExpirationDate(event.endsAt);
      if (event.latitude !== null && event.longitude !== null)
        pass.setLocations({ latitude: event.latitude, longitude: event.longitude, relevantText: event.name });
      return pass.getAsBuffer();
    },
  };
}
export type WalletService = ReturnType<typeof createWalletService>;
