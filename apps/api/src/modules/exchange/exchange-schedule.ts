/**
 * The exchange queue's two timed steps (decision 042): closing it at `closesAt` (`exchange.close`) and the draw at
 * `drawAt` (`exchange.draw`). Each is a job scheduled for its time when the organiser sets it (`scheduleJobs`, in the
 * settings' transaction), never a periodic scan of every event. A job whose time has moved since it was scheduled
 * finds its payload's time is no longer the setting's and does nothing: the job of the new time does the work.
 */
import { createHmac } from 'node:crypto';
import * as z from 'zod';
import type { Database, DbOrTx } from '../../db/client.js';
import { enqueueJobs, type JobInput } from '../../providers/jobs/job-queue.js';
import { exchangeRepository as repo, type EventRow, type SettingsRow } from './exchange.repository.js';
import { matchType } from './exchange-match.js';
import type { ExchangeNotices } from './exchange-notices.js';
import { closesAtOf } from './exchange-rules.js';
import { enqueueTicketMovedJobs } from '../../providers/jobs/ticket-moved-jobs.js';
import { eventTimesChangedPayload } from '../../providers/jobs/event-changed-jobs.js';

/** The job that closes an event's queue at its `closesAt`. */
export const EXCHANGE_CLOSE_JOB = 'exchange.close';
/** The job that orders the entries of a `draw` queue made before its `drawAt`. */
export const EXCHANGE_DRAW_JOB = 'exchange.draw';
/** Payload of both jobs: the event, and the time (ISO 8601 UTC) the job was scheduled for. */
const timedPayload = z.object({ eventId: z.number().int().positive(), at: z.iso.datetime() });

/**
 * An integer in [0, n) drawn from `seed` for the `step`-th draw: HMAC-SHA256 keyed by the seed over the step (and a
 * retry counter), its first 48 bits, by rejection so that every value is equally likely. A keyed hash of the standard
 * library rather than a PRNG package: the recorded seed gives the same order on any Node version, for good.
 */
function uniformBelow(seed: string, step: number, n: number): number {
  const range = 2 ** 48;
  const limit = range - (range % n);
  for (let retry = 0; ; retry++) {
    const r = createHmac('sha256', seed).update(`${step}:${retry}`).digest().readUIntBE(0, 6);
    if (r < limit) return r % n;
  }
}

/**
 * The draw's order of `items` (given sorted by id): a Fisher–Yates shuffle driven by `seed` (decision 042 "Order and
 * position"). Pure: the same items and seed give the same order, so the stored seed shows the draw was the recorded
 * one.
 */
export function drawOrder<T>(items: readonly T[], seed: string): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = uniformBelow(seed, i, i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * The jobs saved settings need (in their transaction): `exchange.close` at the queue's closing time while it is not
 * closed, and `exchange.draw` at `drawAt` while a draw has not run. Scheduled at every save, not only when the time
 * moved: the closing time may follow the event's transfer cut-off, which can change without the settings; a job
 * for a time since moved, or for a step already done, does nothing.
 */
export async function scheduleJobs(tx: DbOrTx, event: EventRow, settings: SettingsRow): Promise<void> {
  const jobs: JobInput[] = [];
  const closesAt = closesAtOf(settings, event);
  if (settings.closedAt === null)
    jobs.push({
      kind: EXCHANGE_CLOSE_JOB,
      payload: { eventId: event.id, at: closesAt.toISOString() },
      runAt: closesAt,
    });
  const { drawAt } = settings;
  if (settings.order === 'draw' && settings.drawnAt === null && drawAt)
    jobs.push({ kind: EXCHANGE_DRAW_JOB, payload: { eventId: event.id, at: drawAt.toISOString() }, runAt: drawAt });
  await enqueueJobs(tx, jobs);
}

/** The handlers of the `exchange.close` and `exchange.draw` jobs (app/services.ts registers them). */
export function createExchangeSchedule(deps: { database: Database; now: () => Date; notices: ExchangeNotices }) {
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
     * reservations end and every unit on offer is WITHDRAWN (returned tickets admit again); the fans are told and the
     * organisation gets `exchange.closed`. Does nothing when the
     * queue closed already, or when its closing time is no longer the job's (moved; that time's job closes it).
     */
    async close(payload: unknown): Promise<void> {
      const { eventId, at: due } = timedPayload.parse(payload);
      await underLock(eventId, async (tx, settings, event) => {
        const at = deps.now();
        const closesAt = closesAtOf(settings, event);
        if (settings.closedAt !== null || closesAt.getTime() !== Date.parse(due) || closesAt > at) return;
        const closed = await repo.close(tx, eventId, at);
        // The returned tickets admit again: their wallet passes show their code again (issue 45).
        await enqueueTicketMovedJobs(tx, closed.userTicketIds);
        await deps.notices.closed(tx, event, closed.entries, closed.units, at);
      });
    },

    /**
     * The `event.times_changed` job (the event's start or transfer cut-off changed): schedules the close of an open
     * queue at its closing time now, which follows them unless the organiser set `closesAt`. The job of the old time
     * finds it moved and does nothing; a closing time already past closes the queue at once; a queue closed whose
     * closing time is now ahead opens again (its closed entries stay closed).
     */
    async timesChanged(payload: unknown): Promise<void> {
      const { eventId } = eventTimesChangedPayload.parse(payload);
      await underLock(eventId, async (tx, settings, event) => {
        const at = deps.now();
        // A queue closed by the old time whose closing time is now ahead opens again, as a settings change does.
        const reopen = settings.closedAt !== null && settings.enabled && closesAtOf(settings, event) > at;
        if (reopen) await repo.putSettings(tx, { ...settings, closedAt: null, updatedAt: at });
        if (settings.closedAt === null || reopen) await scheduleJobs(tx, event, { ...settings, closedAt: null });
      });
    },

    /**
     * The `exchange.draw` job: at `drawAt`, the entries made before it that wait with no `seq` are ordered by
     * {@link drawOrder} over them sorted by id with the stored seed; those made after `drawAt` (waiting for the draw
     * since) come after them, first come; then each type is matched. Does nothing once drawn, when the queue is no
     * longer a draw or `drawAt` is no longer the job's.
     */
    async draw(payload: unknown): Promise<void> {
      const { eventId, at: due } = timedPayload.parse(payload);
      await underLock(eventId, async (tx, settings) => {
        const at = deps.now();
        const { drawAt, drawSeed } = settings;
        if (settings.order !== 'draw' || settings.drawnAt !== null || !drawAt || !drawSeed) return;
        if (drawAt.getTime() !== Date.parse(due) || drawAt > at) return;
        const waiting = await repo.unordered(tx, eventId);
        const drawn = drawOrder(
          waiting.filter((e) => e.createdAt < drawAt).map((e) => e.id),
          drawSeed,
        );
        const late = waiting.filter((e) => e.createdAt >= drawAt).map((e) => e.id);
        await repo.order(tx, [...drawn, ...late]);
        await repo.setDrawnAt(tx, eventId, at);
        for (const type of await repo.typesOfEvent(tx, eventId))
          await matchType({ tx, notices: deps.notices }, settings, type.id, at);
      });
    },
  };
}
