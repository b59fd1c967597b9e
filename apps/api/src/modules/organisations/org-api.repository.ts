/**
 * SQL of the organisation API (issue 12): events, ticket types, benefits and tickets looked up by the
 * organiser's own ids, always within one organisation (another organisation's ids are simply not found).
 * Bulk forms serve the CSV import (1,000 rows in a handful of statements).
 */
import { and, count, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { ticketIsListed } from '../../db/predicates.js';
import {
  benefits,
  events,
  ticketHistory,
  ticketTypes,
  userTicketBenefits,
  userTickets,
  users,
  resaleListingTickets,
  swapPairs,
} from '../../db/schema.js';
import { uniqueViolation } from '../../db/unique-violation.js';

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
  async eventByExternalId(db: DbOrTx, organisationId: number, externalId: string, lock = false) {
    const q = db
      .select()
      .from(events)
      .where(and(eq(events.organisationId, organisationId), eq(events.externalId, externalId)));
    const [row] = lock ? await q.for('update') : await q;
    return row;
  },
  async eventById(db: DbOrTx, id: number): Promise<EventRow | undefined> {
    const [row] = await db.select().from(events).where(eq(events.id, id));
    return row;
  },
  /** Inserts an event; undefined when its externalId was taken meanwhile (a concurrent PUT). */
  async insertEvent(db: DbOrTx, values: typeof events.$inferInsert): Promise<EventRow | undefined> {
    return insertOrUndefined(db, (sp) => sp.insert(events).values(values).returning());
  },
  async updateEvent(db: DbOrTx, id: number, values: Partial<typeof events.$inferInsert>): Promise<void> {
    await db.update(events).set(values).where(eq(events.id, id));
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
    const q = db
      .select({
        id: userTickets.id,
        externalId: sql<string>`${userTickets.externalId}`,
        ticketTypeId: userTickets.ticketTypeId,
        holderId: userTickets.holderId,
        eventAccessUsedAt: userTickets.eventAccessUsedAt,
        revokedAt: userTickets.revokedAt,
        listed: ticketIsListed(userTickets.id),
        issuedToId: issuedTo,
      })
      .from(userTickets)
      .where(and(eq(userTickets.organisationId, organisationId), inArray(userTickets.externalId, externalIds)));
    const rows = lock ? await q.for('update', { of: userTickets }) : await q;
    const ids = [...new Set(rows.map((r) => r.issuedToId).filter((v): v is number => v !== null))];
    const emails = new Map(
      ids.length
        ? (await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, ids))).map(
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
      .where(inArray(users.email, emails));
  },
  /** Inserts accounts, skipping any that conflicts (e-mail or username taken); returns those inserted. */
  async insertUsers(db: DbOrTx, rows: (typeof users.$inferInsert)[]) {
    const out = [];
    for (const part of chunks(rows))
      out.push(
        ...(await db
          .insert(users)
          .values(part)
          .onConflictDoNothing()
          .returning({ id: users.id, email: users.email, locale: users.locale })),
      );
    return out;
  },

  /** Inserts tickets; returns their ids in insertion order with their externalId. */
  async insertTickets(db: DbOrTx, rows: (typeof userTickets.$inferInsert)[]) {
    const out = [];
    for (const part of chunks(rows))
      out.push(
        ...(await db.insert(userTickets).values(part).returning({
          id: userTickets.id,
          externalId: userTickets.externalId,
          ticketTypeId: userTickets.ticketTypeId,
        })),
      );
    return out;
  },
  async insertHistory(db: DbOrTx, rows: (typeof ticketHistory.$inferInsert)[]): Promise<void> {
    for (const part of chunks(rows)) await db.insert(ticketHistory).values(part);
  },
  async insertTicketBenefits(db: DbOrTx, rows: (typeof userTicketBenefits.$inferInsert)[]): Promise<void> {
    for (const part of chunks(rows)) await db.insert(userTicketBenefits).values(part).onConflictDoNothing();
  },
  async setHolder(db: DbOrTx, userTicketId: number, holderId: number): Promise<void> {
    await db.update(userTickets).set({ holderId }).where(eq(userTickets.id, userTicketId));
  },
  async revoke(db: DbOrTx, userTicketId: number, at: Date): Promise<void> {
    await db.update(userTickets).set({ revokedAt: at }).where(eq(userTickets.id, userTicketId));
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
};

/** Rows per multi-row INSERT: well under PostgreSQL's 65,535 bind parameters per statement. */
const INSERT_CHUNK = 1000;
function* chunks<T>(rows: T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) yield rows.slice(i, i + INSERT_CHUNK);
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
