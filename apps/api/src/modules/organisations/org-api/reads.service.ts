/**
 * The organisation API's reads (issue 21): events, ticket types and tickets paged by cursor, one event, and one
 * ticket with its history built from the records the flows keep (ticket history, resale listings, check-in log).
 * Cursors are opaque base64url JSON of the last row's sort key (keyset paging: a page never shifts when rows are
 * added before it).
 */
import { organisations as contract } from '@tp/contract';
import type * as z from 'zod';
import { AppError } from '../../../lib/app-error.js';
import { decodeCursor, idCursor, paged } from '../../../lib/cursor.js';
import { orgApiRepository } from '../org-api.repository.js';
import { likePrefix, orgReadsRepository as repo, type EventRow, type TicketReadRow } from '../org-reads.repository.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import type { Lang } from '../../../lib/lang.js';
import { ATTENDEE_STATUS, ATTENDEES_BATCH, attendeesCsv, type AttendeeRecord } from './attendees-csv.js';
import { eventOf, type OrgApiDeps } from './deps.js';

type EventItem = z.infer<typeof contract.eventItem>;
type TicketItem = z.infer<typeof contract.ticketItem>;
type HistoryEntry = z.infer<typeof contract.ticketHistoryEntry>;
type Person = { email: string; name: string | null } | null;

const personOf = (email: string | null, given: string | null, family: string | null, deletedAt: Date | null): Person =>
  email === null || deletedAt !== null
    ? null
    : { email, name: [given, family].filter((s) => s && s.trim()).join(' ') || null };

/** A ticket's current holder with how mail to them goes (issue 41 point 6); null as `personOf`. */
const holderOf = (r: TicketReadRow): TicketItem['holder'] => {
  const person = personOf(r.holderEmail, r.holderGivenName, r.holderFamilyName, r.holderDeletedAt);
  if (!person) return null;
  const status = contract.emailStatus.safeParse(r.holderEmailStatus);
  return {
    ...person,
    emailStatus: status.success ? status.data : null,
    emailStatusDetail: status.success && status.data !== 'delivered' ? r.holderEmailStatusDetail : null,
  };
};

/** An event as read back (times ISO 8601 UTC). */
export function eventItemOf(e: EventRow): EventItem {
  return {
    externalId: e.externalId,
    name: e.name,
    venue: e.venue,
    city: e.city,
    country: e.country,
    startsAt: e.startsAt.toISOString(),
    endsAt: e.endsAt.toISOString(),
    timeZone: e.timeZone,
    address: e.address1,
    latitude: e.latitude,
    longitude: e.longitude,
    description: e.description,
    imageUrl: e.image,
    logoUrl: e.logo,
    passRevealAt: e.passRevealAt?.toISOString() ?? null,
    transfersCloseAt: e.transfersCloseAt?.toISOString() ?? null,
  };
}

const HISTORY_KIND: Record<string, HistoryEntry['kind']> = {
  ISSUE: 'issued',
  REISSUE: 'reissued',
  GIFT: 'transferred',
  RESALE_SOLD: 'resold',
  RESALE_REDEEMED: 'redeemed',
  SWAP: 'swapped',
  REVOKE: 'revoked',
};

