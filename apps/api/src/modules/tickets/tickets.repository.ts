/**
 * SQL for the holder's tickets with their event, type and benefits: which tickets a holder holds now, each with its
 * row version (`TicketHead`), and the whole rows of given tickets (`TicketRow`), which the service keeps while their
 * version holds (tickets.service.ts, decision 036).
 */
import { and, asc, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { heldBy, ticketIsHeldBack, ticketIsReturned, type Holder } from '../../db/predicates.js';
import { preparedStatement } from '../../db/prepared.js';
import {
  benefits,
  events,
  refundRequests,
  ticketScans,
  ticketTypes,
  userTicketBenefits,
  userTickets,
} from '../../db/schema.js';

/** The parts of a held benefit (`user_ticket_benefits` row and its `benefits` row) the My-ticket item shows. */
export type BenefitRow = {
  held: Pick<
    typeof userTicketBenefits.$inferSelect,
    'id' | 'purchasedAmount' | 'usedAmount' | 'lastUsedAt' | 'unlockedAt' | 'unlockedBy'
  >;
  benefit: Pick<
    typeof benefits.$inferSelect,
    | 'name'
    | 'shortDescription'
    | 'fullDescription'
    | 'type'
    | 'icon'
    | 'iconColor'
    | 'iconBgColor'
    | 'image'
    | 'validUntil'
    | 'isUnlockable'
    | 'redeemCode'
  >;
};

/** A held benefit as the listing's JSON column carries it: timestamps as ISO 8601 text. */
type BenefitJson = {
  held: Omit<BenefitRow['held'], 'lastUsedAt' | 'unlockedAt'> & {
    lastUsedAt: string | null;
    unlockedAt: string | null;
  };
  benefit: Omit<BenefitRow['benefit'], 'validUntil'> & { validUntil: string | null };
};

/**
 * The ticket's held benefits (`user_ticket_benefits.id` order) as one JSON array column of the ticket's row: the
 * listing is one statement, not one for the tickets and one for their benefits (a round trip and Drizzle's
 * mapping of a second result: about a third of the listing's time, decision 028).
 */
const benefitsJson = sql<BenefitJson[]>`coalesce((select json_agg(json_build_object(
  'held', json_build_object('id', ${userTicketBenefits.id}, 'purchasedAmount', ${userTicketBenefits.purchasedAmount},
    'usedAmount', ${userTicketBenefits.usedAmount}, 'lastUsedAt', ${userTicketBenefits.lastUsedAt},
    'unlockedAt', ${userTicketBenefits.unlockedAt}, 'unlockedBy', ${userTicketBenefits.unlockedBy}),
  'benefit', json_build_object('name', ${benefits.name}, 'shortDescription', ${benefits.shortDescription},
    'fullDescription', ${benefits.fullDescription}, 'type', ${benefits.type}, 'icon', ${benefits.icon},
    'iconColor', ${benefits.iconColor}, 'iconBgColor', ${benefits.iconBgColor}, 'image', ${benefits.image},
    'validUntil', ${benefits.validUntil}, 'isUnlockable', ${benefits.isUnlockable},
    'redeemCode', ${benefits.redeemCode})) order by ${userTicketBenefits.id})
  from ${userTicketBenefits} inner join ${benefits} on ${benefits.id} = ${userTicketBenefits.benefitId}
  where ${userTicketBenefits.userTicketId} = ${userTickets.id}), '[]'::json)`;

/** The ticket's latest refund request that is pending or declined (issue 46), as JSON (`createdAt` text), or null. */
export type RefundJson = { status: 'pending' | 'declined'; createdAt: string; declineReason: string | null };

/**
 * The refund request the holder is shown (`MyTicket.refund.request`) as one JSON column of the ticket's row. Its
 * changes make a new version of the ticket's row (the refunds module touches it), so a kept row shows it.
 */
const refundJson = sql<RefundJson | null>`(select json_build_object('status', ${refundRequests.status},
  'createdAt', ${refundRequests.createdAt}, 'declineReason', ${refundRequests.declineReason})
  from ${refundRequests} where ${refundRequests.userTicketId} = ${userTickets.id}
  and ${refundRequests.userId} = ${userTickets.holderId}
  and ${refundRequests.status} in ('pending', 'declined') order by ${refundRequests.id} desc limit 1)`;

/** A recorded scan as JSON (`at` as PostgreSQL writes a timestamptz). */
export type ScanJson = { at: string; direction: 'in' | 'out'; zone: string | null; day: string };

/**
 * The ticket's recorded scans (issue 48, decision 050), oldest first, as one JSON column of its row, read only when
 * its type has entry rules (null otherwise, so today's tickets cost nothing more). A new scan makes a new version of
 * the ticket's row (migration 0033's trigger), so a kept row shows it.
 */
const scansJson = sql<ScanJson[] | null>`(case when ${ticketTypes.entryRules} is null then null else
  coalesce((select json_agg(json_build_object('at', ${ticketScans.at}, 'direction', ${ticketScans.direction},
    'zone', ${ticketScans.zone}, 'day', ${ticketScans.day}) order by ${ticketScans.at}, ${ticketScans.id})
  from ${ticketScans} where ${ticketScans.userTicketId} = ${userTickets.id}), '[]'::json) end)`;

/**
 * The columns a My-ticket item and the "may this ticket move" rule read (tickets.service.ts `toMyTicket`,
 * db/predicates.ts `ticketMayMove`), not the tables' every column: each column costs PostgreSQL, `pg`'s row
 * parsing and Drizzle's mapping on every ticket of every listing (decision 028, issue 24).
 */
const ticketColumns = {
  ticket: {
    id: userTickets.id,
    holderId: userTickets.holderId,
    eventAccessUsedAt: userTickets.eventAccessUsedAt,
    revokedAt: userTickets.revokedAt,
  },
  type: {
    name: ticketTypes.name,
    description: ticketTypes.description,
    logo: ticketTypes.logo,
    isGiftable: ticketTypes.isGiftable,
    isResellable: ticketTypes.isResellable,
    isSwappable: ticketTypes.isSwappable,
    entryRules: ticketTypes.entryRules,
  },
  event: {
    organisationId: events.organisationId,
    name: events.name,
    description: events.description,
    city: events.city,
    venue: events.venue,
    address1: events.address1,
    latitude: events.latitude,
    longitude: events.longitude,
    timeZone: events.timeZone,
    startsAt: events.startsAt,
    endsAt: events.endsAt,
    image: events.image,
    logo: events.logo,
    cancelledAt: events.cancelledAt,
    cancelReason: events.cancelReason,
    rescheduledAt: events.rescheduledAt,
    refundPolicy: events.refundPolicy,
    refundUntil: events.refundUntil,
    refundDeadline: events.refundDeadline,
  },
  listed: ticketIsHeldBack(userTickets.id),
  returned: ticketIsReturned(userTickets.id),
  refund: refundJson,
  scans: scansJson,
  benefits: benefitsJson,
};
/**
 * The version of a ticket's listing row: the row versions (`xmin`, a new one on every change) of the ticket, its type
 * and its event, as `ticket:type:event`. Migration 0017's triggers carry every change of the rows the item shows
 * beside these (held benefits, resale entries, the type's benefits) to the ticket's or the type's row, and migration
 * 0025's those of its exchange units (a return, a withdrawal, a sale), so a row read at this version is still what the
 * statement would read now.
 */
const rowVersion = sql<string>`${userTickets}.xmin::text || ':' || ${ticketTypes}.xmin::text || ':' || ${events}.xmin::text`;

/** A ticket the holder holds now and its listing row's version (`rowVersion`). */
export type TicketHead = { id: number; version: string };

/**
 * A held ticket with the type and event columns it is shown with, its held benefits, `listed` while it is on sale
 * (a live resale listing, returned to an exchange queue or its refund pending: `ticketIsHeldBack`, the move rule's) and `returned` while
 * it is returned to an exchange queue.
 */
export type TicketRow = {
  ticket: Pick<typeof userTickets.$inferSelect, keyof typeof ticketColumns.ticket>;
  type: Pick<typeof ticketTypes.$inferSelect, keyof typeof ticketColumns.type>;
  event: Pick<typeof events.$inferSelect, keyof typeof ticketColumns.event>;
  listed: boolean;
  returned: boolean;
  refund: RefundJson | null;
  /** Null when the type has no entry rules. */
  scans: ScanJson[] | null;
  benefits: BenefitRow[];
};

const dateOf = (text: string | null) => (text === null ? null : new Date(text));

/** The row as the statement answers it (with any other column it selected), its benefits' timestamps made Dates. */
function withBenefitDates<R extends Omit<TicketRow, 'benefits'> & { benefits: BenefitJson[] }>(
  row: R,
): Omit<R, 'benefits'> & { benefits: BenefitRow[] } {
  return {
    ...row,
    benefits: row.benefits.map(({ held, benefit }) => ({
      held: { ...held, lastUsedAt: dateOf(held.lastUsedAt), unlockedAt: dateOf(held.unlockedAt) },
      benefit: { ...benefit, validUntil: dateOf(benefit.validUntil) },
    })),
  };
}

/**
 * The listing (My tickets, the gift dropdown), one prepared statement per status and shape: `heads` (which tickets,
 * with their versions) or `rows` (their whole rows, with their versions). The holder part is `heldBy` with
 * placeholders (a prepared statement cannot take a condition that comes and goes): the organisation id is 0 (no
 * organisation has it) for "every organisation".
 */
const listWhere = (status: 'UPCOMING' | 'PAST') =>
  and(
    eq(userTickets.holderId, sql.placeholder('holderId')),
    sql`(${sql.placeholder('organisationId')}::int = 0 or ${events.organisationId} = ${sql.placeholder('organisationId')}::int)`,
    isNull(userTickets.revokedAt),
    status === 'UPCOMING' ? gt(events.endsAt, sql.placeholder('now')) : lte(events.endsAt, sql.placeholder('now')),
  );
const listOrder = (status: 'UPCOMING' | 'PAST') =>
  [status === 'UPCOMING' ? asc(events.startsAt) : desc(events.startsAt), asc(userTickets.id)] as const;
const headsStatement = (status: 'UPCOMING' | 'PAST') =>
  preparedStatement((db) =>
    db
      .select({ id: userTickets.id, version: rowVersion })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(listWhere(status))
      .orderBy(...listOrder(status))
      .prepare(`tickets_list_heads_${status.toLowerCase()}`),
  );
const rowsStatement = (status: 'UPCOMING' | 'PAST') =>
  preparedStatement((db) =>
    db
      .select({ ...ticketColumns, version: rowVersion })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(listWhere(status))
      .orderBy(...listOrder(status))
      .prepare(`tickets_list_rows_${status.toLowerCase()}`),
  );
const listStatements = {
  heads: { UPCOMING: headsStatement('UPCOMING'), PAST: headsStatement('PAST') },
  rows: { UPCOMING: rowsStatement('UPCOMING'), PAST: rowsStatement('PAST') },
};
const listParams = (holder: Holder, now: Date) => ({
  holderId: holder.userId,
  organisationId: holder.organisationId ?? 0,
  now,
});

export const ticketsRepository = {
  /**
   * Live (not revoked) tickets `holder` holds (in its organisation, when it names one), with their versions:
   * UPCOMING = event not ended (soonest first), PAST = ended (latest first).
   * @param now the request's clock (UTC)
   */
  async listByHolder(db: DbOrTx, holder: Holder, status: 'UPCOMING' | 'PAST', now: Date): Promise<TicketHead[]> {
    return listStatements.heads[status](db).execute(listParams(holder, now));
  },
  /** `listByHolder`'s tickets as whole rows, each with its version, in the same order. */
  async listRowsByHolder(
    db: DbOrTx,
    holder: Holder,
    status: 'UPCOMING' | 'PAST',
    now: Date,
  ): Promise<(TicketRow & { version: string })[]> {
    const rows = await listStatements.rows[status](db).execute(listParams(holder, now));
    return rows.map(withBenefitDates);
  },
  /** The ticket and its version if `holder` holds it (in its organisation, when it names one) and it is not revoked. */
  async oneByHolder(db: DbOrTx, holder: Holder, userTicketId: number): Promise<TicketHead | undefined> {
    const [head] = await db
      .select({ id: userTickets.id, version: rowVersion })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(and(heldBy(holder), eq(userTickets.id, userTicketId), isNull(userTickets.revokedAt)));
    return head;
  },
  /**
   * The listing rows of the given tickets, each with its version, of those `holder` still holds (in its organisation,
   * when it names one) and not revoked: a ticket that moved since its head was read is left out. Any order.
   */
  async rowsByIds(db: DbOrTx, holder: Holder, ids: number[]): Promise<(TicketRow & { version: string })[]> {
    const rows = await db
      .select({ ...ticketColumns, version: rowVersion })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      // One array parameter, so that the text is the same for any number of tickets (one kept statement, decision 035).
      .where(
        and(heldBy(holder), sql`${userTickets.id} = any(${sql.param(ids)}::int[])`, isNull(userTickets.revokedAt)),
      );
    return rows.map(withBenefitDates);
  },
};
