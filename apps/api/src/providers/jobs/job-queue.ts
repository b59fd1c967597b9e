/**
 * The durable job queue (issue 25, decision 030): background work written to the database (table `jobs`) in the
 * transaction of the work that causes it, so a job exists if and only if that work committed, and run by workers
 * that survive restarts, `kill -9` and several instances.
 *
 * - `enqueueJobs(dbOrTx, jobs)` writes jobs (in the caller's transaction when given one) and wakes this process's
 *   workers at once (they claim right away and again shortly after, so a job committed a moment later is not left
 *   for the next poll).
 * - `startJobWorker({...})` claims due jobs of its kinds with `FOR UPDATE SKIP LOCKED` and a lease (`locked_until`),
 *   runs their handlers, deletes a job whose handler succeeded, retries a failed one after `backoff(attempt)`
 *   seconds and, when its attempts are spent, keeps it as failed (`failed_at`, `last_error`) for the operator.
 *   A worker that dies mid-run leaves its lease, and the job is claimed again once the lease has passed.
 * - Delivery is at least once: a handler can run twice only when its worker died (or overran the lease) after the
 *   handler's effect and before the job was deleted.
 * - `jobQueueStats(db)`: depth, oldest age and failed count per kind (the metrics' gauges).
 */
import type { DbOrTx } from '../../db/client.js';
import { jobsRepository as repo, type FailedJobRow, type JobKindStats } from './jobs.repository.js';

export type { FailedJobRow, JobKindStats } from './jobs.repository.js';

/** A job to enqueue. `payload` is stored as JSON; `runAt` (UTC) defaults to the database's now. */
export interface JobInput {
  kind: string;
  payload: unknown;
  runAt?: Date;
}

/** What a handler learns of the job it runs. `attempt` is 1 on the first claim. */
export interface JobContext {
  jobId: number;
  kind: string;
  attempt: number;
}

/** Runs one job. Rejecting means "failed": the job is retried after the backoff or kept as failed. */
export type JobHandler = (payload: unknown, ctx: JobContext) => Promise<void>;

/** Rows per INSERT when enqueueing many jobs (far below PostgreSQL's 65,535 parameters). */
const INSERT_CHUNK = 1000;

/** This process's workers, woken after a local enqueue. */
const localWorkers = new Set<() => void>();

/**
 * Writes `jobs` to the queue, inside the caller's transaction when `db` is one (so the jobs exist iff it commits),
 * and wakes this process's workers.
 */
export async function enqueueJobs(db: DbOrTx, jobs: readonly JobInput[]): Promise<void> {
  for (let i = 0; i < jobs.length; i += INSERT_CHUNK) await repo.insert(db, jobs.slice(i, i + INSERT_CHUNK));
  if (jobs.length) for (const wake of localWorkers) wake();
}

/**
 * The default retry schedule: 30 s × 2^(attempt−1), capped at one hour, times a jitter in [0.8, 1.2).
 * @param attempt the attempt that just failed (1-based)
 * @returns seconds to wait before the next attempt
 */
export function defaultJobBackoff(attempt: number, random: number = Math.random()): number {
  return Math.round(Math.min(30 * 2 ** Math.max(0, attempt - 1), 3600) * (0.8 + 0.4 * random));
}

export interface JobWorkerOptions {
  db: DbOrTx;
  /** One handler per kind; the worker claims only these kinds. */
  handlers: Record<string, JobHandler>;
  log: (msg: string, err?: unknown) => void;
  /** Milliseconds between two polls (default 2000; 0: no timer, only wakes and `runOnce`). */
  pollMs?: number;
  /** Most jobs one claim takes, run at once (default 10). */
  batch?: number;
  /** Claims a job gets before it is kept as failed (default 5). */
  attempts?: number;
  /** Seconds before the next attempt after the `attempt`-th failed (default `defaultJobBackoff`). */
  backoff?: (attempt: number) => number;
  /** Seconds a claim is leased; a job still leased is never claimed by another worker (default 300). */
  leaseSeconds?: number;
  /** The clock (default the system's). */
  now?: () => Date;
}

export interface JobWorker {
  /** Claims and runs what is due until a claim finds nothing (or takes less than a batch). @returns jobs run. */
  runOnce(): Promise<number>;
  /** Claims now (and again shortly, for a job whose transaction commits a moment later). */
  wake(): void;
  /** Stops the timer and wakes, and waits for the jobs in flight to finish (drain). */
  stop(): Promise<void>;
}

