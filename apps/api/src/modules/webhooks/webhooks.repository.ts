/** SQL of the organisation webhooks (issue 12): endpoints, the delivery queue and its attempt log. */
import { and, asc, desc, eq, inArray, lt, lte, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  events,
  ticketTypes,
  userTickets,
  webhookDeliveries,
  webhookDeliveryAttempts,
  webhookEndpoints,
} from '../../db/schema.js';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export const webhooksRepository = {
  async insertEndpoint(db: DbOrTx, row: typeof webhookEndpoints.$inferInsert) {
    const [created] = await db.insert(webhookEndpoints).values(row).returning();
    return created;
  },
  async endpointsOf(db: DbOrTx, organisationId: number) {
    return db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organisationId, organisationId))
      .orderBy(asc(webhookEndpoints.id));
  },
  async endpointOf(db: DbOrTx, organisationId: number, id: number) {
    const [row] = await db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organisationId, organisationId)));
    return row;
  },
  /** Deletes an endpoint with its deliveries (cascade). @returns whether it existed in this organisation. */
  async deleteEndpoint(db: DbOrTx, organisationId: number, id: number): Promise<boolean> {
    const rows = await db
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organisationId, organisationId)))
      .returning({ id: webhookEndpoints.id });
    return rows.length > 0;
  },
  async insertDeliveries(db: DbOrTx, rows: (typeof webhookDeliveries.$inferInsert)[]) {
    if (!rows.length) return [];
    return db.insert(webhookDeliveries).values(rows).returning();
  },
  /** A page of an endpoint's deliveries, newest first, with `cursor` the last id of the previous page. */
  async deliveriesOf(db: DbOrTx, endpointId: number, limit: number, cursor?: number) {
    return db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, endpointId), cursor ? lt(webhookDeliveries.id, cursor) : undefined))
      .orderBy(desc(webhookDeliveries.id))
      .limit(limit);
  },
  async deliveryOf(db: DbOrTx, endpointId: number, id: number) {
    const [row] = await db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)));
    return row;
  },
  async attemptsOf(db: DbOrTx, deliveryIds: number[]) {
    if (!deliveryIds.length) return [];
    return db
      .select()
      .from(webhookDeliveryAttempts)
      .where(inArray(webhookDeliveryAttempts.deliveryId, deliveryIds))
      .orderBy(asc(webhookDeliveryAttempts.id));
  },
  /**
   * Claims up to `limit` due PENDING deliveries, at most `perEndpoint` of any one endpoint and none of the
   * endpoints in `skipEndpoints` (those this instance still has in flight), so one endpoint's backlog never fills
   * a claim: each endpoint's oldest due row comes before any endpoint's second (round robin, oldest first).
   * The rows are locked `FOR UPDATE SKIP LOCKED` (rows another instance is claiming are skipped, never waited
   * for) with the due condition checked again on the locked row, then their `nextAttemptAt` is pushed to
   * `leaseUntil`, so once this transaction commits no other worker sees them due while they are in flight.
   * @returns the claimed deliveries with their endpoint's id, URL and secret.
   */
  async claimDue(
    db: DbOrTx,
    now: Date,
    leaseUntil: Date,
    limit: number,
    perEndpoint: number,
    skipEndpoints: readonly number[] = [],
  ) {
    const isDue = and(eq(webhookDeliveries.status, 'PENDING'), lte(webhookDeliveries.nextAttemptAt, now));
    const ranked = db
      .select({
        id: webhookDeliveries.id,
        nextAttemptAt: webhookDeliveries.nextAttemptAt,
        rank: sql<number>`row_number() over (partition by ${webhookDeliveries.endpointId} order by ${webhookDeliveries.nextAttemptAt}, ${webhookDeliveries.id})`.as(
          'rank',
        ),
      })
      .from(webhookDeliveries)
      .where(
        and(isDue, skipEndpoints.length ? notInArray(webhookDeliveries.endpointId, [...skipEndpoints]) : undefined),
      )
      .as('ranked');
    const picked = db
      .select({ id: ranked.id })
      .from(ranked)
      .where(lte(ranked.rank, perEndpoint))
      .orderBy(asc(ranked.rank), asc(ranked.nextAttemptAt), asc(ranked.id))
      .limit(limit);
    // The due condition is repeated on the outer query: it is what PostgreSQL re-checks on a row that another
    // worker leased between this query's snapshot and its lock, so such a row is dropped, never sent twice.
    const due = await db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.id, picked), isDue))
      .for('update', { skipLocked: true });
    if (!due.length) return [];
    const ids = due.map((d) => d.id);
    await db.update(webhookDeliveries).set({ nextAttemptAt: leaseUntil }).where(inArray(webhookDeliveries.id, ids));
    return db
      .select({
        id: webhookDeliveries.id,
        messageId: webhookDeliveries.messageId,
        payload: webhookDeliveries.payload,
        attempts: webhookDeliveries.attempts,
        endpointId: webhookDeliveries.endpointId,
        url: webhookEndpoints.url,
        secret: webhookEndpoints.secret,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(inArray(webhookDeliveries.id, ids))
      .orderBy(asc(webhookDeliveries.id));
  },
  /** Records one attempt and the delivery's new state. */
  async recordAttempt(
    db: DbOrTx,
    p: {
      deliveryId: number;
      at: Date;
      statusCode: number | null;
      error: string | null;
      responsePrefix: string | null;
      durationMs: number;
      status: 'PENDING' | 'DELIVERED' | 'FAILED';
      nextAttemptAt: Date;
    },
  ): Promise<void> {
    await db.insert(webhookDeliveryAttempts).values({
      deliveryId: p.deliveryId,
      at: p.at,
      statusCode: p.statusCode,
      error: p.error,
      durationMs: p.durationMs,
    });
    await db
      .update(webhookDeliveries)
      .set({
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        status: p.status,
        nextAttemptAt: p.nextAttemptAt,
        lastAttemptAt: p.at,
        lastStatusCode: p.statusCode,
        lastError: p.error,
        lastResponse: p.responsePrefix,
        deliveredAt: p.status === 'DELIVERED' ? p.at : null,
      })
      .where(eq(webhookDeliveries.id, p.deliveryId));
  },
  /**
   * Per ticket: the organisation of its event and the organiser's ids of ticket, ticket type and event
   * (null where the organiser gave none).
   */
  async ticketRefs(db: DbOrTx, userTicketIds: number[]) {
    if (!userTicketIds.length) return [];
    return db
      .select({
        userTicketId: userTickets.id,
        organisationId: events.organisationId,
        ticketExternalId: userTickets.externalId,
        ticketTypeExternalId: ticketTypes.externalId,
        eventExternalId: events.externalId,
      })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(inArray(userTickets.id, userTicketIds))
      .orderBy(asc(userTickets.id));
  },
};
