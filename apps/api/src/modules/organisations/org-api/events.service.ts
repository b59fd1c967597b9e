/**
 * The organisation API's events (issue 12): PUT /org/events/{externalId}, the event's attendance and check-ins. A change of
 * an event's time or place tells its holders (issue 23).
 */
import { organisations as contract, type access } from '@tp/contract';
import type * as z from 'zod';
import type { DbOrTx } from '../../../db/client.js';
import type { events } from '../../../db/schema.js';
import { AppError } from '../../../lib/app-error.js';
import { orgApiRepository as repo } from '../org-api.repository.js';
import { organisationsRepository } from '../organisations.repository.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import { changed, eventOf, type OrgApiDeps, type UpsertStatus } from './deps.js';
import { appendAudit } from '../../audit/audit.repository.js';
import { holderMail } from '../../../providers/mail/brand.js';
import { ticketHoldersRepository } from '../../../providers/mail/ticket-holders.repository.js';
import { enqueueMails, type EventChanges } from '../../../providers/mail/mail-jobs.js';
import { enqueueEventTimesChanged } from '../../../providers/jobs/event-changed-jobs.js';
import { enqueueTicketMovedJobs } from '../../../providers/jobs/ticket-moved-jobs.js';

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
type EventRow = typeof events.$inferSelect;

/** Where an event is on the map, or null without coordinates. */
const positionOf = (e: Pick<EventRow, 'latitude' | 'longitude'>) =>
  e.latitude !== null && e.longitude !== null ? { latitude: e.latitude, longitude: e.longitude } : null;

/**
 * The time and place fields that differ between the event as it was (`before`) and as it is now (`after`), each
 * with its old and its new value (the "event changed" mail's list, issue 46); the coordinates as one `position`.
 */
function timeAndPlaceChanges(before: EventRow, after: EventRow): EventChanges {
  const diff = changed(before, after);
  const pick = <K extends Exclude<(typeof TIME_AND_PLACE)[number], 'latitude' | 'longitude'>>(k: K) =>
    k in diff ? { [k]: { from: before[k], to: after[k] } } : {};
  return {
    ...pick('startsAt'),
    ...pick('endsAt'),
    ...pick('timeZone'),
    ...pick('venue'),
    ...pick('address1'),
    ...pick('city'),
    ...pick('country'),
    ...('latitude' in diff || 'longitude' in diff
      ? { position: { from: positionOf(before), to: positionOf(after) } }
      : {}),
  };
}

/**
 * Whether moving the event from `before` to `after` is a new date (issue 46, decision 047): its start or its end moved
 * by more than `thresholdMinutes` (the organisation's `reschedule_threshold_minutes`; 0: any move).
 */
function isNewDate(
  before: Pick<EventRow, 'startsAt' | 'endsAt'>,
  after: Pick<EventRow, 'startsAt' | 'endsAt'>,
  thresholdMinutes: number,
): boolean {
  const moved = Math.max(
    Math.abs(after.startsAt.getTime() - before.startsAt.getTime()),
    Math.abs(after.endsAt.getTime() - before.endsAt.getTime()),
  );
  return moved > thresholdMinutes * 60_000;
}

/**
 * Until when a holder may ask for a refund after the event moved to a new date at `at`: its refund policy's deadline
 * when the policy is `on_reschedule` and the deadline is still ahead, else null (decision 047).
 */
const refundOnNewDate = (event: EventRow, at: Date): Date | null =>
  event.refundPolicy === 'on_reschedule' && event.refundDeadline && event.refundDeadline > at
    ? event.refundDeadline
    : null;

/** Tickets per pair of wallet update jobs after a new date (as the cancel run's batches). */
const NEW_DATE_WALLET_BATCH = 500;

const { CHECK_IN_BUCKET_SECONDS, CHECK_IN_CONFLICTS_MAX } = contract;

/** How long before an event's start its check-in chart begins (doors may open early), in seconds. */
const DOORS_OPEN_BEFORE_START_SECONDS = 6 * 3600;

/**
 * Enqueues (links under `publicUrl`), in the change's transaction `tx` (decision 030), the "event changed" e-mail to every holder of a live
 * ticket of the event (issue 23), each in their language under the organisation's brand, with what changed (old and
 * new values, issue 46), the new facts and an updated `.ics` (same UID; SEQUENCE is the change's Unix time in
 * seconds, so it grows with every change); for a new date, `newDate` (the mail says so, and until when a refund
 * may be asked for). Nothing for an event that has ended.
 */
