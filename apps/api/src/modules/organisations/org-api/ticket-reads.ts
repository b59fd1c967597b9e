/**
 * The organisation API's ticket reads (issue 21): tickets paged by cursor and searched, the attendees CSV of an
 * event, and one ticket with its history built from the records the flows keep (ticket history, resale listings,
 * check-in log). Events and ticket types are reads.service.ts.
 */
import { organisations as contract } from '@tp/contract';
import type * as z from 'zod';
import { AppError } from '../../../lib/app-error.js';
import { idCursor, paged } from '../../../lib/cursor.js';
import { likePrefix, orgReadsRepository as repo, type TicketReadRow } from '../org-reads.repository.js';
import { checkInLogRepository } from '../../doors/check-in-log.repository.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import type { Lang } from '../../../lib/lang.js';
import { ATTENDEE_STATUS, ATTENDEES_BATCH, attendeesCsv, type AttendeeRecord } from './attendees-csv.js';
import { eventOf, type OrgApiDeps } from './deps.js';

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

const HISTORY_KIND: Record<string, HistoryEntry['kind']> = {
  ISSUE: 'issued',
  REISSUE: 'reissued',
  GIFT: 'transferred',
  RESALE_SOLD: 'resold',
  RESALE_REDEEMED: 'redeemed',
  EXCHANGE_SOLD: 'resold',
  SWAP: 'swapped',
  REVOKE: 'revoked',
  PAYMENT_REVERSED: 'payment_reversed',
  PAYMENT_REINSTATED: 'reinstated',
  SALE_REFUNDED: 'returned_to_seller',
};

/**
 * The ticket number a search names, as the holder reads it ("Ticket #13": `13` or `#13`), when it fits a ticket
 * id (1 to 2,147,483,647); else undefined.
 */
const ticketNumberOf = (search: string): number | undefined => {
  const digits = /^#?\s*(\d{1,10})$/.exec(search.trim())?.[1];
  const n = Number(digits);
  return digits && n >= 1 && n <= 2_147_483_647 ? n : undefined;
};
/** A ticket as read back (times ISO 8601 UTC), with its current holder. */
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

/** The ticket reads of the organisation API: `listTickets`, `attendeesCsv`, `getTicket`. */
export function createOrgTicketReads(deps: Pick<OrgApiDeps, 'database'>) {
  const db = deps.database.db;

  return {
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
        await checkInLogRepository.admissionsOf(db, row.id),
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
      return { ...ticketItemOf(row), history, eventCancelled: row.eventCancelledAt !== null };
    },
  };
}
