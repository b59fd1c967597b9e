/** SQL for swaps: eligible tickets, pairs, reservations, the type change. */
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { grantTypeBenefits, ticketMayMoveSql, type Holder } from '../../db/predicates.js';
import type { DbOrTx } from '../../db/client.js';
import {
  events,
  organisations,
  swapPairs,
  swaps,
  ticketHistory,
  ticketTypes,
  userTicketBenefits,
  userTickets,
  users,
} from '../../db/schema.js';

/** Tickets a holder may swap: the one "may this ticket move" rule (db/predicates.ts). */
const eligible = (holder: Holder, now: Date) => ticketMayMoveSql('swap', holder, now);

export type SwapRow = typeof swaps.$inferSelect;

export const swapRepository = {
  /** Base ticket types with the count of the user's eligible tickets, only types that have a swap pair. */
  async baseTypes(db: DbOrTx, holder: Holder, now: Date) {
    return db
      .select({
        type: ticketTypes,
        event: events,
        quantity: sql<number>`count(*)::int`,
        userTicketIds: sql<number[]>`array_agg(${userTickets.id} order by ${userTickets.id})`,
      })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(
        and(
          eligible(holder, now),
          sql`exists (select 1 from ${swapPairs} where ${swapPairs.fromTicketTypeId} = ${ticketTypes.id})`,
        ),
      )
      .groupBy(ticketTypes.id, events.id)
      .orderBy(asc(events.startsAt), asc(ticketTypes.id));
  },
  /** The user's eligible ticket ids of a type, oldest first, row-locked when `lock`. */
  async eligibleTicketIds(
    db: DbOrTx,
    holder: Holder,
    ticketTypeId: number,
    now: Date,
    lock = false,
  ): Promise<number[]> {
    const q = db
      .select({ id: userTickets.id })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(and(eligible(holder, now), eq(userTickets.ticketTypeId, ticketTypeId)))
      .orderBy(asc(userTickets.id));
    const rows = lock ? await q.for('update', { of: userTickets }) : await q;
    return rows.map((r) => r.id);
  },
  /** Pairs from a base type with the target type and its event. */
  async pairsFrom(db: DbOrTx, fromTicketTypeId: number) {
    return db
      .select({ pair: swapPairs, target: ticketTypes, event: events })
      .from(swapPairs)
      .innerJoin(ticketTypes, eq(ticketTypes.id, swapPairs.toTicketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(eq(swapPairs.fromTicketTypeId, fromTicketTypeId))
      .orderBy(asc(swapPairs.id));
  },
  async pair(db: DbOrTx, id: number) {
    const [row] = await db.select().from(swapPairs).where(eq(swapPairs.id, id));
    return row;
  },
  /** A ticket type with its event; row-locked when `lock`. */
  /** The holder's e-mail and language and the organisation of an event: what the "swap done" mail needs. */
  /** An organisation's slug (the checkout page's brand). */
  async organisationSlug(db: DbOrTx, organisationId: number): Promise<string | undefined> {
    const [row] = await db
      .select({ slug: organisations.slug })
      .from(organisations)
      .where(eq(organisations.id, organisationId));
    return row?.slug;
  },
  async mailContext(db: DbOrTx, userId: number, organisationId: number) {
    const [user] = await db
      .select({ email: users.email, locale: users.locale })
      .from(users)
      .where(eq(users.id, userId));
    const [organisation] = await db.select().from(organisations).where(eq(organisations.id, organisationId));
    return user && organisation ? { user, organisation } : undefined;
  },
  async typeWithEvent(db: DbOrTx, ticketTypeId: number, lock = false) {
    const q = db
      .select({ type: ticketTypes, event: events })
      .from(ticketTypes)
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(eq(ticketTypes.id, ticketTypeId));
    const [row] = lock ? await q.for('update', { of: ticketTypes }) : await q;
    return row;
  },
  /** Quantity held by live (pending, unexpired) reservations targeting a type, excluding one swap. */
  async reserved(db: DbOrTx, toTicketTypeId: number, now: Date, excludeSwapId?: string): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`coalesce(sum(${swaps.quantity}), 0)::int` })
      .from(swaps)
      .innerJoin(swapPairs, eq(swapPairs.id, swaps.swapPairId))
      .where(
        and(
          eq(swapPairs.toTicketTypeId, toTicketTypeId),
          eq(swaps.status, 'PENDING'),
          gt(swaps.expiresAt, now),
          excludeSwapId ? sql`${swaps.id} <> ${excludeSwapId}` : undefined,
        ),
      );
    return row.n;
  },
  async cancelPending(db: DbOrTx, userId: number, swapPairId: number): Promise<void> {
    await db
      .update(swaps)
      .set({ status: 'CANCELLED' })
      .where(and(eq(swaps.userId, userId), eq(swaps.swapPairId, swapPairId), eq(swaps.status, 'PENDING')));
  },
  async insertSwap(db: DbOrTx, row: typeof swaps.$inferInsert): Promise<void> {
    await db.insert(swaps).values(row);
  },
  async swap(db: DbOrTx, id: string, lock = false): Promise<SwapRow | undefined> {
    const q = db.select().from(swaps).where(eq(swaps.id, id));
    const [row] = lock ? await q.for('update') : await q;
    return row;
  },
  async updateSwap(db: DbOrTx, id: string, set: Partial<SwapRow>): Promise<void> {
    await db.update(swaps).set(set).where(eq(swaps.id, id));
  },
  /** Changes the type of the tickets, moves stock, replaces unused benefits, records history. */
  async applySwap(
    db: DbOrTx,
    p: { userId: number; ticketIds: number[]; fromTypeId: number; toTypeId: number; at: Date },
  ): Promise<void> {
    const n = p.ticketIds.length;
    await db.update(userTickets).set({ ticketTypeId: p.toTypeId }).where(inArray(userTickets.id, p.ticketIds));
    await db
      .update(ticketTypes)
      .set({ stock: sql`${ticketTypes.stock} - ${n}` })
      .where(eq(ticketTypes.id, p.toTypeId));
    await db
      .update(ticketTypes)
      .set({ stock: sql`${ticketTypes.stock} + ${n}` })
      .where(eq(ticketTypes.id, p.fromTypeId));
    await db
      .delete(userTicketBenefits)
      .where(and(inArray(userTicketBenefits.userTicketId, p.ticketIds), eq(userTicketBenefits.usedAmount, 0)));
    await grantTypeBenefits(db, p.ticketIds, p.toTypeId);
    await db.insert(ticketHistory).values(
      p.ticketIds.map((userTicketId) => ({
        userTicketId,
        fromUserId: p.userId,
        toUserId: p.userId,
        kind: 'SWAP',
        at: p.at,
      })),
    );
  },
};

/** A ticket type with its event, as `typeWithEvent` reads them. */
export type TypeWithEvent = NonNullable<Awaited<ReturnType<typeof swapRepository.typeWithEvent>>>;