async function enqueueHolderMails(
  publicUrl: string,
  tx: DbOrTx,
  eventId: number,
  at: Date,
  changes: EventChanges,
  newDate?: { refundUntil: Date | null },
): Promise<void> {
  const rows = await ticketHoldersRepository.ofEvent(tx, eventId);
  if (rows.length === 0 || rows[0].event.endsAt <= at) return;
  await enqueueMails(
    tx,
    at,
    rows.map((r) => {
      const { ticket, link, ...mail } = holderMail(r, publicUrl, 'MY_TICKET');
      const sequence = Math.floor(at.getTime() / 1000);
      return {
        template: 'eventChanged' as const,
        ...mail,
        params: { ticket, link, at, sequence, changes, ...(newDate ? { newDate } : {}) },
      };
    }),
  );
}

/** The organisation's reschedule threshold, in minutes (issue 46); it exists, its event references it. */
async function thresholdOf(tx: DbOrTx, organisationId: number): Promise<number> {
  const row = await organisationsRepository.organisationById(tx, organisationId);
  return row!.rescheduleThresholdMinutes;
}

/**
 * What follows a new date, whether or not the holders are told (issue 46, decision 047), in the change's
 * transaction `tx`: the wallet passes of the event's live tickets are updated (the Apple and Google update jobs, one
 * pair per {@link NEW_DATE_WALLET_BATCH} tickets: Apple's pass is built from the event when fetched, so a push is
 * all it needs; Google's object and class are written with the new times), and the event's sent reminders are
 * forgotten, so each ticket is reminded again before its new start.
 */
async function followNewDate(tx: DbOrTx, eventId: number): Promise<void> {
  const tickets = await repo.ticketsWithPasses(tx, eventId);
  for (let i = 0; i < tickets.length; i += NEW_DATE_WALLET_BATCH)
    await enqueueTicketMovedJobs(tx, tickets.slice(i, i + NEW_DATE_WALLET_BATCH));
  await repo.forgetReminders(tx, eventId);
}

