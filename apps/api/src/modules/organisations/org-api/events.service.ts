/**
 * The organisation API's events (issue 12): PUT /org/events/{externalId} and the event's attendance.
 */
import type { organisations as contract } from '@tp/contract';
import type * as z from 'zod';
import type { events } from '../../../db/schema.js';
import { AppError } from '../../../lib/app-error.js';
import { orgApiRepository as repo } from '../org-api.repository.js';
import type { RequestOrganisation } from '../org-auth.js';
import { changed, eventOf, type OrgApiDeps, type UpsertStatus } from './deps.js';

type EventInput = z.infer<typeof contract.eventUpsertRequest>;

/** The events part of the organisation API: upsert by externalId, attendance. */
export function createOrgEventsService(deps: Pick<OrgApiDeps, 'database'>) {
  const db = deps.database.db;
  return {
    /**
     * PUT /org/events/{externalId}.
     * @returns what it did; `created` when the externalId was new to the organisation.
     */
    async upsertEvent(org: RequestOrganisation, externalId: string, input: EventInput): Promise<UpsertStatus> {
      const values = {
        name: input.name,
        venue: input.venue,
        city: input.city,
        country: input.country,
        startsAt: new Date(input.startsAt),
        endsAt: new Date(input.endsAt),
        timeZone: input.timeZone,
        address1: input.address ?? '',
        latitude: input.latitude ?? null,
        longitude: input.longitude ?? null,
        description: input.description ?? null,
        image: input.imageUrl ?? null,
        logo: input.logoUrl ?? null,
        passRevealAt: input.passRevealAt ? new Date(input.passRevealAt) : null,
        transfersCloseAt: input.transfersCloseAt ? new Date(input.transfersCloseAt) : null,
      } satisfies Partial<typeof events.$inferInsert>;
      return db.transaction(async (tx) => {
        for (let attempt = 0; attempt < 2; attempt++) {
          const current = await repo.eventByExternalId(tx, org.id, externalId, true);
          if (!current) {
            if (await repo.insertEvent(tx, { ...values, organisationId: org.id, externalId })) return 'created';
            continue; // created concurrently: update it instead
          }
          const diff = changed(current, values);
          if (Object.keys(diff).length === 0) return 'unchanged';
          await repo.updateEvent(tx, current.id, diff);
          return 'updated';
        }
        throw new AppError('api.service_unavailable');
      });
    },

    /**
     * GET /org/events/{externalId}/attendance over the event's live tickets: issued, checked in (access used),
     * listed for resale now, resold (sold through a resale listing at least once).
     * @throws AppError `api.org.event_not_found` (404).
     */
    async attendance(org: RequestOrganisation, externalId: string) {
      const event = await eventOf(db, org, externalId);
      return repo.attendance(db, event.id);
    },
  };
}
