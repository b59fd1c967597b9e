/**
 * Ticket swaps (spec sections 2 Swap, 4 Swap, 6). Organiser-defined pairs between ticket types of
 * one event; only the caller's unused `isSwappable` tickets of upcoming events; the target's stock
 * is respected, counting live reservations. `start` reserves for `reservationSeconds`; `confirm`
 * changes the ticket type atomically after payment (an UPGRADE) or at once (a DOWNGRADE).
 */
import type { Database } from '../../db/client.js';
import type { Holder } from '../../db/predicates.js';
import { currencySymbol, fromCents } from '../../lib/money.js';
import { swapRepository as repo, type TypeWithEvent } from './swap.repository.js';
import { createSwapReservation } from './swap-reservation.js';
import { createSwapConfirm } from './swap-confirm.js';
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

/** The swap service's dependencies; `reservationSeconds` is how long `start` holds the target's stock (15 min). */
export interface SwapDeps {
  database: Database;
  now: () => Date;
  reservationSeconds?: number;
  config: Pick<Config, 'publicUrl' | 'productName' | 'wallet'>;
}

/**
 * The swap service: the caller's swappable types and their targets here; the reservation (start, order,
 * markPaid, cancel) in swap-reservation.ts, `confirm` in swap-confirm.ts.
 */
export function createSwapService(deps: SwapDeps) {
  const db = deps.database.db;

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

    ...createSwapReservation(deps),
    ...createSwapConfirm(deps),
  };
}
export type SwapService = ReturnType<typeof createSwapService>;
