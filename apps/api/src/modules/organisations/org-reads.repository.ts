/**
 * SQL of the organisation API's reads (issue 21): events, ticket types and tickets of one organisation, paged by
 * keyset (the cursor is the last row's sort key, never an offset), and the records a ticket's history is built
 * from (`ticket_history`, resale listings; its check-ins are the doors module's check-in log). Every query filters on
 * the caller's organisation.
 */
import { and, asc, desc, eq, gt, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { ticketIsListed } from '../../db/predicates.js';
import {
  events,
  resaleListings,
  resaleListingTickets,
  ticketHistory,
  ticketTypes,
  userTickets,
  users,
} from '../../db/schema.js';

export type EventRow = typeof events.$inferSelect;

/** A ticket's status as SQL, first that applies (contract `ticketStatus`). */
const ticketStatusSql = sql<string>`case
  when ${userTickets.revokedReason} is not null then 'refunded'
  when ${userTickets.revokedAt} is not null then 'revoked'
  when ${userTickets.eventAccessUsedAt} is not null then 'checked_in'
  when ${ticketIsListed(userTickets.id)} then 'listed'
  when exists (select 1 from ${resaleListingTickets} where ${resaleListingTickets.userTicketId} = ${userTickets.id} and ${resaleListingTickets.status} = 'SOLD') then 'resold'
  when exists (select 1 from ${ticketHistory} where ${ticketHistory.userTicketId} = ${userTickets.id} and ${ticketHistory.kind} = 'GIFT') then 'transferred'
  else 'issued' end`;

/** `text` as a LIKE pattern matching itself literally, then anything (`\`, `%` and `_` escaped). */
export const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A ticket row of the reads. */
export interface TicketReadRow {
  id: number;
  externalId: string | null;
  ticketTypeExternalId: string | null;
  eventExternalId: string | null;
  status: string;
  holderEmail: string | null;
  holderGivenName: string | null;
  holderFamilyName: string | null;
  holderDeletedAt: Date | null;
  /** How the last mail to the holder went (`users.email_status`), and the relay's answer of a failure. */
  holderEmailStatus: string | null;
  holderEmailStatusDetail: string | null;
  createdAt: Date;
  checkedInAt: Date | null;
  revokedAt: Date | null;
  /** When the ticket's event was cancelled (issue 46), null while it is not. */
  eventCancelledAt: Date | null;
}

const fromUser = alias(users, 'from_user');
const toUser = alias(users, 'to_user');

export const orgReadsRepository = {
  /**
   * A page of the organisation's events: `upcoming` (not ended at `now`) by start then id, `past` (ended) latest
   * first; `after` is the last row's key of the previous page. One row more than `limit` says there is a next page.
   */
  async events(
    db: DbOrTx,
    p: { organisationId: number; when: 'upcoming' | 'past'; now: Date; limit: number; after?: { s: Date; i: number } },
  ): Promise<EventRow[]> {
    const upcoming = p.when === 'upcoming';
    const keyset = p.after
      ? upcoming
        ? or(gt(events.startsAt, p.after.s), and(eq(events.startsAt, p.after.s), gt(events.id, p.after.i)))
        : or(lt(events.startsAt, p.after.s), and(eq(events.startsAt, p.after.s), lt(events.id, p.after.i)))
      : undefined;
    return db
      .select()
      .from(events)
      .where(
        and(
          eq(events.organisationId, p.organisationId),
          upcoming ? gt(events.endsAt, p.now) : sql`${events.endsAt} <= ${p.now}`,
          keyset,
        ),
      )
      .orderBy(...(upcoming ? [asc(events.startsAt), asc(events.id)] : [desc(events.startsAt), desc(events.id)]))
      .limit(p.limit + 1);
  },

  /** A page of an event's ticket types by id. */
  async ticketTypes(db: DbOrTx, p: { eventId: number; limit: number; afterId?: number }) {
    return db
      .select({
        id: ticketTypes.id,
        externalId: ticketTypes.externalId,
        eventExternalId: events.externalId,
        name: ticketTypes.name,
        description: ticketTypes.description,
        priceCents: ticketTypes.priceCents,
        currency: ticketTypes.currencyCode,
        resaleCapCents: ticketTypes.maxResalePriceCents,
        isGiftable: ticketTypes.isGiftable,
        isResellable: ticketTypes.isResellable,
        isSwappable: ticketTypes.isSwappable,
        stock: ticketTypes.stock,
        entryRules: ticketTypes.entryRules,
      })
      .from(ticketTypes)
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(and(eq(ticketTypes.eventId, p.eventId), p.afterId ? gt(ticketTypes.id, p.afterId) : undefined))
      .orderBy(asc(ticketTypes.id))
      .limit(p.limit + 1);
  },

  /**
   * A page of the organisation's tickets by id, with their current holder and status. `search` (already a LIKE
   * pattern, see `likePrefix`) matches the start of the holder's e-mail, given or family name or full name
   * (lower-cased) or of the ticket's externalId, or `number` is the ticket's id (the number its holder reads);
   * every value is a bound parameter.
   */
  async tickets(
    db: DbOrTx,
    p: {
      organisationId: number;
      eventId?: number;
      status?: string;
      search?: { lower: string; exact: string; number?: number };
      limit: number;
      afterId?: number;
      externalId?: string;
    },
  ): Promise<TicketReadRow[]> {
    const search: SQL | undefined = p.search
      ? or(
          sql`${users.email} like ${p.search.lower} escape '\\'`,
          sql`lower(${users.givenName}) like ${p.search.lower} escape '\\'`,
          sql`lower(${users.familyName}) like ${p.search.lower} escape '\\'`,
          sql`lower(concat_ws(' ', ${users.givenName}, ${users.familyName})) like ${p.search.lower} escape '\\'`,
          sql`${userTickets.externalId} like ${p.search.exact} escape '\\'`,
          p.search.number !== undefined ? eq(userTickets.id, p.search.number) : undefined,
        )
      : undefined;
    return db
      .select({
        id: userTickets.id,
        externalId: userTickets.externalId,
        ticketTypeExternalId: ticketTypes.externalId,
        eventExternalId: events.externalId,
        status: ticketStatusSql,
        holderEmail: users.email,
        holderGivenName: users.givenName,
        holderFamilyName: users.familyName,
        holderDeletedAt: users.deletedAt,
        holderEmailStatus: users.emailStatus,
        holderEmailStatusDetail: users.emailStatusDetail,
        createdAt: userTickets.createdAt,
        checkedInAt: userTickets.eventAccessUsedAt,
        revokedAt: userTickets.revokedAt,
        eventCancelledAt: events.cancelledAt,
      })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .leftJoin(users, eq(users.id, userTickets.holderId))
      .where(
        and(
          eq(userTickets.organisationId, p.organisationId),
          p.eventId !== undefined ? eq(ticketTypes.eventId, p.eventId) : undefined,
          p.externalId !== undefined ? eq(userTickets.externalId, p.externalId) : undefined,
          p.status ? sql`(${ticketStatusSql}) = ${p.status}` : undefined,
          search,
          p.afterId ? gt(userTickets.id, p.afterId) : undefined,
        ),
      )
      .orderBy(asc(userTickets.id))
      .limit(p.limit + 1);
  },

  /** A ticket's ownership records (`ticket_history`), oldest first, with both people. */
  async historyOf(db: DbOrTx, userTicketId: number) {
    return db
      .select({
        kind: ticketHistory.kind,
        at: ticketHistory.at,
        fromEmail: fromUser.email,
        fromGivenName: fromUser.givenName,
        fromFamilyName: fromUser.familyName,
        fromDeletedAt: fromUser.deletedAt,
        toEmail: toUser.email,
        toGivenName: toUser.givenName,
        toFamilyName: toUser.familyName,
        toDeletedAt: toUser.deletedAt,
      })
      .from(ticketHistory)
      .leftJoin(fromUser, eq(fromUser.id, ticketHistory.fromUserId))
      .leftJoin(toUser, eq(toUser.id, ticketHistory.toUserId))
      .where(eq(ticketHistory.userTicketId, userTicketId))
      .orderBy(asc(ticketHistory.at), asc(ticketHistory.id));
  },

  /** When the ticket was put on resale (every listing it was in), with the seller. */
  async listingsOf(db: DbOrTx, userTicketId: number) {
    return db
      .select({
        at: resaleListings.listedAt,
        sellerEmail: users.email,
        sellerGivenName: users.givenName,
        sellerFamilyName: users.familyName,
        sellerDeletedAt: users.deletedAt,
      })
      .from(resaleListingTickets)
      .innerJoin(resaleListings, eq(resaleListings.id, resaleListingTickets.listingId))
      .innerJoin(users, eq(users.id, resaleListings.sellerId))
      .where(eq(resaleListingTickets.userTicketId, userTicketId));
  },
};
