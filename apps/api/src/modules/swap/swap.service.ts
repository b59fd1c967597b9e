/**
 * Ticket swaps (spec sections 2 Swap, 4 Swap, 6). Organiser-defined pairs between ticket types of
 * one event; only the caller's unused `isSwappable` tickets of upcoming events; the target's stock
 * is respected, counting live reservations. `start` reserves for `reservationSeconds`; `confirm`
 * changes the ticket type atomically after payment (an UPGRADE) or at once (a DOWNGRADE).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { transfersClosed, type Holder } from '../../db/predicates.js';
import { currencySymbol, fromCents } from '../../lib/money.js';
import { swapRepository as repo, type TypeWithEvent } from './swap.repository.js';
import { mailSwapDone } from './swap-mail.js';
import { enqueueTicketEvents } from '../outbound-webhooks/outbound-events.js';
import { enqueueTicketMovedJobs } from '../../providers/jobs/ticket-moved-jobs.js';
import { isUuid } from '@tp/contract/fields';
import type { Config } from '../../config.js';

type TypeRow = TypeWithEvent['type'];
type EventRow = TypeWithEvent['event'];

/**
 * The Swap base ticket / target shape of spec section 3 (price in major units), plus the event's name,
 * venue, city, start (ISO UTC) and time zone so the panel can tell apart types of the same name.
 */
const toSwapTicket = (type: TypeRow, event: EventRow, id: number, quantity: number) => ({
  id,
  name: type.name,
  logo: type.logo,
  price: fromCents(type.priceCents),
  currencySymbol: currencySymbol(type.currencyCode),
  currencyCode: type.currencyCode,
  quantity,
  eventId: event.id,
  eventName: event.name,
  eventVenue: event.venue,
  eventCity: event.city,
  eventStartDateTime: event.startsAt.toISOString(),
  eventTimeZone: event.timeZone,
});

// Over 150 lines: the swap's steps (targets, start, pay, confirm, cancel) share one reservation rule; not yet split
// (issue 43).
export function createSwapService(deps: {
  database: Database;
  now: () => Date;
  reservationSeconds?: number;
  config: Pick<Config, 'publicUrl' | 'productName' | 'wallet'>;
}) {
  const db = deps.database.db;
  const reservationMs = (deps.reservationSeconds ?? 15 * 60) * 1000;

  return {
    /**
     * GET /ticket_swap/tickets: the caller's swappable ticket types; `id` is the ticket type id, `quantity` how many
     * they hold, `userTicketIds` which of their tickets those are (so a USER_TICKET_ID can pre-select its type).
     */
    async baseTickets(holder: Holder) {
      const rows = await repo.baseTypes(db, holder, deps.now());
      return rows.map((r) => ({
        ...toSwapTicket(r.type, r.event, r.type.id, r.quantity),
        userTicketIds: r.userTicketIds.map(Number),
      }));
    },

    /** GET /ticket_swap/tickets/{ticketId}: targets of a base type; `id` is the swap pair id, `quantity` the stock left. */
    async targets(ticketTypeId: number) {
      const now = deps.now();
      const pairs = await repo.pairsFrom(db, ticketTypeId);
      const base = pairs.some((p) => p.pair.priceDifferenceCents !== null)
        ? await repo.typeWithEvent(db, ticketTypeId)
        : undefined;
      return Promise.all(
        pairs.map(async ({ pair, target, event }) => {
          const left = Math.max(0, target.stock - (await repo.reserved(db, target.id, now)));
          // A pair with the organiser's own price difference shows the target at base price + difference, so that
          // the panel's "target - base" is what the holder pays (issue 21).
          const shown =
            base && pair.priceDifferenceCents !== null
              ? { ...target, priceCents: base.type.priceCents + pair.priceDifferenceCents }
              : target;
          return toSwapTicket(shown, event, pair.id, left);
        }),
      );
    },

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
export type SwapService = ReturnType<typeof createSwapService>;
