/**
 * Apple Wallet passes (issue 22, decision 029): a held ticket as a signed `.pkpass` in the organisation's colour,
 * labelled in the holder's language; built and signed off the event loop (pass-signer.ts, issue 39). Also the test
 * CA of wallet test mode and the signing pool's state.
 */
import { readFileSync } from 'node:fs';
import { holderDisplayName } from '@tp/contract';
import type { WalletConfig } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import { pickLang } from '../../lib/lang.js';
import type { Holder } from '../../db/predicates.js';
import { createPassSigner } from './pass-signer.js';
import type { WalletPassRow, WalletTicketRow } from './wallet.repository.js';
import type { WalletTickets } from './wallet-tickets.js';
import {
  APPLE_WEB_SERVICE_PATH,
  DEFAULT_COLOR,
  entryField,
  joined,
  passLabels,
  rgb,
  type WalletDeps,
} from './wallet-common.js';

/**
 * The Apple pass part: `pkpass` (for the update web service too) and the routes' `applePass`, `testCaPem`,
 * `signingStats`, `close`. Without Apple settings (`WalletConfig.apple` null) it answers `api.wallet.not_configured`.
 */
export function createApplePass(
  deps: Pick<WalletDeps, 'config' | 'publicUrl' | 'passSigningWorker'>,
  tickets: WalletTickets,
) {
  const apple = deps.config.apple;
  /** Apple passes are built and signed off the event loop (issue 39); threads start on the first pass. */
  const signer = apple
    ? createPassSigner({ certificates: apple, config: deps.config.signing, workerFile: deps.passSigningWorker })
    : null;
  /** Icons in the organisation's colour, by colour and size (square PNGs). */
  const icons = new Map<string, Promise<Buffer>>();
  const icon = (color: string, size: number) => {
    const key = `${color}:${size}`;
    let png = icons.get(key);
    if (!png) {
      // sharp (libvips) is loaded with the first icon, not at start (decision 041).
      png = import('sharp').then(({ default: sharp }) =>
        sharp({ create: { width: size, height: size, channels: 3, background: color } })
          .png()
          .toBuffer(),
      );
      icons.set(key, png);
    }
    return png;
  };

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

  /**
   * The signed `.pkpass` of an issued pass: its ticket code in the barcode while the pass's holder holds the
   * ticket (`code`), else voided (`voided: true`, no barcode). A held ticket returned to the exchange queue (issue
   * 45) shows no barcode and a status field saying it does not admit, without being voided: it comes back when the
   * holder withdraws it or the queue closes unsold. Only the plain data is made here; the pass is built
   * and signed on a signing thread (pass-signer.ts, issue 39).
   * @throws AppError `api.wallet.not_configured` (404), `api.wallet.busy` (503, Retry-After) from the signer.
   */
  async function pkpass(row: WalletTicketRow, pass: WalletPassRow, code: string | null): Promise<Buffer> {
    if (!apple || !signer) throw new AppError('api.wallet.not_configured');
    const color = row.primaryColor ?? DEFAULT_COLOR;
    const { event } = row;
    const { labels, localizations } = passLabels(pickLang(row.holder.locale));
    // Held but not admitting: returned to the exchange queue (issue 45), or the event cancelled (issue 46).
    const returned = code !== null && row.returned;
    const cancelled = code !== null && row.event.cancelledAt !== null;
    const admits = entryField(row.entryRules, pickLang(row.holder.locale));
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
        ...(admits ? [{ key: 'admits', ...admits }] : []),
        ...(returned || cancelled
          ? [{ key: 'status', label: labels.status, value: cancelled ? labels.cancelled : labels.returned }]
          : []),
      ],
      backFields: [{ key: 'address', label: labels.address, value: joined(event.address1, event.city) }],
      barcode: returned || cancelled ? null : code,
      relevantDate: event.startsAt,
      expirationDate: event.endsAt,
      location:
        event.latitude !== null && event.longitude !== null
          ? { latitude: event.latitude, longitude: event.longitude, relevantText: event.name }
          : null,
      localizations,
    });
  }

  return {
    pkpass,
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
      const { row, pass, code } = await tickets.issuable(holder, userTicketId);
      return pkpass(row, pass, code);
    },

    /** The pass-signing pool right now: passes signing (`busy`) and waiting (`queued`); zeros without Apple. */
    signingStats: () => signer?.stats() ?? { busy: 0, queued: 0 },
    /** Ends the pass-signing threads (the app's onClose). */
    async close(): Promise<void> {
      await signer?.close();
    },
  };
}
export type ApplePass = ReturnType<typeof createApplePass>;
