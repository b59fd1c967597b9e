/**
 * The holders' supply of the exchange queue (issue 45, decision 042): whether a ticket can be returned now, returning
 * it at face value (paid to the holder's verified payout account once sold; refused while a resale listing holds it)
 * and withdrawing it (refused while an offer for it is open). Every change takes the event's exchange lock, then the
 * ticket's row, and matches the type again in the same transaction.
 */
import type { exchange as contract } from '@tp/contract';
import type { Database, DbOrTx } from '../../db/client.js';
import { isHeldBy, type Holder } from '../../db/predicates.js';
import { AppError } from '../../lib/app-error.js';
import { enqueueTicketMovedJobs } from '../../providers/jobs/ticket-moved-jobs.js';
import { exchangeRepository as repo, type SettingsRow } from './exchange.repository.js';
import { matchType } from './exchange-match.js';
import { closesAtOf, isOpen, underEventLock } from './exchange-rules.js';
import type { ExchangeNotices } from './exchange-notices.js';

/** The holders' returns: `database`, the app's clock and the notices matching queues. */
export function createExchangeReturns(deps: { database: Database; now: () => Date; notices: ExchangeNotices }) {
  const { db } = deps.database;
  const { notices } = deps;
  const underLock = <T>(eventId: number, change: (tx: DbOrTx, settings: SettingsRow) => Promise<T>) =>
    underEventLock(db, eventId, change);

  return {
    /**
     * POST /exchange/returns: returns a ticket I hold to its event's queue at face value; it stays mine but is on
     * offer until sold or withdrawn. Matched at once.
     * @throws AppError `api.exchange.return.no_payout_account` (403), `api.exchange.return.not_returnable` (409),
     *   `api.exchange.return.listed` (409), `api.exchange.return.already_returned` (409), `api.exchange.closed`
     *   (409), `api.exchange.not_found` (404)
     */
    async returnTicket(holder: Holder, userTicketId: number): Promise<contract.ExchangeReturn> {
      if (!(await repo.payoutVerified(db, { userId: holder.userId })))
        throw new AppError('api.exchange.return.no_payout_account');
      const at = deps.now();
      const first = await repo.ticket(db, userTicketId, false);
      if (!first || !isHeldBy(first, holder)) throw new AppError('api.exchange.return.not_returnable');
      return underLock(first.event.id, async (tx, settings) => {
        // The lock order: the event's exchange lock, then the ticket's row (read again under both).
        const row = await repo.ticket(tx, userTicketId, true);
        if (!row || !isHeldBy(row, holder)) throw new AppError('api.exchange.return.not_returnable');
        if (!isOpen(settings, row.event, at)) throw new AppError('api.exchange.closed');
        // A ticket whose refund is pending waits for the organiser's decision (issue 46, decision 046).
        if (
          row.ticket.revokedAt !== null ||
          row.ticket.eventAccessUsedAt !== null ||
          row.event.endsAt <= at ||
          row.refundPending
        )
          throw new AppError('api.exchange.return.not_returnable');
        if (row.listed) throw new AppError('api.exchange.return.listed');
        if (await repo.liveUnitOfTicket(tx, userTicketId)) throw new AppError('api.exchange.return.already_returned');
        const [unitId] = await repo.insertUnits(tx, [
          {
            eventId: row.event.id,
            ticketTypeId: row.type.id,
            userTicketId,
            sellerUserId: holder.userId,
            organisationId: null,
            priceCents: row.type.priceCents,
            currencyCode: row.type.currencyCode,
            createdAt: at,
          },
        ]);
        // Its wallet passes stop showing a code (Apple) or turn inactive (Google) while it is on offer.
        await enqueueTicketMovedJobs(tx, [userTicketId]);
        await matchType({ tx, notices }, settings, row.type.id, at);
        const unit = await repo.unit(tx, unitId);
        return {
          userTicketId,
          status: unit?.status === 'RESERVED' || unit?.status === 'HELD' ? unit.status : 'AVAILABLE',
          priceCents: row.type.priceCents,
          currencyCode: row.type.currencyCode,
        };
      });
    },

    /**
     * GET /exchange/returns/{userTicketId}: whether my ticket can be returned to its event's queue now, and its state
     * while returned (read without the lock: the POST decides under it).
     * @throws AppError `api.exchange.return.ticket_not_found` (404) when the ticket is not mine
     */
    async returnState(holder: Holder, userTicketId: number): Promise<contract.ExchangeReturnState> {
      const row = await repo.ticket(db, userTicketId, false);
      if (!row || !isHeldBy(row, holder)) throw new AppError('api.exchange.return.ticket_not_found');
      const settings = await repo.settings(db, row.event.id);
      const unit = await repo.liveUnitOfTicket(db, userTicketId);
      const at = deps.now();
      const usable =
        row.ticket.revokedAt === null &&
        row.ticket.eventAccessUsedAt === null &&
        row.event.endsAt > at &&
        !row.refundPending;
      const status = unit && unit.sellerUserId === holder.userId ? unit.status : null;
      return {
        userTicketId,
        returnable: isOpen(settings, row.event, at) && usable && !row.listed && !unit,
        status: status === 'AVAILABLE' || status === 'HELD' || status === 'RESERVED' ? status : null,
        priceCents: row.type.priceCents,
        currencyCode: row.type.currencyCode,
        closesAt: settings?.enabled ? closesAtOf(settings, row.event).toISOString() : null,
      };
    },

    /**
     * DELETE /exchange/returns/{userTicketId}: takes my returned ticket back (it admits again, and its wallet passes
     * show its code again).
     * @throws AppError `api.exchange.withdraw.not_found` (404), `api.exchange.withdraw.reserved` (409)
     */
    async withdraw(holder: Holder, userTicketId: number): Promise<void> {
      const first = await repo.liveUnitOfTicket(db, userTicketId);
      if (!first || first.sellerUserId !== holder.userId) throw new AppError('api.exchange.withdraw.not_found');
      await underLock(first.eventId, async (tx, settings) => {
        const unit = await repo.liveUnitOfTicket(tx, userTicketId);
        if (!unit || unit.sellerUserId !== holder.userId) throw new AppError('api.exchange.withdraw.not_found');
        if (unit.status === 'RESERVED') throw new AppError('api.exchange.withdraw.reserved');
        await repo.setUnits(tx, [unit], 'WITHDRAWN', null, deps.now());
        await enqueueTicketMovedJobs(tx, [userTicketId]);
        await matchType({ tx, notices }, settings, unit.ticketTypeId, deps.now());
      });
    },
  };
}
export type ExchangeReturns = ReturnType<typeof createExchangeReturns>;
