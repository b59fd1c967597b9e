/** SQL of the exchange queue (issue 45, decision 042): settings, entries and units of supply. */
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { uniqueViolation } from '../../db/unique-violation.js';
import { organisationEvent, ticketIsListed, ticketRefundPending, ticketRow } from '../../db/predicates.js';
import {
  events,
  exchangeEntries,
  exchangeSettings,
  exchangeUnits,
  organisations,
  organisationPayoutAccounts,
  payoutAccounts,
  ticketTypes,
  userTickets,
  users,
} from '../../db/schema.js';

export type SettingsRow = typeof exchangeSettings.$inferSelect;
export type EntryRow = typeof exchangeEntries.$inferSelect;
export type UnitRow = typeof exchangeUnits.$inferSelect;
export type EventRow = typeof events.$inferSelect;

/** Statuses of a unit still on offer. */
const LIVE_UNIT = ['AVAILABLE', 'HELD', 'RESERVED'];

/**
 * An entry's position: its rank among the type's WAITING and OFFERED entries by `seq` (1 = next), for an entry
 * itself WAITING or OFFERED and ordered; null otherwise. The order is the one `waitingOfType` matches by.
 */
const positionOf = sql<number | null>`case when ${exchangeEntries.status} in ('WAITING', 'OFFERED')
  and ${exchangeEntries.seq} is not null then (select count(*)::int from exchange_entries e2
  where e2.ticket_type_id = ${exchangeEntries.ticketTypeId} and e2.status in ('WAITING', 'OFFERED')
  and e2.seq is not null and e2.seq <= ${exchangeEntries.seq}) end`;

