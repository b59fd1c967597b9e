/**
 * Rules shared by several repositories and services, each written once.
 *
 * "May this ticket move" (spec section 6: per-ticket flags isGiftable, isResellable, isSwappable, each
 * additionally blocked once event access is used): a ticket may be gifted, listed for resale or swapped by
 * `holder` when
 * - `holder` holds it (`heldBy`: the user, within the organisation the request names; a ticket held under a
 *   resale code has no holder and moves only by redeem),
 * - its type allows the move (`isGiftable` / `isResellable` / `isSwappable`),
 * - its event access is unused,
 * - its event is not over (`ends_at` after `now`, UTC),
 * - it is not on sale: not in a live resale listing nor returned to an exchange queue (decision 042, one sale at
 *   a time),
 * - it is not revoked by its organiser (`revoked_at` null; issue 12),
 * - no refund request of it is pending (issue 46, decision 046: the organiser decides on the ticket the holder
 *   asked about; withdrawing the request frees it).
 *
 * The rule has two forms that must agree (test/ticket-moves.test.ts checks them on a table of cases):
 * `ticketMayMoveSql` filters rows in a query, `ticketMayMove` decides over a row already loaded (the
 * gift and resale checks inside the ownership-move transaction, the flags of the ticket listing).
 * Rules that belong to one move only (resale's countries, swap pairs, stock) stay with that move.
 *
 * "Whose tickets does this request see" (issue 12, the panel per organiser): a holder request carries a
 * `Holder`, the signed-in user and the organisation its `X-Organisation` header names (null: none, every
 * ticket the user holds). `heldBy` is the one SQL form of it and `ticketMayMoveSql` includes it, so every
 * list and lookup of the holder's tickets is limited to that organisation's events in one place.
 */
import { and, eq, gt, isNotNull, isNull, not, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { DbOrTx } from './client.js';
import {
  benefits,
  events,
  exchangeUnits,
  organisations,
  refundRequests,
  resaleListingTickets,
  ticketTypes,
  userTicketBenefits,
  userTickets,
} from './schema.js';

/** The signed-in holder of a request and the organisation the panel is shown for (null: all organisations). */
export interface Holder {
  userId: number;
  organisationId: number | null;
}

/**
 * Tickets `holder` holds, limited to its organisation's events when it names one. The query must join
 * `user_tickets`, `ticket_types` (on the ticket's type) and `events` (on the type's event).
 */
export function heldBy(holder: Holder): SQL {
  return and(
    // With the null check the condition is true or false, never NULL (a ticket held under a code).
    isNotNull(userTickets.holderId),
    eq(userTickets.holderId, holder.userId),
    inOrganisation(holder.organisationId),
  )!;
}

/** The events of one organisation (`events` joined); no condition for null. */
export function inOrganisation(organisationId: number | null): SQL | undefined {
  return organisationId === null ? undefined : eq(events.organisationId, organisationId);
}

/** `heldBy` over a loaded row: the TypeScript twin (same ticket, same organisation). */
export function isHeldBy(
  row: { ticket: { holderId: number | null }; event: { organisationId: number } },
  holder: Holder,
): boolean {
  return (
    row.ticket.holderId === holder.userId &&
    (holder.organisationId === null || row.event.organisationId === holder.organisationId)
  );
}

/** True while the ticket (a user_tickets.id column) is in a live resale listing. */
export const ticketIsListed = (userTicketId: AnyPgColumn): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${resaleListingTickets} where ${resaleListingTickets.userTicketId} = ${userTicketId} and ${resaleListingTickets.status} = 'LISTED')`;

/**
 * True while the ticket is returned to an exchange queue: one of its units AVAILABLE, HELD or RESERVED (issue 45,
 * decision 042). It stays its holder's but does not admit until it is sold or withdrawn.
 */
export const ticketIsReturned = (userTicketId: AnyPgColumn): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${exchangeUnits} where ${exchangeUnits.userTicketId} = ${userTicketId} and ${exchangeUnits.status} in ('AVAILABLE', 'HELD', 'RESERVED'))`;

/**
 * True while the ticket is on sale: in a live resale listing, or returned to an exchange queue
 * (`ticketIsReturned`). Such a ticket moves only by that sale.
 */
export const ticketIsOnSale = (userTicketId: AnyPgColumn): SQL<boolean> =>
  sql<boolean>`(${ticketIsListed(userTicketId)} or ${ticketIsReturned(userTicketId)})`;