/** The reads part of the organisation API. */
// Over 150 lines: the organiser API's reads (events, types, tickets, attendance) on one repository; not yet split
// (issue 43).
export function createOrgReadsService(deps: Pick<OrgApiDeps, 'database' | 'now'>) {
  const db = deps.database.db;

  /**
   * The ticket number a search names, as the holder reads it ("Ticket #13": `13` or `#13`), when it fits a ticket
   * id (1 to 2,147,483,647); else undefined.
   */
  const ticketNumberOf = (search: string): number | undefined => {
    const digits = /^#?\s*(\d{1,10})$/.exec(search.trim())?.[1];
    const n = Number(digits);
    return digits && n >= 1 && n <= 2_147_483_647 ? n : undefined;
  };
  const ticketItemOf = (r: Awaited<ReturnType<typeof repo.tickets>>[number]): TicketItem => ({
    externalId: r.externalId,
    number: r.id,
    ticketTypeExternalId: r.ticketTypeExternalId,
    eventExternalId: r.eventExternalId,
    status: r.status as TicketItem['status'],
    holder: holderOf(r),
    createdAt: r.createdAt.toISOString(),
    checkedInAt: r.checkedInAt?.toISOString() ?? null,
    revokedAt: r.revokedAt?.toISOString() ?? null,
  });

  return {
    /**
     * GET /org/events: `upcoming` (not ended; soonest first) or `past` (ended; latest first), paged.
     * @throws AppError `api.org.invalid_cursor` (400).
     */
    async listEvents(org: RequestOrganisation, q: z.infer<typeof contract.eventListQuery>) {
      const after =
        q.cursor === undefined
          ? undefined
          : decodeCursor(q.cursor, (v) => {
              const s = typeof v.s === 'string' ? new Date(v.s) : null;
              return s && !Number.isNaN(s.getTime()) && Number.isSafeInteger(v.i) ? { s, i: v.i as number } : undefined;
            });
      const rows = await repo.events(db, {
        organisationId: org.id,
        when: q.when,
        now: deps.now(),
        limit: q.limit,
        after,
      });
      return paged(rows, q.limit, (e) => ({ s: e.startsAt.toISOString(), i: e.id }), eventItemOf);
    },

    /**
     * GET /org/events/{externalId}.
     * @throws AppError `api.org.event_not_found` (404; another organisation's event too).
     */
    async getEvent(org: RequestOrganisation, externalId: string): Promise<EventItem> {
      return eventItemOf(await eventOf(db, org, externalId));
    },

    /**
     * GET /org/ticket-types?event=: the event's ticket types by creation, paged.
     * @throws AppError `api.org.event_not_found` (404), `api.org.invalid_cursor` (400).
     */
    async listTicketTypes(org: RequestOrganisation, q: z.infer<typeof contract.ticketTypeListQuery>) {
      const afterId = idCursor(q.cursor);
      const event = await eventOf(db, org, q.event);
      const rows = await repo.ticketTypes(db, { eventId: event.id, limit: q.limit, afterId });
      const targets = await orgApiRepository.swapTargetsOf(
        db,
        rows.map((r) => r.id),
      );
      return paged(
        rows,
        q.limit,
        (r) => ({ i: r.id }),
        ({ id, ...item }) => ({
          ...item,
          swapTargets: targets.filter((x) => x.fromTypeId === id).map(({ fromTypeId: _f, ...x }) => x),
        }),
      );
    },

    /**
     * GET /org/tickets?event=&status=&search=: the organisation's tickets by creation, with the current holder;
     * `search` matches the start of the holder's e-mail or name (case-insensitive) or of the ticket's externalId,
     * or is the number the holder reads (`13`, `#13`: "Ticket #13" in the panel, its id; issue 41, point 4).
     * @throws AppError `api.org.event_not_found` (404), `api.org.invalid_cursor` (400).
     */
    async listTickets(org: RequestOrganisation, q: z.infer<typeof contract.ticketListQuery>) {
      const afterId = idCursor(q.cursor);
      const eventId = q.event === undefined ? undefined : (await eventOf(db, org, q.event)).id;
      const search = q.search
        ? { lower: likePrefix(q.search.toLowerCase()), exact: likePrefix(q.search), number: ticketNumberOf(q.search) }
        : undefined;
      const rows = await repo.tickets(db, {
        organisationId: org.id,
        eventId,
        status: q.status,
        search,
        limit: q.limit,
        afterId,
      });
      return paged(rows, q.limit, (r) => ({ i: r.id }), ticketItemOf);
    },

    /**
     * GET /org/events/{externalId}/attendees.csv: every ticket of the event (revoked ones too, with their status)
     * and its current holder, as a CSV stream read page by page (see attendees-csv.ts); times ISO 8601 UTC.
     * @throws AppError `api.org.event_not_found` (404), before anything is streamed.
     */
    async attendeesCsv(org: RequestOrganisation, externalId: string, lang: Lang) {
      const event = await eventOf(db, org, externalId);
      async function* records(): AsyncGenerator<AttendeeRecord> {
        let afterId: number | undefined;
        for (;;) {
          const rows = await repo.tickets(db, {
            organisationId: org.id,
            eventId: event.id,
            limit: ATTENDEES_BATCH,
            afterId,
          });
          for (const r of rows.slice(0, ATTENDEES_BATCH)) {
            const holder = personOf(r.holderEmail, r.holderGivenName, r.holderFamilyName, r.holderDeletedAt);
            yield {
              ticket: r.externalId ?? '',
              ticketType: r.ticketTypeExternalId ?? '',
              status: ATTENDEE_STATUS[r.status as contract.TicketStatus][lang],
              email: holder?.email ?? '',
              name: holder?.name ?? '',
              checkedInAt: r.checkedInAt?.toISOString() ?? '',
              revokedAt: r.revokedAt?.toISOString() ?? '',
            };
          }
          if (rows.length <= ATTENDEES_BATCH) return;
          afterId = rows[ATTENDEES_BATCH - 1].id;
        }
      }
      return { stream: attendeesCsv(records(), lang), fileName: `attendees-${externalId}.csv` };
    },

    /**
     * GET /org/tickets/{externalId}: the ticket, its current holder and its history, oldest first (issued,
     * re-issued, transferred from → to, listed, resold, redeemed, swapped, checked in with the door key's name,
     * online or offline and the scan time, revoked).
     * @throws AppError `api.org.ticket_not_found` (404; another organisation's ticket too).
     */
    async getTicket(org: RequestOrganisation, externalId: string) {
      const [row] = await repo.tickets(db, { organisationId: org.id, externalId, limit: 1 });
      if (!row) throw new AppError('api.org.ticket_not_found');
      const [moves, listings, admissions] = [
        await repo.historyOf(db, row.id),
        await repo.listingsOf(db, row.id),
        await repo.admissionsOf(db, row.id),
      ];
      const history: HistoryEntry[] = [
        ...moves.map((m) => {
          const kind = HISTORY_KIND[m.kind] ?? 'transferred';
          const from = personOf(m.fromEmail, m.fromGivenName, m.fromFamilyName, m.fromDeletedAt);
          const to = personOf(m.toEmail, m.toGivenName, m.toFamilyName, m.toDeletedAt);
          return {
            kind,
            at: m.at.toISOString(),
            ...(kind === 'issued' || kind === 'reissued' || kind === 'redeemed' ? { to } : {}),
            ...(kind === 'resold' || kind === 'revoked' || kind === 'swapped' ? { from } : {}),
            ...(kind === 'transferred' ? { from, to } : {}),
          };
        }),
        ...listings.map((l) => ({
          kind: 'listed' as const,
          at: l.at.toISOString(),
          from: personOf(l.sellerEmail, l.sellerGivenName, l.sellerFamilyName, l.sellerDeletedAt),
        })),
        ...admissions.map((a) => ({
          kind: 'checked_in' as const,
          at: a.at.toISOString(),
          doorKey: a.doorKey,
          offline: a.offline,
        })),
      ].sort((a, b) => a.at.localeCompare(b.at));
      return { ...ticketItemOf(row), history };
    },
  };
}
