/**
 * A held ticket as the wallet issues it (issue 22, decision 029): whether it may have a pass now, its pass row
 * (made on first use) and its ticket code, signed with the pass-signing key. Apple's pass and Google's link both
 * start here.
 */
import { randomBytes } from 'node:crypto';
import { signTicketCode, type TicketCodeMedium } from '@tp/contract/pass-code';
import { AppError } from '../../lib/app-error.js';
import { nodeEd25519 } from '../../lib/ed25519.js';
import type { Holder } from '../../db/predicates.js';
import { walletRepository as repo, type WalletTicketRow } from './wallet.repository.js';
import { seconds, walletRevealAt, walletSerialNumber, type WalletDeps } from './wallet-common.js';

/** The issuing helpers of the wallet's parts: `issuable(holder, userTicketId)` and `ticketCode(row, medium)`. */
export function createWalletTickets(deps: Pick<WalletDeps, 'database' | 'signingKey' | 'now'>) {
  const { db } = deps.database;
  const ed25519 = nodeEd25519();

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

  return { issuable, ticketCode };
}
export type WalletTickets = ReturnType<typeof createWalletTickets>;
