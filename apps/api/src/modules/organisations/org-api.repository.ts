/**
 * SQL of the organisation API (issue 12): events, ticket types, benefits and tickets looked up by the
 * organiser's own ids, always within one organisation (another organisation's ids are simply not found).
 * Bulk forms serve the CSV import: set-based statements whose rows travel as one JSON parameter
 * (`json_to_recordset`), so a 10,000-row import is a handful of short statements whose text Drizzle builds in
 * microseconds, the same on PGlite and PostgreSQL (decision 021).
 */
import {
  and,
  count,
  countDistinct,
  desc,
  eq,
  inArray,
  isNotNull,
  isNull,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { organisationEvent, ticketIsListed, ticketIsOnSale } from '../../db/predicates.js';
import {
  benefits,
  events,
  ticketHistory,
  ticketScans,
  ticketTypes,
  userTicketBenefits,
  userTickets,
  users,
  resaleListingTickets,
  swapPairs,
  doorCheckIns,
  ticketReminders,
  walletPasses,
} from '../../db/schema.js';
import { uniqueViolation } from '../../db/unique-violation.js';
import { mapSliced } from '../../lib/time-slice.js';

export type EventRow = typeof events.$inferSelect;
export type TicketTypeRow = typeof ticketTypes.$inferSelect;
export type BenefitRow = typeof benefits.$inferSelect;

/** An existing ticket as the issue rules read it. */
export interface IssuedTicketRow {
  id: number;
  externalId: string;
  ticketTypeId: number;
  holderId: number | null;
  eventAccessUsedAt: Date | null;
  revokedAt: Date | null;
  /** Why it does not admit beside the organiser's revoke (null): `refunded` or `disputed` (its payment went back). */
  revokedReason: string | null;
  /** On sale: in a live resale listing or returned to an exchange queue (`ticketIsOnSale`). */
  listed: boolean;
  /** The account the organiser last issued it to (ISSUE / REISSUE in the history). */
  issuedToId: number | null;
  issuedToEmail: string | null;
}

/**
 * The last ISSUE/REISSUE of a ticket: its receiver. The outer column is spelled out: in a one-table select Drizzle
 * writes columns unqualified, and a bare "id" would be ticket_history's own.
 */
const issuedTo = sql<number | null>`(select th.to_user_id from ticket_history th
  where th.user_ticket_id = "user_tickets"."id" and th.kind in ('ISSUE', 'REISSUE') order by th.id desc limit 1)`;

export const orgApiRepository = {
  eventByExternalId: organisationEvent,
  async eventById(db: DbOrTx, id: number): Promise<EventRow | undefined> {
    const [row] = await db.select().from(events).where(eq(events.id, id));
    return row;
  },
  /**
   * Which of `eventIds` are cancelled (issue 46): nothing may be issued into them. With `lock`, the events' rows are
   * held `FOR SHARE` until the transaction ends, so a cancel of one waits for it (or it reads the cancel's commit).
   */
  async cancelledEventIds(db: DbOrTx, eventIds: number[], lock: boolean): Promise<Set<number>> {
    if (eventIds.length === 0) return new Set();
    const q = db
      .select({ id: events.id, cancelledAt: events.cancelledAt })
      .from(events)
      .where(inArray(events.id, eventIds))
      .orderBy(events.id);
    const rows = lock ? await q.for('share') : await q;
    return new Set(rows.filter((r) => r.cancelledAt !== null).map((r) => r.id));
  },
  /** Inserts an event; undefined when its externalId was taken meanwhile (a concurrent PUT). */
  async insertEvent(db: DbOrTx, values: typeof events.$inferInsert): Promise<EventRow | undefined> {
    return insertOrUndefined(db, (sp) => sp.insert(events).values(values).returning());
  },
  async updateEvent(db: DbOrTx, id: number, values: Partial<typeof events.$inferInsert>): Promise<void> {
    await db.update(events).set(values).where(eq(events.id, id));
  },
  /**
   * The event's live (not revoked) tickets that have a wallet pass not voided, by id: what a new date updates
   * (issue 46).
   */
  async ticketsWithPasses(db: DbOrTx, eventId: number): Promise<number[]> {
    const rows = await db
      .selectDistinct({ id: userTickets.id })
      .from(walletPasses)
      .innerJoin(userTickets, eq(userTickets.id, walletPasses.userTicketId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .where(and(eq(ticketTypes.eventId, eventId), isNull(userTickets.revokedAt), isNull(walletPasses.voidedAt)))
      .orderBy(userTickets.id);
    return rows.map((r) => r.id);
  },
  /** Forgets every reminder sent for the event's tickets, so each goes again before its new date (issue 46). */
  async forgetReminders(db: DbOrTx, eventId: number): Promise<void> {
    const tickets = db
      .select({ id: userTickets.id })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .where(eq(ticketTypes.eventId, eventId));
    await db.delete(ticketReminders).where(inArray(ticketReminders.userTicketId, tickets));
  },

  async ticketTypeByExternalId(db: DbOrTx, organisationId: number, externalId: string, lock = false) {
    const q = db
      .select()
      .from(ticketTypes)
      .where(and(eq(ticketTypes.organisationId, organisationId), eq(ticketTypes.externalId, externalId)));
    const [row] = lock ? await q.for('update') : await q;
    return row;
  },
  /** Ticket types of the organisation by externalId (the import's lookup). */
  async ticketTypesByExternalIds(db: DbOrTx, organisationId: number, externalIds: string[]) {
    if (externalIds.length === 0) return [];
    return db
      .select()
      .from(ticketTypes)
      .where(and(eq(ticketTypes.organisationId, organisationId), inArray(ticketTypes.externalId, externalIds)));
  },
  async insertTicketType(db: DbOrTx, values: typeof ticketTypes.$inferInsert): Promise<TicketTypeRow | undefined> {
    return insertOrUndefined(db, (sp) => sp.insert(ticketTypes).values(values).returning());
  },
  async updateTicketType(db: DbOrTx, id: number, values: Partial<typeof ticketTypes.$inferInsert>): Promise<void> {
    await db.update(ticketTypes).set(values).where(eq(ticketTypes.id, id));
  },

  async benefitsOfType(db: DbOrTx, ticketTypeId: number): Promise<BenefitRow[]> {
    return db.select().from(benefits).where(eq(benefits.ticketTypeId, ticketTypeId));
  },
  /** Benefits of these types (to attach to newly issued tickets). */
  async benefitsOfTypes(db: DbOrTx, ticketTypeIds: number[]): Promise<BenefitRow[]> {
    if (ticketTypeIds.length === 0) return [];
    return db.select().from(benefits).where(inArray(benefits.ticketTypeId, ticketTypeIds));
  },
  async insertBenefit(db: DbOrTx, values: typeof benefits.$inferInsert): Promise<BenefitRow> {
    const [row] = await db.insert(benefits).values(values).returning();
    return row;
  },
  async updateBenefit(db: DbOrTx, id: number, values: Partial<typeof benefits.$inferInsert>): Promise<void> {
    await db.update(benefits).set(values).where(eq(benefits.id, id));
  },
  /** Gives a new benefit (one of it) to every live ticket of its type. */
  async grantBenefitToType(db: DbOrTx, benefitId: number, ticketTypeId: number): Promise<void> {
    await db.execute(sql`insert into ${userTicketBenefits} (user_ticket_id, benefit_id, purchased_amount)
      select ${userTickets.id}, ${benefitId}, 1 from ${userTickets}
      where ${userTickets.ticketTypeId} = ${ticketTypeId} and ${userTickets.revokedAt} is null
      on conflict do nothing`);
  },

  /**
   * Tickets of the organisation by externalId, with who they were issued to; row-locked (user_tickets) when
   * `lock`, so that no gift or resale changes them before the transaction ends.
   */
  async ticketsByExternalIds(
    db: DbOrTx,
    organisationId: number,
    externalIds: string[],
    lock: boolean,
  ): Promise<IssuedTicketRow[]> {
    if (externalIds.length === 0) return [];
    const ofOrg = and(eq(userTickets.organisationId, organisationId), inJson(userTickets.externalId, externalIds));
    // The lock first, the read after, in a statement of its own: under READ COMMITTED a row locked after
    // waiting for another transaction is its new version, but a subquery of the same statement (who it was
    // issued to) would still read the old snapshot and see a re-issue's holder without its history row.
    if (lock) await db.select({ id: userTickets.id }).from(userTickets).where(ofOrg).for('update');
    const rows = await db
      .select({
        id: userTickets.id,
        externalId: sql<string>`${userTickets.externalId}`,
        ticketTypeId: userTickets.ticketTypeId,
        holderId: userTickets.holderId,
        eventAccessUsedAt: userTickets.eventAccessUsedAt,
        revokedAt: userTickets.revokedAt,
        revokedReason: userTickets.revokedReason,
        // On sale: listed for resale or returned to an exchange queue (issue 45): either sale moves it by itself.
        listed: ticketIsOnSale(userTickets.id),
        issuedToId: issuedTo,
      })
      .from(userTickets)
      .where(ofOrg);
    const ids = [...new Set(rows.map((r) => r.issuedToId).filter((v): v is number => v !== null))];
    const emails = new Map(
      ids.length
        ? (await db.select({ id: users.id, email: users.email }).from(users).where(inJson(users.id, ids))).map(
            (u) => [u.id, u.email] as const,
          )
        : [],
    );
    return rows.map((r) => ({
      ...r,
      issuedToEmail: r.issuedToId === null ? null : (emails.get(r.issuedToId) ?? null),
    }));
  },

  /** Accounts by e-mail (lower-case), with their language. */
  async usersByEmails(db: DbOrTx, emails: string[]) {
    if (emails.length === 0) return [];
    return db
      .select({ id: users.id, email: users.email, locale: users.locale })
      .from(users)
      .where(inJson(users.email, emails));
  },
  /** Inserts accounts, skipping any that conflicts (e-mail or username taken); returns those inserted. */
  async insertUsers(
    db: DbOrTx,
    rows: { email: string; nickname: string; usernameSuffix: number; locale: string }[],
  ): Promise<{ id: number; email: string; locale: string }[]> {
    if (rows.length === 0) return [];
    return rowsOf(
      await db.execute(sql`insert into ${users} (email, nickname, username_suffix, locale)
        select r.email, r.nickname, r.username_suffix, r.locale
          from json_to_recordset(${await json(rows, ['email', 'nickname', 'usernameSuffix', 'locale'])}::json)
            as r(email text, nickname text, username_suffix integer, locale text)
        on conflict do nothing
        returning id, email, locale`),
    );
  },

  /**
   * Takes `count` new ticket ids from the table's sequence (outside or inside a transaction: a sequence is never
   * rolled back, an unused id is only a gap). Lets the import build its rows before its transaction.
   */
  async reserveTicketIds(db: DbOrTx, count: number): Promise<number[]> {
    if (count === 0) return [];
    return rowsOf<{ id: number }>(
      await db.execute(
        sql`select nextval(pg_get_serial_sequence('user_tickets', 'id'))::integer as id from generate_series(1, ${count}::integer)`,
      ),
    ).map((r) => Number(r.id));
  },
  /** Inserts tickets with their reserved ids ({@link orgApiRepository.reserveTicketIds}). */
  async insertTickets(
    db: DbOrTx,
    rows: {
      id: number;
      organisationId: number;
      externalId: string;
      ticketTypeId: number;
      holderId: number;
      createdAt: Date;
    }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    const data = await json(
      rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
      ['id', 'organisationId', 'externalId', 'ticketTypeId', 'holderId', 'createdAt'],
    );
    await db.execute(sql`insert into ${userTickets} (id, organisation_id, external_id, ticket_type_id, holder_id, created_at)
      select r.id, r.organisation_id, r.external_id, r.ticket_type_id, r.holder_id, r.created_at
        from json_to_recordset(${data}::json)
          as r(id integer, organisation_id integer, external_id text, ticket_type_id integer, holder_id integer, created_at timestamptz)`);
  },
  /** Appends ownership moves (ISSUE, REISSUE, REVOKE...). */
  async insertHistory(
    db: DbOrTx,
    rows: { userTicketId: number; fromUserId: number | null; toUserId: number | null; kind: string; at: Date }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    const data = await json(
      rows.map((r) => ({ ...r, at: r.at.toISOString() })),
      ['userTicketId', 'fromUserId', 'toUserId', 'kind', 'at'],
    );
    await db.execute(sql`insert into ${ticketHistory} (user_ticket_id, from_user_id, to_user_id, kind, at)
      select r.user_ticket_id, r.from_user_id, r.to_user_id, r.kind, r.at
        from json_to_recordset(${data}::json)
          as r(user_ticket_id integer, from_user_id integer, to_user_id integer, kind text, at timestamptz)`);
  },
  /** Gives each of these tickets one of every benefit of its type (already given ones are kept). */
  async grantTypeBenefits(db: DbOrTx, tickets: { id: number; ticketTypeId: number }[]): Promise<void> {
    if (tickets.length === 0) return;
    await db.execute(sql`insert into ${userTicketBenefits} (user_ticket_id, benefit_id, purchased_amount)
      select t.id, b.id, 1
        from json_to_recordset(${await json(tickets, ['id', 'ticketTypeId'])}::json) as t(id integer, ticket_type_id integer)
        join ${benefits} b on b.ticket_type_id = t.ticket_type_id
      on conflict do nothing`);
  },
  /** Moves each ticket to its new holder (re-issues). */
  async setHolders(db: DbOrTx, moves: { userTicketId: number; holderId: number }[]): Promise<void> {
    if (moves.length === 0) return;
    await db.execute(sql`update ${userTickets} set holder_id = m.holder_id
      from json_to_recordset(${await json(moves, ['userTicketId', 'holderId'])}::json) as m(user_ticket_id integer, holder_id integer)
      where ${userTickets.id} = m.user_ticket_id`);
  },
  async revoke(db: DbOrTx, userTicketId: number, at: Date): Promise<void> {
    await db.update(userTickets).set({ revokedAt: at, revokedReason: null }).where(eq(userTickets.id, userTicketId));
  },

  /** Adds the swap pair `fromTypeId` → `toTypeId` or sets its price difference; true when something changed. */
  async upsertSwapPair(db: DbOrTx, fromTypeId: number, toTypeId: number, priceDifferenceCents: number | null) {
    const rows = await db
      .insert(swapPairs)
      .values({ fromTicketTypeId: fromTypeId, toTicketTypeId: toTypeId, priceDifferenceCents })
      .onConflictDoUpdate({
        target: [swapPairs.fromTicketTypeId, swapPairs.toTicketTypeId],
        set: { priceDifferenceCents },
        setWhere: sql`${swapPairs.priceDifferenceCents} is distinct from ${priceDifferenceCents}`,
      })
      .returning({ id: swapPairs.id });
    return rows.length > 0;
  },
  /** The swap targets of these ticket types, with the target's externalId. */
  async swapTargetsOf(db: DbOrTx, fromTypeIds: number[]) {
    if (fromTypeIds.length === 0) return [];
    return db
      .select({
        fromTypeId: swapPairs.fromTicketTypeId,
        ticketTypeExternalId: ticketTypes.externalId,
        priceDifferenceCents: swapPairs.priceDifferenceCents,
      })
      .from(swapPairs)
      .innerJoin(ticketTypes, eq(ticketTypes.id, swapPairs.toTicketTypeId))
      .where(inArray(swapPairs.fromTicketTypeId, fromTypeIds))
      .orderBy(swapPairs.id);
  },

  /** Attendance of an event over its live (not revoked) tickets. */
  async attendance(db: DbOrTx, eventId: number) {
    const sold = sql<boolean>`exists (select 1 from ${resaleListingTickets} where ${resaleListingTickets.userTicketId} = ${userTickets.id} and ${resaleListingTickets.status} = 'SOLD')`;
    const [row] = await db
      .select({
        issued: count(),
        checkedIn: sql<number>`count(*) filter (where ${isNotNull(userTickets.eventAccessUsedAt)})`.mapWith(Number),
        listedForResale: sql<number>`count(*) filter (where ${ticketIsListed(userTickets.id)})`.mapWith(Number),
        resold: sql<number>`count(*) filter (where ${sold})`.mapWith(Number),
      })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .where(and(eq(ticketTypes.eventId, eventId), isNull(userTickets.revokedAt)));
    return row;
  },

  /**
   * From the event's recorded scans (decision 050): per zone (null: none) the tickets (not revoked) whose latest scan
   * there is an entry, zones by name (null first); per event-local day the tickets that entered that day, oldest first.
   */
  async scanCounts(db: DbOrTx, eventId: number) {
    const latest = db
      .selectDistinctOn([ticketScans.userTicketId, ticketScans.zone], {
        zone: ticketScans.zone,
        direction: ticketScans.direction,
      })
      .from(ticketScans)
      // A revoked ticket cannot scan out (the door no longer holds it): it is nobody inside.
      .innerJoin(userTickets, and(eq(userTickets.id, ticketScans.userTicketId), isNull(userTickets.revokedAt)))
      .where(eq(ticketScans.eventId, eventId))
      .orderBy(ticketScans.userTicketId, ticketScans.zone, desc(ticketScans.at), desc(ticketScans.id))
      .as('latest');
    const [insideByZone, entriesByDay] = await Promise.all([
      db
        .select({ zone: latest.zone, inside: count() })
        .from(latest)
        .where(eq(latest.direction, 'in'))
        .groupBy(latest.zone)
        .orderBy(sql`${latest.zone} asc nulls first`),
      db
        .select({ day: ticketScans.day, entries: countDistinct(ticketScans.userTicketId) })
        .from(ticketScans)
        .where(and(eq(ticketScans.eventId, eventId), eq(ticketScans.direction, 'in')))
        .groupBy(ticketScans.day)
        .orderBy(ticketScans.day),
    ]);
    return { insideByZone, entriesByDay };
  },
  /**
   * The event's check-ins (tickets whose event access was used, revoked ones included: they did get in) between
   * `from` and `to`, counted per `bucketSeconds`: `at` the bucket's start, oldest first, only buckets with any.
   */
  async checkInBuckets(db: DbOrTx, eventId: number, from: Date, to: Date, bucketSeconds: number) {
    // The width is written into the statement (an integer), so the select and the group by are one expression.
    const width = sql.raw(String(Math.trunc(bucketSeconds)));
    const bucket = sql<number>`floor(extract(epoch from ${userTickets.eventAccessUsedAt}) / ${width})::bigint`;
    const rows = await db
      .select({ bucket: bucket.mapWith(Number), count: count() })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .where(
        and(
          eq(ticketTypes.eventId, eventId),
          sql`${userTickets.eventAccessUsedAt} >= ${from.toISOString()}`,
          sql`${userTickets.eventAccessUsedAt} < ${to.toISOString()}`,
        ),
      )
      .groupBy(bucket)
      .orderBy(bucket);
    return rows.map((r) => ({ at: new Date(r.bucket * bucketSeconds * 1000), count: r.count }));
  },
  /** The offline doors' synced check-ins of the event that had conflicts, newest first, at most `limit`. */
  async conflictedDoorCheckIns(db: DbOrTx, eventId: number, limit: number) {
    return db
      .select({ scannedAt: doorCheckIns.scannedAt, syncedAt: doorCheckIns.syncedAt, conflicts: doorCheckIns.conflicts })
      .from(doorCheckIns)
      .where(and(eq(doorCheckIns.eventId, eventId), sql`jsonb_array_length(${doorCheckIns.conflicts}) > 0`))
      .orderBy(sql`${doorCheckIns.syncedAt} desc`, sql`${doorCheckIns.scannedAt} desc`)
      .limit(limit);
  },
  /**
   * One ticket of the organisation with what its "your ticket" e-mail needs: the current holder (null under a
   * resale code), the type's name, the event; undefined when there is no such ticket.
   */
  async ticketForMail(db: DbOrTx, organisationId: number, externalId: string) {
    const [row] = await db
      .select({
        userTicketId: userTickets.id,
        revokedAt: userTickets.revokedAt,
        holder: { id: users.id, email: users.email, locale: users.locale },
        ticketName: ticketTypes.name,
        event: events,
      })
      .from(userTickets)
      .leftJoin(users, eq(users.id, userTickets.holderId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(and(eq(userTickets.organisationId, organisationId), eq(userTickets.externalId, externalId)));
    return row;
  },
  /** The organiser's ids of these tickets (`userTicketId` → externalId, null when it has none). */
  async ticketExternalIds(db: DbOrTx, ids: number[]) {
    if (ids.length === 0) return new Map<number, string | null>();
    const rows = await db
      .select({ id: userTickets.id, externalId: userTickets.externalId })
      .from(userTickets)
      .where(inArray(userTickets.id, ids));
    return new Map(rows.map((r) => [r.id, r.externalId] as const));
  },
};

/** The rows of a raw statement's result, whichever driver ran it. */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Rows as one JSON text parameter for `json_to_recordset`, keys in snake_case as the statement's column list
 * names them; only `keys` are sent. Serialised row by row in time slices (10,000 rows never hold the event
 * loop: decision 021).
 */
async function json<T extends object>(rows: T[], keys: (keyof T & string)[]): Promise<string> {
  const names = keys.map(snake);
  const parts = await mapSliced(rows, (r) =>
    JSON.stringify(Object.fromEntries(keys.map((k, i) => [names[i], (r as Record<string, unknown>)[k] ?? null]))),
  );
  return `[${parts.join(',')}]`;
}

/** `column in (values)` with the values as one JSON parameter (not one bind parameter each). */
function inJson(column: SQLWrapper, values: readonly string[] | readonly number[]): SQL {
  const list = JSON.stringify(values);
  return typeof values[0] === 'number'
    ? sql`${column} in (select value::integer from json_array_elements_text(${list}::json) as v(value))`
    : sql`${column} in (select value from json_array_elements_text(${list}::json) as v(value))`;
}

/** Runs an insert under a savepoint: a unique violation (a concurrent PUT of the same id) leaves the transaction usable. */
async function insertOrUndefined<T>(db: DbOrTx, insert: (sp: DbOrTx) => Promise<T[]>): Promise<T | undefined> {
  try {
    const [row] = await db.transaction((sp) => insert(sp));
    return row;
  } catch (err) {
    if (uniqueViolation(err)) return undefined;
    throw err;
  }
}
