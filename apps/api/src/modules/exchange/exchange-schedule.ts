/**
 * The exchange queue's timed steps (decision 042): closing it at `closesAt` (`exchange.close`), a job scheduled for
 * its time when the organiser sets it (`scheduleJobs`, in the settings' transaction), never a periodic scan of every
 * event. A job whose time has moved since it was scheduled finds its payload's time is no longer the setting's and
 * does nothing: the job of the new time does the work.
 */
import * as z from 'zod';
import type { Database, DbOrTx } from '../../db/client.js';
import { enqueueJobs, type JobInput } from '../../providers/jobs/job-queue.js';
import { exchangeRepository as repo, type EventRow, type SettingsRow } from './exchange.repository.js';
import { closesAtOf } from './exchange-rules.js';

/** The job that closes an event's queue at its `closesAt`. */
export const EXCHANGE_CLOSE_JOB = 'exchange.close';
/** Payload of the job: the event, and the time (ISO 8601 UTC) the job was scheduled for. */
const timedPayload = z.object({ eventId: z.number().int().positive(), at: z.iso.datetime() });

/** The jobs new settings need (in their transaction): `exchange.close` at the queue's closing time when new or moved. */
export async function scheduleJobs(
  tx: DbOrTx,
  event: EventRow,
  before: SettingsRow | undefined,
  after: SettingsRow,
): Promise<void> {
  const jobs: JobInput[] = [];
  const closesAt = closesAtOf(after, event);
  if (after.closedAt === null && (!before || closesAtOf(before, event).getTime() !== closesAt.getTime()))
    jobs.push({
      kind: EXCHANGE_CLOSE_JOB,
      payload: { eventId: event.id, at: closesAt.toISOString() },
      runAt: closesAt,
    });
  await enqueueJobs(tx, jobs);
}

/** The handler of the `exchange.close` job (app/services.ts registers it). */
export function createExchangeSchedule(deps: { database: Database; now: () => Date }) {
  const { db } = deps.database;

  /** Runs `step` under the event's exchange lock with its settings and event; nothing when the queue was never set. */
  async function underLock(
    eventId: number,
    step: (tx: DbOrTx, settings: SettingsRow, event: EventRow) => Promise<void>,
  ): Promise<void> {
    await db.transaction(async (tx) => {
      const settings = await repo.lockSettings(tx, eventId);
      const event = await repo.event(tx, eventId);
      if (settings && event) await step(tx, settings, event);
    });
  }

  return {
    /**
     * The `exchange.close` job: at the queue's closing time, its WAITING and OFFERED entries become CLOSED, open
     * reservations end and every unit on offer is WITHDRAWN (returned tickets admit again). Does nothing when the
     * queue closed already, or when its closing time is no longer the job's (moved; that time's job closes it).
     */
    async close(payload: unknown): Promise<void> {
      const { eventId, at: due } = timedPayload.parse(payload);
      await underLock(eventId, async (tx, settings, event) => {
        const at = deps.now();
        const closesAt = closesAtOf(settings, event);
        if (settings.closedAt !== null || closesAt.getTime() !== Date.parse(due) || closesAt > at) return;
        await repo.close(tx, eventId, at);
      });
    },
  };
}
