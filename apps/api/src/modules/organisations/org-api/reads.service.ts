/**
 * The organisation API's reads (issue 21): events, ticket types and tickets paged by cursor, one event, and one
 * ticket with its history built from the records the flows keep (ticket history, resale listings, check-in log).
 * Cursors are opaque base64url JSON of the last row's sort key (keyset paging: a page never shifts when rows are
 * added before it). The tickets' reads are ticket-reads.ts.
 */
import type { organisations as contract } from '@tp/contract';
import type * as z from 'zod';
import { decodeCursor, idCursor, paged } from '../../../lib/cursor.js';
import { orgApiRepository } from '../org-api.repository.js';
import { orgReadsRepository as repo, type EventRow } from '../org-reads.repository.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import { eventOf, type OrgApiDeps } from './deps.js';
import { createOrgTicketReads } from './ticket-reads.js';
import { refundPolicyOf } from '../../../lib/refund-policy.js';

type EventItem = z.infer<typeof contract.eventItem>;

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
    cancelledAt: e.cancelledAt?.toISOString() ?? null,
    cancelReason: e.cancelledAt ? e.cancelReason : null,
    refundPolicy: refundPolicyOf(e),
  };
}

/** The reads part of the organisation API: events and ticket types here, tickets in ticket-reads.ts. */
export function createOrgReadsService(deps: Pick<OrgApiDeps, 'database' | 'now'>) {
  const db = deps.database.db;

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

    ...createOrgTicketReads(deps),
  };
}