/** Delays after a wake at which the worker claims again (a job enqueued in a transaction is seen after commit). */
const WAKE_FOLLOW_UPS_MS = [25, 100, 400];

/** Starts a worker over `opts.db`: polling (unless `pollMs` is 0) and woken by this process's enqueues. */
export function startJobWorker(opts: JobWorkerOptions): JobWorker {
  const now = opts.now ?? (() => new Date());
  const batch = Math.max(1, opts.batch ?? 10);
  const maxAttempts = Math.max(1, opts.attempts ?? 5);
  const backoff = opts.backoff ?? ((attempt: number) => defaultJobBackoff(attempt));
  const leaseMs = Math.max(1, opts.leaseSeconds ?? 300) * 1000;
  const pollMs = opts.pollMs ?? 2000;
  const kinds = Object.keys(opts.handlers);
  let stopped = false;
  let running: Promise<number> | null = null;
  let again = false;
  const followUps = new Set<NodeJS.Timeout>();

  async function runJob(job: Awaited<ReturnType<typeof repo.claim>>[number], lease: Date): Promise<void> {
    const handler = opts.handlers[job.kind];
    try {
      if (job.attempts > maxAttempts) throw new Error(`claimed ${job.attempts} times without finishing`);
      await handler(job.payload, { jobId: job.id, kind: job.kind, attempt: job.attempts });
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      const retryAt = job.attempts < maxAttempts ? new Date(now().getTime() + backoff(job.attempts) * 1000) : null;
      opts.log(retryAt ? `job ${job.kind} failed, retrying` : `job ${job.kind} failed for good`, err);
      await repo.fail(opts.db, job.id, lease, message, retryAt, now());
      return;
    }
    await repo.complete(opts.db, job.id);
  }

  /** One claim and its jobs run to the end. @returns how many were claimed. */
  async function claimAndRun(): Promise<number> {
    const at = now();
    const lease = new Date(at.getTime() + leaseMs);
    const claimed = await repo.claim(opts.db, kinds, at, lease, batch);
    await Promise.all(
      claimed.map((job) =>
        runJob(job, lease).catch((err: unknown) => opts.log(`job ${job.kind} not recorded`, err)),
      ),
    );
    return claimed.length;
  }

  /** Claims until a claim takes less than a batch; never two loops at once (a call during one runs it again). */
  function loop(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        const n = await claimAndRun();
        total += n;
        if (n >= batch) again = true;
      } while (again && !stopped);
      return total;
    })().finally(() => (running = null));
    return running;
  }

  const tick = () => {
    if (!stopped) loop().catch((err: unknown) => opts.log('job worker claim failed', err));
  };
  function wake() {
    if (stopped) return;
    tick();
    if (followUps.size) return;
    for (const ms of WAKE_FOLLOW_UPS_MS) {
      const t = setTimeout(() => {
        followUps.delete(t);
        tick();
      }, ms);
      t.unref();
      followUps.add(t);
    }
  }

  const timer = pollMs > 0 ? setInterval(tick, pollMs) : null;
  timer?.unref();
  localWorkers.add(wake);
  tick();

  return {
    async runOnce() {
      let total = 0;
      for (;;) {
        await running?.catch(() => 0);
        const n = await loop();
        total += n;
        if (n === 0) return total;
      }
    },
    wake,
    async stop() {
      stopped = true;
      localWorkers.delete(wake);
      if (timer) clearInterval(timer);
      for (const t of followUps) clearTimeout(t);
      followUps.clear();
      await running?.catch(() => 0);
    },
  };
}

/** Depth, oldest age (seconds) and failed count per kind, for the metrics. */
export function jobQueueStats(db: DbOrTx): Promise<JobKindStats[]> {
  return repo.stats(db);
}

/** The failed jobs kept for the operator, newest failure first (at most `limit`). */
export function listFailedJobs(db: DbOrTx, limit: number): Promise<FailedJobRow[]> {
  return repo.failed(db, limit);
}

/**
 * Puts a failed job back in the queue (due at `now`, attempts reset) and wakes this process's workers.
 * @returns false when no failed job has this id
 */
export async function retryFailedJob(db: DbOrTx, id: number, now: Date): Promise<boolean> {
  const found = await repo.retry(db, id, now);
  if (found) for (const wake of localWorkers) wake();
  return found;
}