/** The event row's columns an upsert writes, from the request (times as Dates; absent optional fields null). */
function eventValues(input: EventInput) {
  return {
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
}

/** The events part of the organisation API: upsert by externalId, attendance. */
export function createOrgEventsService(deps: Pick<OrgApiDeps, 'database' | 'config' | 'now'>) {
  const db = deps.database.db;

  return {
    /**
     * PUT /org/events/{externalId}. When the start, end, time zone or place changed and `notify` (default true), the
     * holders' e-mails are mail jobs of the same transaction (`enqueueHolderMails`); with `notify` false nobody is
     * told (issue 46). A move of the start or end by more than the organisation's threshold is a new date
     * (`isNewDate`): `rescheduled_at` is set to now in the same update and the wallet passes and reminders follow
     * (`followNewDate`), told or not (decision 047). Audited `event.created` or
     * `event.updated` (with the changed field names, for a change of time or place `notified`: whether the holders
     * were told, and `rescheduled: true` for a new date) in the same transaction; `unchanged` records nothing.
     * @returns what it did; `created` when the externalId was new to the organisation.
     * @throws AppError `api.org.event_cancelled` (409) for an event the organiser cancelled (issue 46).
     * @throws AppError `api.service_unavailable` (503) when the event was created and removed under it twice.
     */
    async upsertEvent(
      org: RequestOrganisation,
      externalId: string,
      input: EventInput,
      { notify = true }: { notify?: boolean } = {},
    ): Promise<UpsertStatus> {
      const at = deps.now();
      const values = eventValues(input);
      const outcome = await db.transaction(async (tx) => {
        for (let attempt = 0; attempt < 2; attempt++) {
          const current = await repo.eventByExternalId(tx, org.id, externalId, true);
          if (!current) {
            if (await repo.insertEvent(tx, { ...values, organisationId: org.id, externalId })) {
              await appendAudit(tx, org.id, org.actor, at, {
                action: 'event.created',
                resourceType: 'event',
                resourceId: externalId,
                detail: { name: input.name },
              });
              return { status: 'created' as const };
            }
            continue; // created concurrently: update it instead
          }
          // A cancelled event is final (issue 46): no change would reach anyone.
          if (current.cancelledAt) throw new AppError('api.org.event_cancelled');
          const diff = changed(current, values);
          if (Object.keys(diff).length === 0) return { status: 'unchanged' as const };
          const newDate =
            ('startsAt' in diff || 'endsAt' in diff) && isNewDate(current, values, await thresholdOf(tx, org.id));
          await repo.updateEvent(tx, current.id, newDate ? { ...diff, rescheduledAt: at } : diff);
          const timeOrPlace = TIME_AND_PLACE.some((k) => k in diff);
          await appendAudit(tx, org.id, org.actor, at, {
            action: 'event.updated',
            resourceType: 'event',
            resourceId: externalId,
            detail: {
              fields: Object.keys(diff),
              ...(timeOrPlace ? { notified: notify } : {}),
              ...(newDate ? { rescheduled: true } : {}),
            },
          });
          if (newDate) await followNewDate(tx, current.id);
          if (timeOrPlace && notify) {
            await enqueueHolderMails(
              deps.config.publicUrl,
              tx,
              current.id,
              at,
              timeAndPlaceChanges(current, { ...current, ...diff }),
              newDate ? { refundUntil: refundOnNewDate(current, at) } : undefined,
            );
          }
          // The exchange queue's default closing time follows the start and the transfer cut-off (issue 45).
          if ('startsAt' in diff || 'transfersCloseAt' in diff) await enqueueEventTimesChanged(tx, current.id);
          return { status: 'updated' as const };
        }
        throw new AppError('api.service_unavailable');
      });
      return outcome.status;
    },

    /**
     * GET /org/events/{externalId}/holders: how many people a change of the event's time or place would e-mail now
     * (`enqueueHolderMails`): the distinct holders of its live tickets, 0 once it has ended (issue 46).
     * @throws AppError `api.org.event_not_found` (404).
     */
    async eventHolders(org: RequestOrganisation, externalId: string): Promise<{ holders: number }> {
      const event = await eventOf(db, org, externalId);
      if (event.endsAt <= deps.now()) return { holders: 0 };
      return { holders: await ticketHoldersRepository.holdersOfEvent(db, event.id) };
    },

    /**
     * GET /org/events/{externalId}/attendance over the event's live tickets: issued, checked in (access used),
     * listed for resale now, resold (sold through a resale listing at least once); and from the recorded scans
     * (decision 050) the tickets inside per zone and those that entered per event-local day.
     * @throws AppError `api.org.event_not_found` (404).
     */
    async attendance(org: RequestOrganisation, externalId: string) {
      const event = await eventOf(db, org, externalId);
      return { ...(await repo.attendance(db, event.id)), ...(await repo.scanCounts(db, event.id)) };
    },

    /**
     * GET /org/events/{externalId}/check-ins: the dashboard's check-ins per 5 minutes over the event day (6 hours
     * before the start to the end, UTC) and the offline doors' conflicts (contract `checkInsResponse`, issue 21).
     * @throws AppError `api.org.event_not_found` (404).
     */
    async checkIns(org: RequestOrganisation, externalId: string): Promise<z.infer<typeof contract.checkInsResponse>> {
      const event = await eventOf(db, org, externalId);
      const bucketSeconds = CHECK_IN_BUCKET_SECONDS;
      const from = new Date(event.startsAt.getTime() - DOORS_OPEN_BEFORE_START_SECONDS * 1000);
      const to = event.endsAt;
      const buckets = await repo.checkInBuckets(db, event.id, from, to, bucketSeconds);
      const synced = await repo.conflictedDoorCheckIns(db, event.id, CHECK_IN_CONFLICTS_MAX);
      const conflicts = synced
        .flatMap((s) => s.conflicts.map((c) => ({ ...c, scannedAt: s.scannedAt, syncedAt: s.syncedAt })))
        .slice(0, CHECK_IN_CONFLICTS_MAX);
      const externalIds = await repo.ticketExternalIds(db, [...new Set(conflicts.map((c) => c.userTicketId))]);
      return {
        bucketSeconds,
        from: from.toISOString(),
        to: to.toISOString(),
        buckets: buckets.map((b) => ({ at: b.at.toISOString(), count: b.count })),
        conflicts: conflicts.map((c) => ({
          ticketExternalId: externalIds.get(c.userTicketId) ?? null,
          reason: c.reason as access.SyncConflictReason,
          scannedAt: c.scannedAt.toISOString(),
          syncedAt: c.syncedAt.toISOString(),
        })),
      };
    },
  };
}