export const exchangeRepository = {
  /** The organisation's event by its externalId, or undefined. */
  orgEvent: (db: DbOrTx, organisationId: number, externalId: string): Promise<EventRow | undefined> =>
    organisationEvent(db, organisationId, externalId),

  /**
   * Whether the event is cancelled (issue 46), its row held `FOR SHARE` until the transaction ends: a cancel (which
   * marks the event before it closes the queue) waits for the caller, or the caller reads the cancel's commit.
   */
  async eventCancelledLocked(tx: DbOrTx, eventId: number): Promise<boolean> {
    const [row] = await tx
      .select({ cancelledAt: events.cancelledAt })
      .from(events)
      .where(eq(events.id, eventId))
      .for('share');
    return row?.cancelledAt != null;
  },

  /** The event of the organisation with this slug, by its externalId, or undefined. */
  async publicEvent(db: DbOrTx, slug: string, externalId: string): Promise<EventRow | undefined> {
    const [row] = await db
      .select({ event: events })
      .from(events)
      .innerJoin(organisations, eq(organisations.id, events.organisationId))
      .where(and(eq(organisations.slug, slug), eq(events.externalId, externalId)));
    return row?.event;
  },

  /** The event's exchange settings, or undefined when never set. */
  async settings(db: DbOrTx, eventId: number): Promise<SettingsRow | undefined> {
    const [row] = await db.select().from(exchangeSettings).where(eq(exchangeSettings.eventId, eventId));
    return row;
  },

  /**
   * Takes the event's exchange lock (its settings row, `FOR UPDATE`) until the transaction ends and answers the
   * settings; undefined (no lock) when never set.
   */
  async lockSettings(tx: DbOrTx, eventId: number): Promise<SettingsRow | undefined> {
    const [row] = await tx.select().from(exchangeSettings).where(eq(exchangeSettings.eventId, eventId)).for('update');
    return row;
  },

  /** Writes the event's settings (insert or update). */
  async putSettings(tx: DbOrTx, values: typeof exchangeSettings.$inferInsert): Promise<void> {
    const { eventId: _eventId, ...set } = values;
    await tx.insert(exchangeSettings).values(values).onConflictDoUpdate({ target: exchangeSettings.eventId, set });
  },

  /** The event's ticket types, by id. */
  async typesOfEvent(db: DbOrTx, eventId: number) {
    return db
      .select({
        id: ticketTypes.id,
        externalId: ticketTypes.externalId,
        name: ticketTypes.name,
        priceCents: ticketTypes.priceCents,
        currencyCode: ticketTypes.currencyCode,
      })
      .from(ticketTypes)
      .where(eq(ticketTypes.eventId, eventId))
      .orderBy(asc(ticketTypes.id));
  },

  /**
   * Per ticket type of the event: entries by status and units by origin (returned by a holder, its seller; released by
   * the organiser, none) and status (counts).
   */
  async counts(db: DbOrTx, eventId: number) {
    const entries = await db
      .select({
        ticketTypeId: exchangeEntries.ticketTypeId,
        status: exchangeEntries.status,
        n: sql<number>`count(*)::int`,
      })
      .from(exchangeEntries)
      .where(eq(exchangeEntries.eventId, eventId))
      .groupBy(exchangeEntries.ticketTypeId, exchangeEntries.status);
    const units = await db
      .select({
        ticketTypeId: exchangeUnits.ticketTypeId,
        returned: sql<number>`count(*) filter (where ${exchangeUnits.sellerUserId} is not null)::int`,
        released: sql<number>`count(*) filter (where ${exchangeUnits.sellerUserId} is null)::int`,
        sold: sql<number>`count(*) filter (where ${exchangeUnits.status} = 'SOLD')::int`,
      })
      .from(exchangeUnits)
      .where(eq(exchangeUnits.eventId, eventId))
      .groupBy(exchangeUnits.ticketTypeId);
    return { entries, units };
  },

  /**
   * Inserts a WAITING entry; `ordered` takes its `seq` from the sequence now (first come), else it waits for the
   * draw. Answers its id, or null when the account already has an open entry for the type (the partial index).
   */
  async insertEntry(
    tx: DbOrTx,
    values: { eventId: number; ticketTypeId: number; userId: number; quantity: number; createdAt: Date },
    ordered: boolean,
  ): Promise<number | null> {
    try {
      const [row] = await tx
        .insert(exchangeEntries)
        .values({ ...values, status: 'WAITING', seq: ordered ? sql`nextval('exchange_entry_seq')` : null })
        .returning({ id: exchangeEntries.id });
      return row.id;
    } catch (err) {
      if (uniqueViolation(err)) return null;
      throw err;
    }
  },

  /** An account's entries, newest first, with event, type and position. */
  async entriesOfUser(db: DbOrTx, userId: number, limit: number) {
    return db
      .select({
        entry: exchangeEntries,
        position: positionOf,
        event: {
          name: events.name,
          externalId: events.externalId,
          startsAt: events.startsAt,
          timeZone: events.timeZone,
        },
        type: { name: ticketTypes.name, externalId: ticketTypes.externalId },
      })
      .from(exchangeEntries)
      .innerJoin(events, eq(events.id, exchangeEntries.eventId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, exchangeEntries.ticketTypeId))
      .where(eq(exchangeEntries.userId, userId))
      .orderBy(desc(exchangeEntries.id))
      .limit(limit);
  },

  /** The account's entry with this id, or undefined. */
  async entryOfUser(db: DbOrTx, userId: number, id: number): Promise<EntryRow | undefined> {
    const [row] = await db
      .select()
      .from(exchangeEntries)
      .where(and(eq(exchangeEntries.id, id), eq(exchangeEntries.userId, userId)));
    return row;
  },

  /** The entry with this id, or undefined. */
  async entry(db: DbOrTx, id: number): Promise<EntryRow | undefined> {
    const [row] = await db.select().from(exchangeEntries).where(eq(exchangeEntries.id, id));
    return row;
  },

  /** The type's WAITING entries that have an order, by `seq` (the matching's order; `positionOf` counts by it). */
  async waitingOfType(tx: DbOrTx, ticketTypeId: number): Promise<EntryRow[]> {
    return tx
      .select()
      .from(exchangeEntries)
      .where(
        and(
          eq(exchangeEntries.ticketTypeId, ticketTypeId),
          eq(exchangeEntries.status, 'WAITING'),
          isNotNull(exchangeEntries.seq),
        ),
      )
      .orderBy(asc(exchangeEntries.seq));
  },

  /** The type's units in `status` (AVAILABLE or HELD), oldest first. */
  async unitsOfType(tx: DbOrTx, ticketTypeId: number, status: 'AVAILABLE' | 'HELD'): Promise<UnitRow[]> {
    return tx
      .select()
      .from(exchangeUnits)
      .where(and(eq(exchangeUnits.ticketTypeId, ticketTypeId), eq(exchangeUnits.status, status)))
      .orderBy(asc(exchangeUnits.id));
  },

  /** Sets the units' status and entry (`units`: the rows, by their ids). */
  async setUnits(tx: DbOrTx, units: { id: number }[], status: string, entryId: number | null, at: Date): Promise<void> {
    const ids = units.map((u) => u.id);
    if (!ids.length) return;
    await tx
      .update(exchangeUnits)
      .set({ status, entryId, endedAt: status === 'SOLD' || status === 'WITHDRAWN' ? at : null })
      .where(inArray(exchangeUnits.id, ids));
  },

  /** The units HELD or RESERVED for the entry back to AVAILABLE; answers how many. */
  async freeUnitsOf(tx: DbOrTx, entryId: number): Promise<number> {
    const rows = await tx
      .update(exchangeUnits)
      .set({ status: 'AVAILABLE', entryId: null })
      .where(and(eq(exchangeUnits.entryId, entryId), inArray(exchangeUnits.status, ['HELD', 'RESERVED'])))
      .returning({ id: exchangeUnits.id });
    return rows.length;
  },

  /** Makes the entry OFFERED until `expiresAt`. */
  async offerEntry(tx: DbOrTx, id: number, offeredAt: Date, expiresAt: Date): Promise<void> {
    await tx.update(exchangeEntries).set({ status: 'OFFERED', offeredAt, expiresAt }).where(eq(exchangeEntries.id, id));
  },

  /** Ends an open entry with `status`; false when it was no longer in one of `from`. */
  async endEntry(tx: DbOrTx, id: number, from: string[], status: string, at: Date): Promise<boolean> {
    const rows = await tx
      .update(exchangeEntries)
      .set({ status, endedAt: at })
      .where(and(eq(exchangeEntries.id, id), inArray(exchangeEntries.status, from)))
      .returning({ id: exchangeEntries.id });
    return rows.length === 1;
  },

  /** Adds `n` to the entries' `passedOver` (`entries`: the rows, by their ids). */
  async addPassedOver(tx: DbOrTx, entries: { id: number }[], n: number): Promise<void> {
    const ids = entries.map((e) => e.id);
    if (!ids.length) return;
    await tx
      .update(exchangeEntries)
      .set({ passedOver: sql`${exchangeEntries.passedOver} + ${n}` })
      .where(inArray(exchangeEntries.id, ids));
  },

  /** Inserts AVAILABLE units; answers their ids. */
  async insertUnits(
    tx: DbOrTx,
    rows: Omit<typeof exchangeUnits.$inferInsert, 'id' | 'status' | 'entryId' | 'endedAt'>[],
  ): Promise<number[]> {
    if (!rows.length) return [];
    const inserted = await tx
      .insert(exchangeUnits)
      .values(rows.map((r) => ({ ...r, status: 'AVAILABLE' })))
      .returning({ id: exchangeUnits.id });
    return inserted.map((r) => r.id);
  },

  /** A unit by id, or undefined. */
  async unit(db: DbOrTx, id: number): Promise<UnitRow | undefined> {
    const [row] = await db.select().from(exchangeUnits).where(eq(exchangeUnits.id, id));
    return row;
  },

  /** The ticket's live unit (AVAILABLE, HELD or RESERVED), or undefined. */
  async liveUnitOfTicket(db: DbOrTx, userTicketId: number): Promise<UnitRow | undefined> {
    const [row] = await db
      .select()
      .from(exchangeUnits)
      .where(and(eq(exchangeUnits.userTicketId, userTicketId), inArray(exchangeUnits.status, LIVE_UNIT)));
    return row;
  },

  /**
   * The ticket with its type and event, whether a resale listing holds it and whether a refund request of it is
   * pending (issue 46); `lock`: its row `FOR UPDATE` until the transaction ends, taken before the read so that the
   * subqueries see what the lock's previous holder wrote (`ticketRow`, db/predicates.ts).
   */
  async ticket(db: DbOrTx, userTicketId: number, lock: boolean) {
    return ticketRow(db, userTicketId, lock, {
      listed: ticketIsListed(userTickets.id),
      refundPending: ticketRefundPending(userTickets.id),
    });
  },

  /** The event with this id, or undefined. */
  async event(db: DbOrTx, eventId: number): Promise<EventRow | undefined> {
    const [row] = await db.select().from(events).where(eq(events.id, eventId));
    return row;
  },

  /**
   * Closes the event's queue at `at` (decision 042 "Closed"): `closedAt` set, its WAITING and OFFERED entries
   * CLOSED, and every unit still on offer (AVAILABLE, HELD or RESERVED; returned or released) WITHDRAWN, so each
   * returned ticket admits again. The caller holds the event's exchange lock.
   * @returns the entries closed, how many units were withdrawn and the returned tickets among them (user_tickets.id)
   */
  async close(
    tx: DbOrTx,
    eventId: number,
    at: Date,
  ): Promise<{ entries: number[]; units: number; userTicketIds: number[] }> {
    await tx.update(exchangeSettings).set({ closedAt: at, updatedAt: at }).where(eq(exchangeSettings.eventId, eventId));
    const entries = await tx
      .update(exchangeEntries)
      .set({ status: 'CLOSED', endedAt: at })
      .where(and(eq(exchangeEntries.eventId, eventId), inArray(exchangeEntries.status, ['WAITING', 'OFFERED'])))
      .returning({ id: exchangeEntries.id });
    const units = await tx
      .update(exchangeUnits)
      .set({ status: 'WITHDRAWN', entryId: null, endedAt: at })
      .where(and(eq(exchangeUnits.eventId, eventId), inArray(exchangeUnits.status, LIVE_UNIT)))
      .returning({ id: exchangeUnits.id, userTicketId: exchangeUnits.userTicketId });
    return {
      entries: entries.map((e) => e.id),
      units: units.length,
      userTicketIds: units.flatMap((u) => (u.userTicketId === null ? [] : [u.userTicketId])),
    };
  },

  /**
   * The entries `ids` with what their notices need (exchange-notices.ts): the fan's address and language, the event,
   * the type's name and id, and the organisation whose brand the mail wears. An entry whose account is gone is left out.
   */
  async noticeRows(db: DbOrTx, ids: number[]) {
    if (!ids.length) return [];
    return db
      .select({
        entry: exchangeEntries,
        fan: { email: users.email, locale: users.locale },
        event: events,
        type: { name: ticketTypes.name, externalId: ticketTypes.externalId },
        organisation: organisations,
      })
      .from(exchangeEntries)
      .innerJoin(users, eq(users.id, exchangeEntries.userId))
      .innerJoin(events, eq(events.id, exchangeEntries.eventId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, exchangeEntries.ticketTypeId))
      .innerJoin(organisations, eq(organisations.id, events.organisationId))
      .where(inArray(exchangeEntries.id, ids))
      .orderBy(asc(exchangeEntries.id));
  },

  /** The total (minor units) and currency of the units RESERVED for an entry's offer. */
  async reservedTotal(db: DbOrTx, entryId: number): Promise<{ cents: number; currencyCode: string }> {
    const [row] = await db
      .select({
        cents: sql<number>`coalesce(sum(${exchangeUnits.priceCents}), 0)::int`,
        currencyCode: sql<string>`min(${exchangeUnits.currencyCode})`,
      })
      .from(exchangeUnits)
      .where(and(eq(exchangeUnits.entryId, entryId), eq(exchangeUnits.status, 'RESERVED')));
    return { cents: Number(row.cents), currencyCode: row.currencyCode };
  },

  /** The event's WAITING entries with no `seq` yet (waiting for the draw), by id. */
  async unordered(tx: DbOrTx, eventId: number): Promise<Pick<EntryRow, 'id' | 'createdAt'>[]> {
    return tx
      .select({ id: exchangeEntries.id, createdAt: exchangeEntries.createdAt })
      .from(exchangeEntries)
      .where(
        and(eq(exchangeEntries.eventId, eventId), eq(exchangeEntries.status, 'WAITING'), isNull(exchangeEntries.seq)),
      )
      .orderBy(asc(exchangeEntries.id));
  },

  /**
   * Gives the entries `seq` in the order of `ids` (the first gets the lowest), from the sequence first come takes
   * from, so they come after every entry ordered before and before every entry ordered after.
   */
  async order(tx: DbOrTx, ids: number[]): Promise<void> {
    if (!ids.length) return;
    const taken = await tx
      .select({ seq: sql<string>`nextval('exchange_entry_seq')::text` })
      .from(sql`generate_series(1, ${ids.length}::int)`);
    // Values of one sequence are distinct; sorted, the i-th lowest goes to the i-th entry.
    const seqs = taken.map((r) => BigInt(r.seq)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    await tx.execute(sql`update exchange_entries e set seq = v.seq from unnest(
      ${sql.param(ids)}::int[], ${sql.param(seqs.map(String))}::bigint[]) as v(id, seq) where e.id = v.id`);
  },

  /** Records that the event's draw ran at `at`. */
  async setDrawnAt(tx: DbOrTx, eventId: number, at: Date): Promise<void> {
    await tx.update(exchangeSettings).set({ drawnAt: at }).where(eq(exchangeSettings.eventId, eventId));
  },

  /**
   * Whether the payout account of a holder (a return is paid to it, as a resale is) or of an organisation (its
   * releases are paid to it) is verified.
   */
  async payoutVerified(db: DbOrTx, payee: { userId: number } | { organisationId: number }): Promise<boolean> {
    const [row] =
      'userId' in payee
        ? await db
            .select({ status: payoutAccounts.status })
            .from(payoutAccounts)
            .where(eq(payoutAccounts.userId, payee.userId))
        : await db
            .select({ status: organisationPayoutAccounts.status })
            .from(organisationPayoutAccounts)
            .where(eq(organisationPayoutAccounts.organisationId, payee.organisationId));
    return row?.status === 'VERIFIED';
  },
};
