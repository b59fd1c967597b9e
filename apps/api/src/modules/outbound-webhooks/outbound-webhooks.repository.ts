/** SQL of the organisation webhooks (issue 12): endpoints, the delivery queue and its attempt log. */
import { and, asc, count, desc, eq, inArray, lt, min, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { lockOrganisation } from '../../db/predicates.js';
import { mapSliced } from '../../lib/time-slice.js';
import {
  events,
  ticketTypes,
  userTickets,
  outboundDeliveries,
  outboundDeliveryAttempts,
  webhookEndpoints,
} from '../../db/schema.js';

export type DeliveryRow = typeof outboundDeliveries.$inferSelect;

export const outboundWebhooksRepository = {
  /**
   * Locks the organisation's row (`FOR UPDATE`) until the transaction ends: two creates of one organisation's
   * endpoints queue here, so the cap on endpoints per organisation is never passed by a race (issue 39).
   */
  lockOrganisation,
  /** How many webhook endpoints the organisation has. */
  async countEndpoints(db: DbOrTx, organisationId: number): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organisationId, organisationId));
    return Number(row?.n ?? 0);
  },
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
  async insertDeliveries(db: DbOrTx, rows: (typeof outboundDeliveries.$inferInsert)[]) {
    if (!rows.length) return [];
    return db.insert(outboundDeliveries).values(rows).returning();
  },
  /**
   * Queues deliveries in one set-based statement: the rows travel as one JSON parameter (`json_to_recordset`),
   * so 10,000 deliveries of an import cost one short statement, not 60,000 bind parameters (decision 021).
   * `at` (UTC) is when each is due and was made.
   */
  async queueDeliveries(
    db: DbOrTx,
    rows: { endpointId: number; messageId: string; eventType: string; payload: string }[],
    at: Date,
  ): Promise<void> {
    if (!rows.length) return;
    const parts = await mapSliced(rows, (r) =>
      JSON.stringify({
        endpoint_id: r.endpointId,
        message_id: r.messageId,
        event_type: r.eventType,
        payload: r.payload,
      }),
    );
    const data = `[${parts.join(',')}]`;
    await db.execute(sql`insert into ${outboundDeliveries} (endpoint_id, message_id, event_type, payload, next_attempt_at, created_at)
      select r.endpoint_id, r.message_id, r.event_type, r.payload, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
        from json_to_recordset(${data}::json) as r(endpoint_id integer, message_id text, event_type text, payload text)`);
  },
  /** A page of an endpoint's deliveries, newest first, with `cursor` the last id of the previous page. */
  async deliveriesOf(db: DbOrTx, endpointId: number, limit: number, cursor?: number) {
    return db
      .select()
      .from(outboundDeliveries)
      .where(and(eq(outboundDeliveries.endpointId, endpointId), cursor ? lt(outboundDeliveries.id, cursor) : undefined))
      .orderBy(desc(outboundDeliveries.id))
      .limit(limit);
  },
  async deliveryOf(db: DbOrTx, endpointId: number, id: number) {
    const [row] = await db
      .select()
      .from(outboundDeliveries)
      .where(and(eq(outboundDeliveries.id, id), eq(outboundDeliveries.endpointId, endpointId)));
    return row;
  },
  async attemptsOf(db: DbOrTx, deliveryIds: number[]) {
    if (!deliveryIds.length) return [];
    return db
      .select()
      .from(outboundDeliveryAttempts)
      .where(inArray(outboundDeliveryAttempts.deliveryId, deliveryIds))
      .orderBy(asc(outboundDeliveryAttempts.id));
  },
  /**
   * Claims up to `limit` due PENDING deliveries, at most `perEndpoint` of any one endpoint, none of the endpoints in
   * `skipEndpoints` (those this instance still has in flight), and at most `perOrganisation` minus what this
   * instance has in flight for that organisation (`organisationsInFlight`, organisation id -> sends) of any one
   * organisation, all its endpoints together (issue 39: 100 slow endpoints of one organisation never take every
   * place). Round robin, oldest first: each organisation's first row comes before any organisation's second, and
   * within an organisation each endpoint's oldest due row before any endpoint's second.
   * Per endpoint, its oldest due rows are locked `FOR UPDATE SKIP LOCKED` (rows another instance is claiming are
   * skipped, never waited for, and the due condition is checked again on the locked row, so a row another worker
   * has just leased is dropped, never sent twice); the chosen ones get `nextAttemptAt` = `leaseUntil`, so once
   * this transaction commits no other worker sees them due while they are in flight. Rows locked but not chosen
   * stay due and are released at commit.
   * @returns the claimed deliveries with their endpoint's id, organisation id, URL and secret.
   */
  async claimDue(
    db: DbOrTx,
    now: Date,
    leaseUntil: Date,
    limit: number,
    perEndpoint: number,
    skipEndpoints: readonly number[] = [],
    perOrganisation = Number.MAX_SAFE_INTEGER,
    organisationsInFlight: ReadonlyMap<number, number> = new Map(),
  ) {
    const at = now.toISOString();
    const full = [...organisationsInFlight].filter(([, n]) => n >= perOrganisation).map(([id]) => id);
    const idList = (ids: readonly number[]) =>
      sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      );
    const conditions = [
      ...(skipEndpoints.length ? [sql`e.id not in (${idList(skipEndpoints)})`] : []),
      ...(full.length ? [sql`e.organisation_id not in (${idList(full)})`] : []),
    ];
    const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
    const busy = JSON.stringify([...organisationsInFlight].map(([organisation_id, n]) => ({ organisation_id, n })));
    const result: unknown = await db.execute(sql`
      select ranked.id from (
        select per_endpoint.*,
               row_number() over (
                 partition by per_endpoint.organisation_id
                 order by per_endpoint.rank, per_endpoint.next_attempt_at, per_endpoint.id
               ) as org_rank
          from (
            select c.id, c.next_attempt_at, e.organisation_id,
                   row_number() over (partition by e.id order by c.next_attempt_at, c.id) as rank
              from ${webhookEndpoints} e
             cross join lateral (
               select d.id, d.next_attempt_at from ${outboundDeliveries} d
                where d.endpoint_id = e.id and d.status = 'PENDING' and d.next_attempt_at <= ${at}::timestamptz
                order by d.next_attempt_at, d.id
                limit ${perEndpoint}
                  for update of d skip locked
             ) c
             ${where}
          ) per_endpoint
      ) ranked
      left join json_to_recordset(${busy}::json) as busy(organisation_id integer, n integer)
        on busy.organisation_id = ranked.organisation_id
      where ranked.org_rank + coalesce(busy.n, 0) <= ${perOrganisation}
      order by ranked.org_rank, ranked.rank, ranked.next_attempt_at, ranked.id
      limit ${limit}`);
    const due = (result as { rows: { id: number | string }[] }).rows.map((r) => ({ id: Number(r.id) }));
    if (!due.length) return [];
    const ids = due.map((d) => d.id);
    await db.update(outboundDeliveries).set({ nextAttemptAt: leaseUntil }).where(inArray(outboundDeliveries.id, ids));
    return db
      .select({
        id: outboundDeliveries.id,
        messageId: outboundDeliveries.messageId,
        payload: outboundDeliveries.payload,
        attempts: outboundDeliveries.attempts,
        endpointId: outboundDeliveries.endpointId,
        organisationId: webhookEndpoints.organisationId,
        url: webhookEndpoints.url,
        secret: webhookEndpoints.secret,
      })
      .from(outboundDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, outboundDeliveries.endpointId))
      .where(inArray(outboundDeliveries.id, ids))
      .orderBy(asc(outboundDeliveries.id));
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
    await db.insert(outboundDeliveryAttempts).values({
      deliveryId: p.deliveryId,
      at: p.at,
      statusCode: p.statusCode,
      error: p.error,
      durationMs: p.durationMs,
    });
    await db
      .update(outboundDeliveries)
      .set({
        attempts: sql`${outboundDeliveries.attempts} + 1`,
        status: p.status,
        nextAttemptAt: p.nextAttemptAt,
        lastAttemptAt: p.at,
        lastStatusCode: p.statusCode,
        lastError: p.error,
        lastResponse: p.responsePrefix,
        deliveredAt: p.status === 'DELIVERED' ? p.at : null,
      })
      .where(eq(outboundDeliveries.id, p.deliveryId));
  },
  /**
   * The delivery queue (metrics, decision 031): how many deliveries are PENDING (due or waiting for a retry) and
   * when the oldest of them was queued (null when none is).
   */
  async queueStats(db: DbOrTx): Promise<{ depth: number; oldestCreatedAt: Date | null }> {
    const [row] = await db
      .select({ depth: count(), oldest: min(outboundDeliveries.createdAt) })
      .from(outboundDeliveries)
      .where(eq(outboundDeliveries.status, 'PENDING'));
    return { depth: row?.depth ?? 0, oldestCreatedAt: row?.oldest ?? null };
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
