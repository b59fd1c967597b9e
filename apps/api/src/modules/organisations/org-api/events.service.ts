/**
 * The organisation API's events (issue 12): PUT /org/events/{externalId} and the event's attendance. A change of
 * an event's time or place tells its holders (issue 23).
 */
import type { organisations as contract } from '@tp/contract';
import type * as z from 'zod';
import type { DbOrTx } from '../../../db/client.js';
import type { events } from '../../../db/schema.js';
import { AppError } from '../../../lib/app-error.js';
import { orgApiRepository as repo } from '../org-api.repository.js';
import type { RequestOrganisation } from '../org-auth.js';
import { changed, eventOf, type OrgApiDeps, type UpsertStatus } from './deps.js';
import { pickLang } from '../../../lib/lang.js';
import { panelLink } from '../../../providers/mail/brand.js';
import { enqueueMails } from '../../../providers/mail/mail-jobs.js';

/** The fields whose change holders are told about: when and where the event is. */
const TIME_AND_PLACE = [
  'startsAt',
  'endsAt',
  'timeZone',
  'venue',
  'address1',
  'city',
  'country',
  'latitude',
  'longitude',
] as const;

type EventInput = z.infer<typeof contract.eventUpsertRequest>;

/** The events part of the organisation API: upsert by externalId, attendance. */
export function createOrgEventsService(deps: Pick<OrgApiDeps, 'database' | 'config' | 'now'>) {
  const db = deps.database.db;

  /**
   * Enqueues, in the change's transaction `tx` (decision 030), the "event changed" e-mail to every holder of a live
   * ticket of the event (issue 23), each in their
   * language under the organisation's brand, with the new facts and an updated `.ics` (same UID; SEQUENCE is the
   * change's Unix time in seconds, so it grows with every change). Nothing for an event that has ended.
   */
  async function enqueueHolderMails(tx: DbOrTx, eventId: number, at: Date): Promise<void> {
    const rows = await repo.heldTicketsOfEvent(tx, eventId);
    if (rows.length === 0 || rows[0].event.endsAt <= at) return;
    await enqueueMails(
      tx,
      at,
      rows.map((r) => {
        const lang = pickLang(r.locale);
        return {
          template: 'eventChanged' as const,
          to: r.email,
          locale: lang,
          org: r.organisation,
          params: {
            ticket: { event: r.event, ticketName: r.ticketName, calendarId: `ticket-${r.userTicketId}` },
            link: panelLink(deps.config.publicUrl, lang, r.organisation.slug, { PANEL_TAB: 'MY_TICKET' }),
            at,
            sequence: Math.floor(at.getTime() / 1000),
          },
        };
      }),
    );
  }

  return {
    /**
     * PUT /org/events/{externalId}. When the start, end, time zone or place changed, the holders' e-mails are
     * mail jobs of the same transaction (`enqueueHolderMails`).
     * @returns what it did; `created` when the externalId was new to the organisation.
     */
    async upsertEvent(org: RequestOrganisation, externalId: string, input: EventInput): Promise<UpsertStatus> {
      const at = deps.now();
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
      const outcome = await db.transaction(async (tx) => {
        for (let attempt = 0; attempt < 2; attempt++) {
          const current = await repo.eventByExternalId(tx, org.id, externalId, true);
          if (!current) {
            if (await repo.insertEvent(tx, { ...values, organisationId: org.id, externalId }))
              return { status: 'created' as const };
            continue; // created concurrently: update it instead
          }
          const diff = changed(current, values);
          if (Object.keys(diff).length === 0) return { status: 'unchanged' as const };
          await repo.updateEvent(tx, current.id, diff);
          if (TIME_AND_PLACE.some((k) => k in diff)) await enqueueHolderMails(tx, current.id, at);
          return { status: 'updated' as const };
        }
        throw new AppError('api.service_unavailable');
      });
      return outcome.status;
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
