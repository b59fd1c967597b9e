/**
 * SQL for the door check-in: events the scanner picks from, the pass holder, and the holder's tickets
 * for one event, row-locked so that two scans of one pass admit each ticket once.
 * Every function takes the database or a transaction.
 */
import { and, asc, eq, exists, gt, inArray, isNotNull, isNull, ne, not, or, sql } from 'drizzle-orm';
import type { access } from '@tp/contract';
import type { DbOrTx } from '../../db/client.js';
import { ticketIsListed, ticketIsReturned, type Holder } from '../../db/predicates.js';
import { preparedStatement } from '../../db/prepared.js';
import {
  authSessions,
  doorCheckIns,
  events,
  ticketHistory,
  ticketScans,
  ticketTypes,
  userTickets,
  users,
  walletPasses,
} from '../../db/schema.js';

/** One ticket of the holder for the event, as locked by `lockHeldTickets`. */
export interface HeldTicketRow {
  userTicketId: number;
  ticketName: string;
  usedAt: Date | null;
  /** Its type's entry rules (decision 050); null: none. */
  entryRules: access.EntryRules | null;
}

/** A scan to record on a ticket (ticket_scans): the engine's `record`, the door key (null: platform) and offline. */
export interface ScanRow {
  userTicketId: number;
  eventId: number;
  record: access.RecordedScan;
  doorKeyId: number | null;
  offline: boolean;
}

/**
 * The live Google Wallet pass (decision 029) of a user_tickets row's current holder: its TOTP secret is what a
 * door checks a rotating barcode's freshness with.
 */
const walletPassWithTotp = and(
  eq(walletPasses.userTicketId, userTickets.id),
  eq(walletPasses.holderId, userTickets.holderId),
  isNotNull(walletPasses.googleObjectId),
  isNull(walletPasses.voidedAt),
);

/**
 * `revealTimes`'s statement, prepared (every fresh QR pass runs it; decision 043): `heldBy` with the holder and
 * organisation as parameters, organisation 0 for none (no organisation has it), as the ticket listing's.
 */
const revealTimesStatement = preparedStatement((db) =>
  db
    .selectDistinct({ revealAt: events.passRevealAt, typeId: ticketTypes.id })
    .from(userTickets)
    .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(
      and(
        eq(userTickets.holderId, sql.placeholder('holderId')),
        sql`(${sql.placeholder('organisationId')}::int = 0 or ${events.organisationId} = ${sql.placeholder('organisationId')}::int)`,
        isNull(userTickets.revokedAt),
        gt(events.endsAt, sql.placeholder('now')),
      ),
    )
    .prepare('access_reveal_times'),
);

