/**
 * A swap's reservation (spec sections 4 Swap, 6): `start` reserves the target's stock for the reservation time
 * (live reservations count against the stock), the checkout reads its order, an upgrade is marked paid, and a
 * pending swap is cancelled. Confirming is swap-confirm.ts.
 */
import { randomUUID } from 'node:crypto';
import { isUuid } from '@tp/contract/fields';
import { AppError } from '../../lib/app-error.js';
import { transfersClosed, type Holder } from '../../db/predicates.js';
import { swapRepository as repo } from './swap.repository.js';
import type { SwapDeps } from './swap.service.js';

/** The reservation steps of the swap service: `start`, `order`, `markPaid`, `cancel`. */
export function createSwapReservation(deps: SwapDeps) {
  const db = deps.database.db;
  const reservationMs = (deps.reservationSeconds ?? 15 * 60) * 1000;

  return {
    /**
     * POST /ticket_swap/start_swap: reserves a swap of `swapQuantity` tickets of type `baseTicketId` along `swapPairId`.
     * @throws AppError `api.swap.pair_not_found` (404), `api.swap.not_swappable` (409, no eligible ticket),
     *   `api.swap.quantity_exceeded` (400), `api.swap.out_of_stock` (409).
     */
    async start(
      holder: Holder,
      input: { baseTicketId: number; swapPairId: number; swapQuantity: number },
      redirectUrl: string | null = null,
    ) {
      const now = deps.now();
      return db.transaction(async (tx) => {
        const pair = await repo.pair(tx, input.swapPairId);
        if (!pair || pair.fromTicketTypeId !== input.baseTicketId) throw new AppError('api.swap.pair_not_found');
        const target = await repo.typeWithEvent(tx, pair.toTicketTypeId, true);
        const base = await repo.typeWithEvent(tx, pair.fromTicketTypeId);
        if (transfersClosed(base.event, now)) throw new AppError('api.ticket.transfers_closed');
        const held = await repo.eligibleTicketIds(tx, holder, base.type.id, now);
        const { userId } = holder;
        if (held.length === 0) throw new AppError('api.swap.not_swappable');
        if (input.swapQuantity > held.length) throw new AppError('api.swap.quantity_exceeded');
        await repo.cancelPending(tx, userId, pair.id);
        const left = target.type.stock - (await repo.reserved(tx, target.type.id, now));
        if (input.swapQuantity > left) throw new AppError('api.swap.out_of_stock');
        const differenceCents = pair.priceDifferenceCents ?? target.type.priceCents - base.type.priceCents;
        const swapType = differenceCents > 0 ? ('UPGRADE' as const) : ('DOWNGRADE' as const);
        const id = randomUUID();
        await repo.insertSwap(tx, {
          id,
          userId,
          swapPairId: pair.id,
          quantity: input.swapQuantity,
          swapType,
          differenceCents,
          currencyCode: target.type.currencyCode,
          status: 'PENDING',
          redirectUrl,
          createdAt: now,
          expiresAt: new Date(now.getTime() + reservationMs),
        });
        return { swapType, orderIdentifier: id, name: target.event.name };
      });
    },

    /** The order behind a checkout page (with its organisation's slug, for the page's brand), or undefined. */
    async order(swapId: string) {
      const swap = isUuid(swapId) ? await repo.swap(db, swapId) : undefined;
      if (!swap) return undefined;
      const pair = await repo.pair(db, swap.swapPairId);
      const [base, target] = await Promise.all([
        repo.typeWithEvent(db, pair.fromTicketTypeId),
        repo.typeWithEvent(db, pair.toTicketTypeId),
      ]);
      const organisationSlug = (await repo.organisationSlug(db, base.event.organisationId)) ?? null;
      return { swap, base: base, target: target, expired: swap.expiresAt <= deps.now(), organisationSlug };
    },

    /** Records the (sandbox) payment of an upgrade. */
    async markPaid(swapId: string): Promise<void> {
      await repo.updateSwap(db, swapId, { paidAt: deps.now() });
    },

    /**
     * Cancels a pending swap at once, releasing the target stock it held (issue 13): the checkout's cancel
     * (sandbox page) and POST /ticket_swap/cancel_swap/{swapIdentifier} (a real checkout's cancel return).
     * A paid upgrade is not cancelled here (the payment must be refunded first); a cancelled, expired or
     * unknown swap is left as it is.
     * @throws AppError `api.swap.not_found` (404, unknown or not the caller's), `api.swap.already_confirmed` (409).
     */
    async cancel(userId: number | null, swapId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const swap = isUuid(swapId) ? await repo.swap(tx, swapId, true) : undefined;
        if (!swap || (userId !== null && swap.userId !== userId)) throw new AppError('api.swap.not_found');
        if (swap.status === 'CONFIRMED') throw new AppError('api.swap.already_confirmed');
        if (swap.status === 'PENDING' && !swap.paidAt) await repo.updateSwap(tx, swap.id, { status: 'CANCELLED' });
      });
    },
  };
}
