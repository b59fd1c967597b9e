/**
 * Wallet passes (issue 22, decision 029): a held ticket as an Apple Wallet `.pkpass`. The barcode is a ticket
 * code (`@tp/contract/pass-code`, kind 3) signed with the pass-signing key, so the door's public-key check
 * admits it online and offline; it is valid from the event's `passRevealAt` (or 24 h before the event starts
 * when unset) until the event ends, and the online door admits it only while its holder still holds the ticket.
 * Google Wallet: an event-ticket class per event and an object per held ticket inserted through the REST API
 * (a local fake in test mode), the save link a JWT naming only the object's id; its rotating barcode shows
 * `<rotating ticket code>.{totp_timestamp_seconds}.{totp_value_0}` (kind 4: refused without the suffix).
 *
 * Composed from its parts: wallet-tickets.ts (whether and how a held ticket is issued), apple-pass.ts (the
 * `.pkpass`), google-link.ts (the save link), apple-web-service.ts (Apple's update web service) and
 * wallet-updates.ts (the update jobs); wallet-common.ts holds what they share.
 */
import { createApplePass } from './apple-pass.js';
import { createAppleWebService } from './apple-web-service.js';
import { createGoogleLink } from './google-link.js';
import type { WalletDeps } from './wallet-common.js';
import { createWalletTickets } from './wallet-tickets.js';
import { createWalletUpdates } from './wallet-updates.js';

/**
 * The wallet service: Apple passes, Google save links and test mode's CA. A wallet whose settings are missing
 * (`WalletConfig.apple` / `google` null) answers `api.wallet.not_configured`.
 */
export function createWalletService(deps: WalletDeps) {
  const tickets = createWalletTickets(deps);
  const { pkpass, ...apple } = createApplePass(deps, tickets);
  return {
    ...createGoogleLink(deps, tickets),
    ...apple,
    ...createAppleWebService(deps, tickets, { pkpass }),
    ...createWalletUpdates(deps),
  };
}
export type WalletService = ReturnType<typeof createWalletService>;