export const accessRepository = {
  /**
   * The TOTP secret (hex) of the Google Wallet pass of `userTicketId` issued to `holderId`, while that holder
   * holds it; undefined when the pass was never saved to Google (an Apple pass shows the bare code).
   */
  async walletTotpSecret(db: DbOrTx, userTicketId: number, holderId: number): Promise<string | undefined> {
    const [row] = await db
      .select({ totpSecret: walletPasses.totpSecret })
      .from(userTickets)
      .innerJoin(walletPasses, walletPassWithTotp)
      .where(and(eq(userTickets.id, userTicketId), eq(userTickets.holderId, holderId)));
    return row?.totpSecret;
  },

  /**
   * `passRevealAt` of the events of the holder's live tickets (not revoked, event not ended at `now`), one row per
   * ticket type held (issue 21).
   */
  async revealTimes(db: DbOrTx, holder: Holder, now: Date): Promise<(Date | null)[]> {
    const rows = await revealTimesStatement(db).execute({
      holderId: holder.userId,
      organisationId: holder.organisationId ?? 0,
      now,
    });
    return rows.map((r) => r.revealAt);
  },
  /**
   * The sign-in session `id` of `userId` when it is neither revoked nor ended at `at` (its `expiresAt`),
   * else undefined: device pass certificates are issued for and checked against it (decision 010).
   */
  async liveSession(db: DbOrTx, id: string, userId: number, at: Date) {
    const [row] = await db
      .select({ id: authSessions.id, expiresAt: authSessions.expiresAt })
      .from(authSessions)
      .where(
        and(
          eq(authSessions.id, id),
          eq(authSessions.userId, userId),
          isNull(authSessions.revokedAt),
          gt(authSessions.expiresAt, at),
        ),
      );
    return row;
  },

  /** The event with this id (and its organisation), or undefined. */
  async event(db: DbOrTx, eventId: number) {
    const [row] = await db
      .select({
        id: events.id,
        name: events.name,
        organisationId: events.organisationId,
        passRevealAt: events.passRevealAt,
        cancelledAt: events.cancelledAt,
        timeZone: events.timeZone,
      })
      .from(events)
      .where(eq(events.id, eventId));
    return row;
  },

  /**
   * Events that end after `endsAfter`, soonest start first (the scanner's picker); only the organisation's
   * (`organisationId`) and only those `eventIds` when given (a door key's scope).
   */
  async eventsEndingAfter(
    db: DbOrTx,
    endsAfter: Date,
    scope: { organisationId: number | null; eventIds: number[] | null } = { organisationId: null, eventIds: null },
  ) {
    if (scope.eventIds?.length === 0) return [];
    return db
      .select({
        id: events.id,
        name: events.name,
        city: events.city,
        startsAt: events.startsAt,
        timeZone: events.timeZone,
      })
      .from(events)
      .where(
        and(
          gt(events.endsAt, endsAfter),
          scope.organisationId === null ? undefined : eq(events.organisationId, scope.organisationId),
          scope.eventIds === null ? undefined : inArray(events.id, scope.eventIds),
        ),
      )
      .orderBy(asc(events.startsAt), asc(events.id));
  },

  /** The names of a user (for the door's "holder" line), or undefined when there is no such user. */
  async holder(db: DbOrTx, userId: number) {
    const [row] = await db
      .select({
        givenName: users.givenName,
        familyName: users.familyName,
        nickname: users.nickname,
        usernameSuffix: users.usernameSuffix,
      })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  },

  /**
   * The tickets of `eventId` that `holderId` held and that no longer admit on their pass (issue 40 point 7): those
   * revoked while they held them (`revoked`), and those that left them by gift or resale (`transferred`: a
   * `ticket_history` row from them, and another holder, or none while under a resale code, now). Oldest first;
   * the new holder is not read.
   */
  async movedAwayTickets(
    db: DbOrTx,
    holderId: number,
    eventId: number,
  ): Promise<{ userTicketId: number; ticketName: string; reason: 'transferred' | 'revoked' | 'refunded' }[]> {
    const revokedHere = and(eq(userTickets.holderId, holderId), isNotNull(userTickets.revokedAt));
    const gaveAway = and(
      or(isNull(userTickets.holderId), ne(userTickets.holderId, holderId)),
      exists(
        db
          .select({ one: sql`1` })
          .from(ticketHistory)
          .where(and(eq(ticketHistory.userTicketId, userTickets.id), eq(ticketHistory.fromUserId, holderId))),
      ),
    );
    const rows = await db
      .select({
        userTicketId: userTickets.id,
        ticketName: ticketTypes.name,
        holderId: userTickets.holderId,
        revokedAt: userTickets.revokedAt,
        revokedReason: userTickets.revokedReason,
      })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .where(and(eq(ticketTypes.eventId, eventId), or(revokedHere, gaveAway)))
      .orderBy(asc(userTickets.id));
    return rows.map((r) => ({
      userTicketId: r.userTicketId,
      ticketName: r.ticketName,
      // Void here: the organiser's revoke, or the payment it was bought with went back (issue 46: `refunded`).
      reason:
        r.holderId === holderId && r.revokedAt
          ? r.revokedReason
            ? ('refunded' as const)
            : ('revoked' as const)
          : ('transferred' as const),
    }));
  },

  /**
   * The tickets `holderId` holds (holder_id = holderId) for the event, locked FOR UPDATE (user_tickets rows
   * only) until the transaction ends; ordered by ticket id. A ticket gifted or sold away concurrently is
   * re-checked by PostgreSQL after the lock wait and drops out. A revoked ticket (`revoked_at` set) never admits.
   */
  async lockHeldTickets(db: DbOrTx, holderId: number, eventId: number): Promise<HeldTicketRow[]> {
    return db
      .select({
        userTicketId: userTickets.id,
        ticketName: ticketTypes.name,
        usedAt: userTickets.eventAccessUsedAt,
        entryRules: ticketTypes.entryRules,
      })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .where(and(eq(userTickets.holderId, holderId), eq(ticketTypes.eventId, eventId), isNull(userTickets.revokedAt)))
      .orderBy(asc(userTickets.id))
      .for('update', { of: userTickets });
  },

  /**
   * Which of these tickets are in a live resale listing. Run after `lockHeldTickets`, as its own
   * statement, so it sees a listing committed while the lock was awaited.
   */
  async listedAmong(db: DbOrTx, userTicketIds: number[]): Promise<Set<number>> {
    if (userTicketIds.length === 0) return new Set();
    const rows = await db
      .select({ id: userTickets.id })
      .from(userTickets)
      .where(and(inArray(userTickets.id, userTicketIds), ticketIsListed(userTickets.id)));
    return new Set(rows.map((r) => r.id));
  },

  /**
   * Which of these tickets are returned to an exchange queue (decision 042: they do not admit until sold or
   * withdrawn). Run after the tickets' rows are locked, as its own statement, as `listedAmong` is.
   */
  async returnedAmong(db: DbOrTx, userTicketIds: number[]): Promise<Set<number>> {
    if (userTicketIds.length === 0) return new Set();
    const rows = await db
      .select({ id: userTickets.id })
      .from(userTickets)
      .where(and(inArray(userTickets.id, userTicketIds), ticketIsReturned(userTickets.id)));
    return new Set(rows.map((r) => r.id));
  },

  /**
   * The recorded scans of these tickets (decision 050), oldest first per ticket: a ticket with none is absent (its
   * history is then read from `usedAt`, contract `scansOf`). Run after the tickets' rows are locked.
   */
  async scansOf(db: DbOrTx, userTicketIds: number[]): Promise<Map<number, access.RecordedScan[]>> {
    const out = new Map<number, access.RecordedScan[]>();
    if (userTicketIds.length === 0) return out;
    const rows = await db
      .select({
        userTicketId: ticketScans.userTicketId,
        at: ticketScans.at,
        direction: ticketScans.direction,
        zone: ticketScans.zone,
        day: ticketScans.day,
      })
      .from(ticketScans)
      .where(inArray(ticketScans.userTicketId, userTicketIds))
      .orderBy(asc(ticketScans.at), asc(ticketScans.id));
    for (const r of rows) {
      const list = out.get(r.userTicketId) ?? [];
      list.push({ at: r.at.toISOString(), direction: r.direction, zone: r.zone, day: r.day });
      out.set(r.userTicketId, list);
    }
    return out;
  },

  /** Records scans the entry rules counted (ticket_scans). */
  async recordScans(db: DbOrTx, rows: ScanRow[]): Promise<void> {
    if (rows.length === 0) return;
    await db.insert(ticketScans).values(
      rows.map((r) => ({
        userTicketId: r.userTicketId,
        eventId: r.eventId,
        at: new Date(r.record.at),
        direction: r.record.direction,
        zone: r.record.zone,
        day: r.record.day,
        doorKeyId: r.doorKeyId,
        offline: r.offline,
      })),
    );
  },

  /**
   * Marks event access used at `at` on those of the tickets still unused; returns the ids it marked, ascending
   * (UPDATE … RETURNING has no order: PostgreSQL returned them in either order, and a sync answer is compared).
   */
  async markAccessUsed(db: DbOrTx, userTicketIds: number[], at: Date): Promise<number[]> {
    if (userTicketIds.length === 0) return [];
    const rows = await db
      .update(userTickets)
      .set({ eventAccessUsedAt: at })
      .where(and(inArray(userTickets.id, userTicketIds), isNull(userTickets.eventAccessUsedAt)))
      .returning({ id: userTickets.id });
    return rows.map((r) => r.id).sort((x, y) => x - y);
  },

  /**
   * Up to `limit` holders of tickets for the event with a user id above `after`, by user id, with every
   * ticket they hold for it (used or not, listed or not; revoked tickets and tickets returned to an exchange queue
   * left out, decision 042): one page of the offline door's snapshot.
   */
  async admissionsPage(db: DbOrTx, eventId: number, after: number, limit: number) {
    const holderIds = await db
      .selectDistinct({ id: userTickets.holderId })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .where(
        and(
          eq(ticketTypes.eventId, eventId),
          isNotNull(userTickets.holderId),
          gt(userTickets.holderId, after),
          isNull(userTickets.revokedAt),
          not(ticketIsReturned(userTickets.id)),
        ),
      )
      .orderBy(asc(userTickets.holderId))
      .limit(limit);
    const ids = holderIds.map((r) => r.id!);
    if (ids.length === 0) return { holders: [], tickets: [] };
    const [holders, tickets] = await Promise.all([
      db
        .select({
          id: users.id,
          givenName: users.givenName,
          familyName: users.familyName,
          nickname: users.nickname,
          usernameSuffix: users.usernameSuffix,
        })
        .from(users)
        .where(inArray(users.id, ids))
        .orderBy(asc(users.id)),
      db
        .select({
          holderId: userTickets.holderId,
          userTicketId: userTickets.id,
          ticketName: ticketTypes.name,
          usedAt: userTickets.eventAccessUsedAt,
          listed: ticketIsListed(userTickets.id),
          entryRules: ticketTypes.entryRules,
          walletTotpSecret: walletPasses.totpSecret,
        })
        .from(userTickets)
        .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
        .leftJoin(walletPasses, walletPassWithTotp)
        .where(
          and(
            eq(ticketTypes.eventId, eventId),
            inArray(userTickets.holderId, ids),
            isNull(userTickets.revokedAt),
            not(ticketIsReturned(userTickets.id)),
          ),
        )
        .orderBy(asc(userTickets.id)),
    ]);
    return { holders, tickets };
  },

  /**
   * These tickets, locked FOR UPDATE (user_tickets rows only) until the transaction ends, with their
   * holder and event: what a synced offline check-in is judged against.
   */
  async lockTickets(db: DbOrTx, userTicketIds: number[]) {
    return db
      .select({
        userTicketId: userTickets.id,
        holderId: userTickets.holderId,
        eventId: ticketTypes.eventId,
        ticketName: ticketTypes.name,
        usedAt: userTickets.eventAccessUsedAt,
        entryRules: ticketTypes.entryRules,
        revokedAt: userTickets.revokedAt,
        revokedReason: userTickets.revokedReason,
      })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .where(inArray(userTickets.id, userTicketIds))
      .orderBy(asc(userTickets.id))
      .for('update', { of: userTickets });
  },

  /**
   * Claims a synced item id: inserts its row (judgement to follow) unless the id exists. True when
   * claimed; false when the id was synced before (a concurrent claim waits for the first to commit).
   */
  async claimDoorCheckIn(db: DbOrTx, row: { id: string; eventId: number; scannedAt: Date }): Promise<boolean> {
    const inserted = await db
      .insert(doorCheckIns)
      .values({ ...row, admittedIds: [], conflicts: [] })
      .onConflictDoNothing({ target: doorCheckIns.id })
      .returning({ id: doorCheckIns.id });
    return inserted.length === 1;
  },

  /** Stores the judgement of a claimed item. */
  async judgeDoorCheckIn(
    db: DbOrTx,
    id: string,
    judgement: {
      holderId: number | null;
      admittedIds: number[];
      conflicts: { userTicketId: number; reason: string }[];
    },
  ) {
    await db.update(doorCheckIns).set(judgement).where(eq(doorCheckIns.id, id));
  },

  /** A synced item's stored judgement, or undefined. */
  async doorCheckIn(db: DbOrTx, id: string) {
    const [row] = await db
      .select({ id: doorCheckIns.id, admittedIds: doorCheckIns.admittedIds, conflicts: doorCheckIns.conflicts })
      .from(doorCheckIns)
      .where(eq(doorCheckIns.id, id));
    return row;
  },
};