/** True while a refund request of the ticket waits for the organiser's decision (issue 46, decision 046). */
export const ticketRefundPending = (userTicketId: AnyPgColumn): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${refundRequests} where ${refundRequests.userTicketId} = ${userTicketId} and ${refundRequests.status} = 'pending')`;

/**
 * True while the ticket is held back from every move: on sale (`ticketIsOnSale`) or its refund pending
 * (`ticketRefundPending`). The `listed` of a {@link MoveCandidate}.
 */
export const ticketIsHeldBack = (userTicketId: AnyPgColumn): SQL<boolean> =>
  sql<boolean>`(${ticketIsOnSale(userTicketId)} or ${ticketRefundPending(userTicketId)})`;

/** The three ways a holder can move a ticket. */
export type TicketMove = 'gift' | 'resell' | 'swap';

/** The ticket type flag that allows each move. */
const MOVE_FLAG = { gift: 'isGiftable', resell: 'isResellable', swap: 'isSwappable' } as const;

/**
 * "May this ticket move" as a SQL condition. The query must join `user_tickets`, `ticket_types` (on the
 * ticket's type) and `events` (on the type's event).
 * @param now the request's clock (UTC); the event must end strictly after it.
 */
export function ticketMayMoveSql(move: TicketMove, holder: Holder, now: Date): SQL {
  return and(
    // heldBy is true or false, never NULL, so the whole may be selected or negated as well as filtered on.
    heldBy(holder),
    eq(ticketTypes[MOVE_FLAG[move]], true),
    isNull(userTickets.eventAccessUsedAt),
    gt(events.endsAt, now),
    not(ticketIsHeldBack(userTickets.id)),
    isNull(userTickets.revokedAt),
    isNull(events.cancelledAt),
  )!;
}

/** The parts of a loaded ticket row the rule reads; `listed` is `ticketIsHeldBack` selected with the row. */
export interface MoveCandidate {
  ticket: { holderId: number | null; eventAccessUsedAt: Date | null; revokedAt: Date | null };
  type: { isGiftable: boolean; isResellable: boolean; isSwappable: boolean };
  event: { endsAt: Date; organisationId: number; cancelledAt: Date | null };
  listed: boolean;
}

/**
 * Whether the event's transfers have closed at `now` (issue 21: `transfersCloseAt`); gift, resale and swap then
 * answer 409 `api.ticket.transfers_closed` rather than the generic refusal, so the holder learns why.
 */
export const transfersClosed = (event: { transfersCloseAt: Date | null }, now: Date): boolean =>
  event.transfersCloseAt !== null && event.transfersCloseAt <= now;

/** "May this ticket move" over a loaded row: the TypeScript twin of `ticketMayMoveSql`. */
export function ticketMayMove(move: TicketMove, row: MoveCandidate, holder: Holder, now: Date): boolean {
  return (
    isHeldBy(row, holder) &&
    row.type[MOVE_FLAG[move]] &&
    row.ticket.eventAccessUsedAt === null &&
    row.event.endsAt > now &&
    !row.listed &&
    row.ticket.revokedAt === null &&
    row.event.cancelledAt === null
  );
}

/**
 * Locks the organisation's row (`FOR UPDATE`) until the transaction ends, so that writes that count or check what the
 * organisation already has (its webhook endpoints against their cap, its running imports against a new one) run one
 * after the other: the second sees what the first wrote.
 */
export async function lockOrganisation(tx: DbOrTx, organisationId: number): Promise<void> {
  await tx
    .select({ id: organisations.id })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .for('update');
}

/** What {@link ticketRow} reads of every ticket: its row, its type's and its event's. */
const ticketTypeEvent = { ticket: userTickets, type: ticketTypes, event: events };

/**
 * The ticket `userTicketId` with its type and event (`ticket`, `type`, `event`) and the `fields` added, selected over
 * its row joined to its type (`ticket_types`), its event (`events`) and the event's organisation (`organisations`);
 * undefined when there is no such ticket (the one read of a ticket by id that gift, resale, refunds and the exchange
 * queue check a move against). `lock`: the ticket's row `FOR UPDATE` until the transaction ends, taken first by a
 * statement of its own, so that subqueries among `fields` (`ticketIsHeldBack`, `ticketRefundPending`…) see what a
 * transaction that held the lock wrote (a refund request, a listing): in READ COMMITTED a statement that waited for a
 * row lock re-reads that row but evaluates its subqueries on the snapshot it started with (issue 46,
 * refund-race.test.ts).
 */
export async function ticketRow<T extends SelectedFields>(db: DbOrTx, userTicketId: number, lock: boolean, fields: T) {
  if (lock)
    await db.select({ id: userTickets.id }).from(userTickets).where(eq(userTickets.id, userTicketId)).for('update');
  // Selected as plain `SelectedFields` (Drizzle's builder does not type a join over a generic selection) and typed back:
  // every join is inner, so a row is the selection's fields, none made nullable.
  const [row] = (await db
    .select<SelectedFields>({ ...ticketTypeEvent, ...fields })
    .from(userTickets)
    .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .innerJoin(organisations, eq(organisations.id, events.organisationId))
    .where(eq(userTickets.id, userTicketId))) as SelectResultFields<typeof ticketTypeEvent & T>[];
  return row;
}

/**
 * The organisation's event whose organiser id is `externalId`, or undefined (the one lookup of the organiser API,
 * the refund policy and the exchange settings); `lock`: its row `FOR UPDATE` until the transaction ends.
 */
export async function organisationEvent(
  db: DbOrTx,
  organisationId: number,
  externalId: string,
  lock = false,
): Promise<typeof events.$inferSelect | undefined> {
  const q = db
    .select()
    .from(events)
    .where(and(eq(events.organisationId, organisationId), eq(events.externalId, externalId)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

/**
 * Gives each ticket of `userTicketIds` one of every benefit of the ticket type `ticketTypeId` (`purchasedAmount` 1): the
 * one grant of a type's benefits, to tickets the exchange queue issues and to tickets a swap moved to the type. A
 * benefit a ticket already holds (a swap back to a type it held, its used benefits kept) stays as it is.
 */
export async function grantTypeBenefits(db: DbOrTx, userTicketIds: number[], ticketTypeId: number): Promise<void> {
  const perks = await db.select({ id: benefits.id }).from(benefits).where(eq(benefits.ticketTypeId, ticketTypeId));
  const rows = userTicketIds.flatMap((userTicketId) =>
    perks.map((b) => ({ userTicketId, benefitId: b.id, purchasedAmount: 1 })),
  );
  if (rows.length) await db.insert(userTicketBenefits).values(rows).onConflictDoNothing();
}
