/**
 * Google Wallet save links (issue 22, decision 029): an event-ticket class per event and an object per held ticket,
 * inserted through the REST API (a local fake in test mode); the save link is a JWT naming only the object's id.
 * Its rotating barcode shows `<rotating ticket code>.{totp_timestamp_seconds}.{totp_value_0}` (kind 4: refused
 * without the suffix).
 */
import { importPKCS8, SignJWT } from 'jose';
import type { WalletResource } from '../../providers/google-wallet/google-wallet.provider.js';
import { holderDisplayName } from '@tp/contract';
import { WALLET_TOTP_DIGITS, WALLET_TOTP_PERIOD_SECONDS } from '@tp/contract/wallet-totp';
import { AppError } from '../../lib/app-error.js';
import { pickLang } from '../../lib/lang.js';
import type { Holder } from '../../db/predicates.js';
import { walletRepository as repo, type WalletTicketRow } from './wallet.repository.js';
import type { WalletTickets } from './wallet-tickets.js';
import {
  DEFAULT_COLOR,
  entryField,
  GOOGLE_SAVE_URL,
  joined,
  seconds,
  text,
  walletRevealAt,
  type WalletDeps,
} from './wallet-common.js';

/** Seconds a holder is told to wait (`Retry-After`) when Google Wallet failed or did not answer in time. */
const GOOGLE_UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

/**
 * Runs one Google Wallet call of a holder's request; its failure (a timeout, no connection, an error status)
 * becomes 503 `api.service_unavailable` with `Retry-After`, the failure kept as the cause for the log.
 * @throws AppError `api.service_unavailable`
 */
async function googleCall(call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (err) {
    throw new AppError(
      'api.service_unavailable',
      {},
      { 'Retry-After': String(GOOGLE_UNAVAILABLE_RETRY_AFTER_SECONDS) },
      { cause: err },
    );
  }
}

/**
 * The event-ticket class of the ticket's event as Google Wallet shows it (one per event, id `<issuer>.event-<id>`):
 * the organiser, the event's name, venue and times, the brand's colour, in the holder's language.
 */
export function googleEventClass(row: WalletTicketRow, issuerId: string): WalletResource {
  const { event } = row;
  const lang = pickLang(row.holder.locale);
  return {
    id: `${issuerId}.event-${event.id}`,
    issuerName: row.organisationName,
    reviewStatus: 'UNDER_REVIEW',
    eventName: text(event.name, lang),
    venue: { name: text(event.venue, lang), address: text(joined(event.address1, event.city), lang) },
    dateTime: { start: event.startsAt.toISOString(), end: event.endsAt.toISOString() },
    hexBackgroundColor: row.primaryColor ?? DEFAULT_COLOR,
  };
}

/** When a Google object is valid: from the pass's reveal to the event's end (it follows a new date, issue 46). */
export const googleValidity = (event: WalletTicketRow['event']) => ({
  start: { date: walletRevealAt(event).toISOString() },
  end: { date: event.endsAt.toISOString() },
});

/** The Google link part: `googleSaveUrl`. Without Google settings it answers `api.wallet.not_configured`. */
export function createGoogleLink(
  deps: Pick<WalletDeps, 'database' | 'config' | 'google' | 'publicUrl' | 'now'>,
  tickets: WalletTickets,
) {
  const { db } = deps.database;
  const googleKey = deps.google ? importPKCS8(deps.google.key.private_key, 'RS256') : null;
  return {
    /**
     * GET /tickets/{userTicketId}/wallet/google: inserts (or updates) the event's class and the ticket's object
     * in Google Wallet and answers the save link, `https://pay.google.com/gp/v/save/<JWT>` (RS256 by the service
     * account; `payload.eventTicketObjects` holds only the object's id).
     * A call to Google that fails (no answer within GOOGLE_WALLET_TIMEOUT_SECONDS, no connection, an error status)
     * answers 503 with `Retry-After`: an outside outage, not the holder's mistake nor a 500 (issue 39, fifteenth
     * re-run); the cause goes to the log.
     * @throws AppError `api.wallet.not_configured` (404), `api.ticket.not_found` (404),
     *   `api.wallet.not_yet_available` (409), `api.wallet.event_ended` (409), `api.service_unavailable` (503).
     */
    async googleSaveUrl(holder: Holder, userTicketId: number): Promise<{ saveUrl: string }> {
      const google = deps.google;
      const issuerId = deps.config.google?.issuerId;
      if (!google || !googleKey || !issuerId) throw new AppError('api.wallet.not_configured');
      const { row, pass } = await tickets.issuable(holder, userTicketId);
      const code = await tickets.ticketCode(row, 'rotating');
      const { event } = row;
      const eventClass = googleEventClass(row, issuerId);
      const classId = eventClass.id;
      // The object's id names its holder (the pass's serial), so a new holder gets a new object.
      const objectId = `${issuerId}.${pass.serialNumber}`;
      const color = row.primaryColor ?? DEFAULT_COLOR;
      const lang = pickLang(row.holder.locale);
      const admits = entryField(row.entryRules, lang);
      await googleCall(() => google.api.upsertClass(eventClass));
      await googleCall(() =>
        google.api.upsertObject({
          id: objectId,
          classId,
          // A ticket returned to the exchange queue does not admit (issue 45): its object is inactive until withdrawn;
          // so is one of a cancelled event, for good (issue 46).
          state: row.returned || row.event.cancelledAt ? 'INACTIVE' : 'ACTIVE',
          ticketHolderName: holderDisplayName(row.holder),
          ticketType: text(row.ticketName, lang),
          // The days and zones of a type with entry rules (issue 48), labelled in the holder's language.
          ...(admits ? { textModulesData: [{ id: 'admits', header: admits.label, body: admits.value }] } : {}),
          hexBackgroundColor: color,
          validTimeInterval: googleValidity(event),
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
        }),
      );
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
  };
}
