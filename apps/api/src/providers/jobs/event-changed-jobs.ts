/**
 * The job that follows a change of an event's times (issue 45): the organiser's event update enqueues it in its own
 * transaction when `startsAt` or `transfersCloseAt` changed, and the exchange queue's module handles it by scheduling
 * its close at the queue's new closing time (a queue without its own `closesAt` closes at the event's transfer
 * cut-off, else its start). The organisations module only names the event; it does not know the exchange's rules.
 */
import * as z from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { enqueueJobs } from './job-queue.js';

/** Job kind run after an event's start or transfer cut-off changed. */
export const EVENT_TIMES_CHANGED_JOB = 'event.times_changed';

/** Payload: the event (events.id) whose times changed. */
export const eventTimesChangedPayload = z.object({ eventId: z.number().int().positive() });

/** Enqueues {@link EVENT_TIMES_CHANGED_JOB} for `eventId` inside the updater's transaction `tx`. */
export async function enqueueEventTimesChanged(tx: DbOrTx, eventId: number): Promise<void> {
  await enqueueJobs(tx, [{ kind: EVENT_TIMES_CHANGED_JOB, payload: { eventId } }]);
}
