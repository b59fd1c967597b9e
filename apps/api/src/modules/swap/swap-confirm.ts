/**
 * Confirming a swap (spec sections 4 Swap, 6): the ticket type changes in one transaction after payment (an
 * UPGRADE) or at once (a DOWNGRADE), with its webhook events, wallet jobs and the holder's mail.
 */
import { isUuid } from '@tp/contract/fields';
import { AppError } from '../../lib/app-error.js';
import { transfersClosed } from '../../db/predicates.js';
import { swapRepository as repo } from './swap.repository.js';
import { mailSwapDone } from './swap-mail.js';
import { enqueueTicketEvents } from '../outbound-webhooks/outbound-events.js';
import { enqueueTicketMovedJobs } from '../../providers/jobs/ticket-moved-jobs.js';
import type { SwapDeps } from './swap.service.js';

/** The last step of the swap service: `confirm`. */
export function createSwapConfirm(deps: SwapDeps) {
  const db = deps.database.db;

  return {
    /**
     * POST /ticket_swap/confirm_swap/{swapIdentifier}: changes the type of the caller's tickets in one
     * transaction (swap row, target type and tickets locked), moves stock, records history; then e-mails the
     * holder (issue 23, `swapDoneMail`).
     * @throws AppError `api.swap.not_found` (404), `api.swap.already_confirmed` (409), `api.swap.expired` (409),
     *   `api.swap.payment_required` (402, an unpaid upgrade), `api.swap.not_swappable` (409, tickets no longer eligible).
     */
    async confirm(userId: number | null, swapId: string): Promise<{ swapType: string; quantity: number }> {
      const now = deps.now();
      const done = await db.transaction(async (tx) => {
        const swap = isUuid(swapId) ? await repo.swap(tx, swapId, true) : undefined;
        if (!swap || (userId !== null && swap.userId !== userId)) throw new AppError('api.swap.not_found');
        if (swap.status === 'CONFIRMED') throw new AppError('api.swap.already_confirmed');
        if (swap.status !== 'PENDING' || (swap.expiresAt <= now && !swap.paidAt))
          throw new AppError('api.swap.expired');
        if (swap.swapType === 'UPGRADE' && !swap.paidAt) throw new AppError('api.swap.payment_required');
        const pair = await repo.pair(tx, swap.swapPairId);
        const target = await repo.typeWithEvent(tx, pair.toTicketTypeId, true);
        if (transfersClosed(target.event, now) && !swap.paidAt) throw new AppError('api.ticket.transfers_closed');
        if (target.type.stock - (await repo.reserved(tx, target.type.id, now, swap.id)) < swap.quantity)
          throw new AppError('api.swap.out_of_stock');
        const ids = (
          await repo.eligibleTicketIds(
            tx,
            { userId: swap.userId, organisationId: null },
            pair.fromTicketTypeId,
            now,
            true,
          )
        ).slice(0, swap.quantity);
        if (ids.length < swap.quantity) throw new AppError('api.swap.not_swappable');
        await repo.applySwap(tx, {
          userId: swap.userId,
          ticketIds: ids,
          fromTypeId: pair.fromTicketTypeId,
          toTypeId: pair.toTicketTypeId,
          at: now,
        });
        await repo.updateSwap(tx, swap.id, { status: 'CONFIRMED', confirmedAt: now });
        await enqueueTicketEvents(tx, 'ticket.swapped', ids, now, {
          swapType: swap.swapType as 'UPGRADE' | 'DOWNGRADE',
          fromTicketTypeId: pair.fromTicketTypeId,
          toTicketTypeId: pair.toTicketTypeId,
        });
        await enqueueTicketMovedJobs(tx, ids);
        // What the holder paid: an upgrade's difference for each ticket (the checkout's amount), nothing for a downgrade.
        const paidCents = swap.swapType === 'UPGRADE' ? swap.differenceCents * swap.quantity : 0;
        await mailSwapDone(deps.config, tx, now, {
          userId: swap.userId,
          ticketIds: ids,
          target,
          paid: { cents: paidCents, currencyCode: swap.currencyCode },
        });
        return { swapType: swap.swapType, quantity: swap.quantity };
      });
      return { swapType: done.swapType, quantity: done.quantity };
    },
  };
}
