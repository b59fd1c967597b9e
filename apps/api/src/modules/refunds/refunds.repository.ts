/**
 * SQL of refund requests (issue 46, decision 046): the event's policy, the holder's ticket and its requests, the
 * organiser's list and decisions.
 */
import { and, asc, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { organisationEvent, ticketIsOnSale, ticketRow } from '../../db/predicates.js';
import { uniqueViolation } from '../../db/unique-violation.js';
import { events, refundRequests, ticketTypes, userTickets, users } from '../../db/schema.js';

export type RefundRequestRow = typeof refundRequests.$inferSelect;

/** The columns of one request as the organiser reads it (`refundRequestItem`). */
const itemColumns = {
  request: refundRequests,
  eventExternalId: events.externalId,
  eventName: events.name,
  ticketExternalId: userTickets.externalId,
  ticketTypeName: ticketTypes.name,
  holderEmail: users.email,
  givenName: users.givenName,
  familyName: users.familyName,
};

export const refundsRepository = {
  /** The organisation's event by its externalId; `lock`: its row `FOR UPDATE` until the transaction ends. */
  event: organisationEvent,

  /** Sets the event's refund policy (a new row version: the holders' listings show it at once). */
  async setPolicy(
    db: DbOrTx,
    eventId: number,
    policy: { refundPolicy: string; refundUntil: Date | null; refundDeadline: Date | null },
  ): Promise<void> {
    await db.update(events).set(policy).where(eq(events.id, eventId));
  },

  /**
   * The ticket with its type and event, whether it is on sale (`ticketIsOnSale`: listed for resale, returned to an
   * exchange queue or in an open offer of it); `lock`: the ticket's row `FOR UPDATE` until the transaction ends, taken
   * before the read so that `onSale` sees what the lock's previous holder wrote (`ticketRow`, db/predicates.ts).
   */
  async ticket(db: DbOrTx, userTicketId: number, lock = false) {
    return ticketRow(db, userTicketId, lock, { onSale: ticketIsOnSale(userTickets.id) });
  },

  /** The ticket's pending request, if any. */
  async pendingOf(db: DbOrTx, userTicketId: number): Promise<RefundRequestRow | undefined> {
    const [row] = await db
      .select()
      .from(refundRequests)
      .where(and(eq(refundRequests.userTicketId, userTicketId), eq(refundRequests.status, 'pending')));
    return row;
  },

  /**
   * The ticket's latest request by `holderId` that is pending or declined (what the holder is shown), if any: a
   * request an earlier holder made is theirs, never shown to the next one.
   */
  async shownOf(db: DbOrTx, userTicketId: number, holderId: number | null): Promise<RefundRequestRow | undefined> {
    if (holderId === null) return undefined;
    const [row] = await db
      .select()
      .from(refundRequests)
      .where(
        and(
          eq(refundRequests.userTicketId, userTicketId),
          eq(refundRequests.userId, holderId),
          inArray(refundRequests.status, ['pending', 'declined']),
        ),
      )
      .orderBy(desc(refundRequests.id))
      .limit(1);
    return row;
  },

  /**
   * Inserts a pending request; undefined when the ticket has one pending already (the partial unique index
   * `refund_requests_pending_uq`).
   */
  async insert(
    db: DbOrTx,
    values: Omit<typeof refundRequests.$inferInsert, 'id' | 'status'>,
  ): Promise<RefundRequestRow | undefined> {
    try {
      const [row] = await db
        .insert(refundRequests)
        .values({ ...values, status: 'pending' })
        .returning();
      return row;
    } catch (err) {
      if (uniqueViolation(err)?.constraint.includes('refund_requests_pending_uq')) return undefined;
      throw err;
    }
  },

  /** Sets the request's outcome (`approved`, `declined`, `withdrawn`) and its details. */
  async decide(
    db: DbOrTx,
    id: number,
    outcome: Pick<RefundRequestRow, 'status' | 'decidedAt'> &
      Partial<Pick<RefundRequestRow, 'reference' | 'declineReason'>>,
  ): Promise<RefundRequestRow> {
    const [row] = await db.update(refundRequests).set(outcome).where(eq(refundRequests.id, id)).returning();
    return row;
  },

  /**
   * Makes a new version of the ticket's row (`related_version`, as migration 0017's triggers do for the rows shown
   * beside it), so the holder's ticket listing reads its refund side again (decision 036).
   */
  async touchTicket(db: DbOrTx, userTicketId: number): Promise<void> {
    await db
      .update(userTickets)
      .set({ relatedVersion: sql`${userTickets.relatedVersion} + 1` })
      .where(eq(userTickets.id, userTicketId));
  },

  /** Voids the ticket as refunded (`revoked_reason = 'refunded'`: the door answers `ticket_refunded`). */
  async voidRefunded(db: DbOrTx, userTicketId: number, at: Date): Promise<void> {
    await db
      .update(userTickets)
      .set({ revokedAt: at, revokedReason: 'refunded' })
      .where(eq(userTickets.id, userTicketId));
  },

  /** The organisation's request `id`, locked `FOR UPDATE` when `lock`; undefined for another organisation's. */
  async requestOf(db: DbOrTx, organisationId: number, id: number, lock = false) {
    const q = db
      .select()
      .from(refundRequests)
      .where(and(eq(refundRequests.id, id), eq(refundRequests.organisationId, organisationId)));
    const [row] = lock ? await q.for('update') : await q;
    return row;
  },

  /** Requests with the organiser's columns, by ids (any order). */
  async items(db: DbOrTx, ids: number[]) {
    return ids.length ? this.itemsWhere(db, inArray(refundRequests.id, ids), 'asc', ids.length) : [];
  },

  /**
   * The organisation's requests in `status`, after the cursor's id: pending oldest first (the queue), the others
   * newest first; at most `limit` + 1 (the paging's look-ahead is the caller's).
   */
  async list(db: DbOrTx, q: { organisationId: number; status: string; limit: number; afterId?: number }) {
    const order = q.status === 'pending' ? 'asc' : 'desc';
    const after =
      q.afterId === undefined
        ? undefined
        : order === 'asc'
          ? gt(refundRequests.id, q.afterId)
          : lt(refundRequests.id, q.afterId);
    return this.itemsWhere(
      db,
      and(eq(refundRequests.organisationId, q.organisationId), eq(refundRequests.status, q.status), after),
      order,
      q.limit + 1,
    );
  },

  async itemsWhere(db: DbOrTx, where: ReturnType<typeof and>, order: 'asc' | 'desc', limit: number) {
    return db
      .select(itemColumns)
      .from(refundRequests)
      .innerJoin(userTickets, eq(userTickets.id, refundRequests.userTicketId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, refundRequests.eventId))
      .innerJoin(users, eq(users.id, refundRequests.userId))
      .where(where)
      .orderBy(order === 'asc' ? asc(refundRequests.id) : desc(refundRequests.id))
      .limit(limit);
  },
};
export type RefundItemRow = Awaited<ReturnType<typeof refundsRepository.itemsWhere>>[number];
