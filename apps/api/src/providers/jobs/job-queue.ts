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
import {
  jobsRepository as repo,
  PROVEN_MAX,
  RECENT_MAX,
  SLOW_DESTINATIONS,
  type ClaimedJob,
  type FailedJobRow,
  type JobKindStats,
} from './jobs.repository.js';

export type { FailedJobRow, JobKindStats } from './jobs.repository.js';

/**
 * A job to enqueue. `payload` is stored as JSON; `runAt` (UTC) defaults to the database's now; among due jobs a
 * higher `priority` (default 0) is claimed first (a sign-in code before an import's 10,000 ticket mails).
 */
export interface JobInput {
  kind: string;
  payload: unknown;
  runAt?: Date;
  priority?: number;
  /**
   * Where the job goes (a mail's recipient domain, lower case): a worker runs at most `perDestination` jobs of one
   * destination at once, and the destinations that answered slowly share one slot (`JobWorkerOptions.destinations`).
   */
  destination?: string;
}

/** What a handler learns of the job it runs. `attempt` is 1 on the first claim. */
export interface JobContext {
  jobId: number;
  kind: string;
  attempt: number;
}

/**
 * Runs one job. Rejecting means "failed": the job is retried after the backoff or kept as failed; rejecting with an
 * error marked by `permanentJobFailure` keeps it as failed at once (a retry cannot help: a mail the relay refused
 * for good).
 */
export type JobHandler = (payload: unknown, ctx: JobContext) => Promise<void>;

const PERMANENT = Symbol('permanentJobFailure');

/**
 * Marks `err` as a permanent failure (issue 41 point 6: an SMTP 5xx): the worker keeps its job as failed without
 * retrying it. Answers `err` (for `throw permanentJobFailure(…)`).
 */
export function permanentJobFailure(err: unknown): unknown {
  if (err !== null && typeof err === 'object' && Object.isExtensible(err))
    Object.defineProperty(err, PERMANENT, { value: true, enumerable: false, configurable: true });
  return err;
}

/** Whether `err` was marked by `permanentJobFailure`. */
export function isPermanentJobFailure(err: unknown): boolean {
  return err !== null && typeof err === 'object' && (err as { [PERMANENT]?: boolean })[PERMANENT] === true;
}

/** This process's workers, woken after a local enqueue. */
const localWorkers = new Set<() => void>();

/**
 * Writes `jobs` to the queue, inside the caller's transaction when `db` is one (so the jobs exist iff it commits),
 * and wakes this process's workers.
 */
export async function enqueueJobs(db: DbOrTx, jobs: readonly JobInput[]): Promise<void> {
  await repo.insert(db, jobs);
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
  /**
   * Where failures go. `fields` (for a job's failure) carries `jobId`, `kind`, `attempt` and `willRetry` (false:
   * kept as failed) — never the payload, which may hold an e-mail address.
   */
  log: (msg: string, err?: unknown, fields?: Record<string, unknown>) => void;
  /** Milliseconds between two polls (default 2000; 0: no timer, only wakes and `runOnce`). */
  pollMs?: number;
  /** Most jobs one claim takes (default 10); a claim never takes more than the free slots of `concurrency`. */
  batch?: number;
  /**
   * Jobs run at once (default 1): a claim takes at most the free slots, and each slot freed by a finished job is
   * filled by the next claim, so one job that hangs (until its own timeout) holds one slot and the others go on.
   * Jobs are started one at a time with a turn of the event loop between.
   */
  concurrency?: number;
  /** Claims a job gets before it is kept as failed (default 5). */
  attempts?: number;
  /** Seconds before the next attempt after the `attempt`-th failed (default `defaultJobBackoff`). */
  backoff?: (attempt: number) => number;
  /** Seconds a claim is leased; a job still leased is never claimed by another worker (default 300). */
  leaseSeconds?: number;
  /** The clock (default the system's). */
  now?: () => Date;
  /**
   * Fairness between destinations (issue 39 item 2; jobs without a destination are never held back): at most
   * `perDestination` jobs of one destination run at once (default one less than `concurrency`, at least 1, so a
   * destination that stalls leaves a slot to the others), and a destination whose last job took `slowMs` or more
   * (real time) counts as slow for `slowHoldSeconds` (or until one of its jobs succeeds faster): all slow
   * destinations together run one job at a time. A destination is _proven_ once one of its jobs succeeded in less
   * than `slowMs`; until then (never seen, or slow since) it is untrusted: the untrusted destinations together take
   * at most all slots but one, which stays for the proven ones, and one of them at most all of those but one
   * (issue 39 item 2, ninth re-run). A job that runs much longer than this worker's recent sends (`parkAfterMs`)
   * gives its slot back and runs on outside the slots, _parked_ (at most `parkedMax`; issue 39 item 2, tenth
   * re-run); `park: false` keeps every job in its slot (the tests' control). `false`: no fairness (every slot for whatever is due first).
   */
  destinations?: false | { perDestination?: number; slowMs: number; slowHoldSeconds: number; park?: boolean };
}

export interface JobWorker {
  /**
   * Claims and runs what is due until a claim finds nothing and no job is in flight (jobs started by the worker on
   * its own meanwhile are waited for too). @returns jobs run by this call's claims
   */
  runOnce(): Promise<number>;
  /** Claims now (and again shortly, for a job whose transaction commits a moment later). */
  wake(): void;
  /** Stops the timer and wakes, and waits for the jobs in flight to finish (drain). */
  stop(): Promise<void>;
}

/** Delays after a wake at which the worker claims again (a job enqueued in a transaction is seen after commit). */
const WAKE_FOLLOW_UPS_MS = [25, 100, 400];

/** A worker's settings (its options with their defaults), its options, its job kinds and its fairness. */
function workerParts(opts: JobWorkerOptions) {
  const now = opts.now ?? (() => new Date());
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 1));
  return {
    opts,
    now,
    batch: Math.max(1, opts.batch ?? 10),
    concurrency,
    maxAttempts: Math.max(1, opts.attempts ?? 5),
    backoff: opts.backoff ?? ((attempt: number) => defaultJobBackoff(attempt)),
    leaseMs: Math.max(1, opts.leaseSeconds ?? 300) * 1000,
    pollMs: opts.pollMs ?? 2000,
    kinds: Object.keys(opts.handlers),
    fairness: destinationFairness(opts.destinations, concurrency, now),
  };
}
type WorkerParts = ReturnType<typeof workerParts>;

/**
 * Runs one claimed job with its handler and records the outcome under its `lease`: done, or failed (retried after
 * its backoff, or for good past `maxAttempts` or on a permanent failure). Rejects when the outcome is not recorded.
 */
async function runJob(w: WorkerParts, job: ClaimedJob, lease: Date): Promise<void> {
  const { opts, now, fairness, maxAttempts } = w;
  const handler = opts.handlers[job.kind];
  const startedAt = performance.now();
  try {
    if (job.attempts > maxAttempts) throw new Error(`claimed ${job.attempts} times without finishing`);
    await handler(job.payload, { jobId: job.id, kind: job.kind, attempt: job.attempts });
    fairness.finished(job, performance.now() - startedAt, true);
  } catch (err) {
    fairness.finished(job, performance.now() - startedAt, false);
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    const permanent = isPermanentJobFailure(err);
    const retryAt =
      job.attempts < maxAttempts && !permanent ? new Date(now().getTime() + w.backoff(job.attempts) * 1000) : null;
    opts.log(retryAt ? 'job failed, retrying' : 'job failed for good', err, {
      jobId: job.id,
      kind: job.kind,
      attempt: job.attempts,
      willRetry: retryAt !== null,
      ...(permanent ? { permanent } : {}),
    });
    await repo.fail(opts.db, job.id, lease, message, retryAt, now());
    return;
  }
  await repo.complete(opts.db, job.id);
}

/**
 * Claims at most `n` jobs and starts each with `start`, one per turn of the event loop; `idleOnly`: only of
 * destinations with no job in flight (and jobs without a destination). @returns how many were claimed
 */
async function claimSome(
  w: WorkerParts,
  n: number,
  idleOnly: boolean,
  start: (job: ClaimedJob, lease: Date) => void,
): Promise<number> {
  const at = w.now();
  const lease = new Date(at.getTime() + w.leaseMs);
  const claimed = await repo.claim(w.opts.db, w.kinds, at, lease, n, w.fairness.forClaim(n, idleOnly));
  // One start at a time, with a turn of the event loop between: a burst of rendered mails never stalls requests.
  for (const job of claimed) {
    start(job, lease);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return claimed.length;
}

/**
 * A wake's claims: `tick` now and after each of {@link WAKE_FOLLOW_UPS_MS} (one set of follow-ups at a time, a job
 * enqueued in a transaction is seen after commit); `clear` cancels the follow-ups.
 */
function wakeFollowUps(tick: () => void) {
  const followUps = new Set<NodeJS.Timeout>();
  return {
    wake() {
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
    },
    clear() {
      followUps.clear();
    },
  };
}

/**
 * Starts a worker over `opts.db`: polling (unless `pollMs` is 0) and woken by this process's enqueues, running up to
 * `opts.concurrency` jobs at once.
 */
export function startJobWorker(opts: JobWorkerOptions): JobWorker {
  const w = workerParts(opts);
  const { batch, concurrency, pollMs, fairness } = w;
  let stopped = false;
  let running: Promise<number> | null = null;
  let again = false;
  /** Jobs started and not finished (their outcome recorded or its recording failed). */
  const inFlight = new Set<Promise<void>>();
  /** Jobs started since the worker began (runOnce's count). */
  let started = 0;
  /**
   * True when due jobs may be waiting for a slot (the last claim took all it asked for, or found no free slot): a
   * finished job then claims again at once; otherwise the next wake or poll does.
   */
  let mayHaveMore = false;
  const followUps = wakeFollowUps(tick);

  /** Starts `job` in a slot; when it ends, the slot is free and the worker claims again (there may be more). */
  function start(job: ClaimedJob, lease: Date): void {
    const release = fairness.started(job, tick);
    const done: Promise<void> = runJob(w, job, lease)
      .catch((err: unknown) => opts.log('job outcome not recorded', err, { jobId: job.id }))
      .finally(() => {
        release();
        inFlight.delete(done);
        // A job of a destination frees that destination's share too: jobs held back by its cap may be due.
        if (mayHaveMore || fairness.holdsBack(job)) tick();
      });
    inFlight.add(done);
    started++;
  }

  /** One claim for the free slots, its jobs started. @returns how many were claimed (-1: no slot was free). */
  async function claimAndStart(): Promise<number> {
    // Parked jobs (past their destination's usual time, decision 030) hold no slot.
    const free = Math.min(batch, concurrency - (inFlight.size - fairness.parked()));
    if (free <= 0) {
      mayHaveMore = true;
      return -1;
    }
    // Destinations with nothing in flight first, then the rest (issue 39 item 2, sixth re-run): a claim looks at the
    // first due jobs only, so two domains answering just under the slow bound with a backlog took back every slot
    // they freed, and another holder's code waited behind all of it (7 s, 40 of 40 first).
    let claimed = fairness.active ? await claimSome(w, free, true, start) : 0;
    if (claimed < free) claimed += await claimSome(w, free - claimed, false, start);
    // With fairness, fewer than asked may mean "the first due jobs were one destination's, at its cap": claim again
    // (its jobs are then skipped) until a claim finds nothing.
    mayHaveMore = claimed >= free || (claimed > 0 && fairness.active);
    return claimed;
  }

  /**
   * Claims while slots are free and claims find work; never two loops at once (a call during one runs it again).
   * Ends when a claim finds less than it asked for or every slot is taken (a finished job claims again).
   */
  function loop(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        const n = await claimAndStart();
        if (n < 0) break;
        total += n;
        if (mayHaveMore) again = true;
      } while (again && !stopped);
      return total;
    })().finally(() => (running = null));
    return running;
  }

  function tick() {
    if (!stopped) loop().catch((err: unknown) => opts.log('job worker claim failed', err));
  }
  function wake() {
    if (!stopped) followUps.wake();
  }

  const timer = pollMs > 0 ? setInterval(tick, pollMs) : null;
  timer?.unref();
  localWorkers.add(wake);
  tick();

  return {
    async runOnce() {
      const before = started;
      for (;;) {
        await running?.catch(() => 0);
        const n = await loop();
        if (inFlight.size) {
          await Promise.race(inFlight);
          continue;
        }
        if (n <= 0) return started - before;
      }
    },
    wake,
    async stop() {
      stopped = true;
      localWorkers.delete(wake);
      if (timer) clearInterval(timer);
      followUps.clear();
      await running?.catch(() => 0);
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
  };
}

/** Destinations whose last start a worker remembers (the least recently started forgotten first). */
const LAST_STARTED_MAX = 10_000;

/**
 * Parking (issue 39 item 2, tenth re-run; decision 030): a job with a destination that has run `PARK_FACTOR` times the
 * 75th percentile of the worker's last `PARK_SAMPLES` jobs that succeeded without being parked (never less than
 * `PARK_MIN_MS`, never more than the slow bound ÷ `PARK_BOUND_DIVISOR`, so slow sends cannot raise it past a quarter
 * of the bound: eleventh re-run; `PARK_UNSAMPLED_MS` before `PARK_MIN_SAMPLES` of them) gives its slot back and runs
 * on to its own timeout, parked. Its destination keeps its standing (one slow send does not unprove a big domain:
 * eleventh re-run); it becomes slow, and unproven, once the send has run the slow bound. At most `PARKED_PER_SLOT` ×
 * concurrency, and `PARKED_MAX`, are parked at once; jobs of untrusted destinations at most half of them (an
 * attacker must prove a domain fast before its stall parks among the rest).
 */
const PARK_FACTOR = 2;
const PARK_SAMPLES = 64;
const PARK_MIN_SAMPLES = 8;
const PARK_MIN_MS = 50;
const PARK_UNSAMPLED_MS = 1000;
const PARK_BOUND_DIVISOR = 4;
const PARKED_PER_SLOT = 8;
const PARKED_MAX = 32;

/**
 * When a running job of a destination is parked, milliseconds after its start: `PARK_FACTOR` times the 75th
 * percentile of `samples` (the last successful jobs' times, milliseconds), within `PARK_MIN_MS` and a quarter of the
 * slow bound ({@link PARK_FACTOR}); never, without destinations.
 */
function parkAfterMs(options: JobWorkerOptions['destinations'], samples: readonly number[]): number {
  if (!options) return Infinity;
  // Within [PARK_MIN_MS, a quarter of the bound], never past the bound itself (a bound under 200 ms: the tests').
  const within = (ms: number) =>
    Math.min(options.slowMs, Math.max(PARK_MIN_MS, Math.min(options.slowMs / PARK_BOUND_DIVISOR, ms)));
  if (samples.length < PARK_MIN_SAMPLES) return within(PARK_UNSAMPLED_MS);
  const sorted = [...samples].sort((a, b) => a - b);
  return within(PARK_FACTOR * sorted[Math.floor(sorted.length * 0.75)]);
}

/** A worker's marks of destinations: slow ones (until when) and proven ones (issue 39 item 2). */
function destinationMarks(options: JobWorkerOptions['destinations'], now: () => Date) {
  /** Slow destinations: until when (ms since the epoch, the worker's clock). */
  const slowUntil = new Map<string, number>();
  /**
   * Destinations whose last job succeeded within `slowMs`, the most recently proven last (at most `PROVEN_MAX`; one
   * forgotten is untrusted again until its next fast success).
   */
  const proven = new Set<string>();
  return {
    slowUntil,
    proven,
    markSlow: (destination: string) => {
      if (!options) return;
      slowUntil.set(destination, now().getTime() + options.slowHoldSeconds * 1000);
      proven.delete(destination);
    },
    markProven: (destination: string) => {
      proven.delete(destination);
      proven.add(destination);
      if (proven.size > PROVEN_MAX) proven.delete(proven.values().next().value!);
    },
    /** Whether `destination` is slow now (a mark past its time is forgotten). */
    isSlow: (destination: string) => {
      const until = slowUntil.get(destination);
      if (until === undefined) return false;
      if (until > now().getTime()) return true;
      slowUntil.delete(destination);
      return false;
    },
  };
}

/** What {@link claimRules} reads of a worker's fairness (its maps, read and marked, never otherwise changed). */
interface FairnessState {
  options: Exclude<JobWorkerOptions['destinations'], false | undefined>;
  running: ReadonlyMap<ClaimedJob, number>;
  parked: ReadonlyMap<ClaimedJob, boolean>;
  marks: ReturnType<typeof destinationMarks>;
  lastStarted: ReadonlyMap<string, { order: number; at: number }>;
  perDestination: number;
  perUntrusted: number;
  untrustedSlots: number;
}

/**
 * What the next claim may take of each destination (`ClaimFairness`): the destinations at their cap, the slow ones
 * and their one slot, what each may still start, the untrusted destinations' share; `idleOnly`: every destination
 * with a job in flight is full, and the idle ones take turns (`recent`).
 */
function claimRules(state: FairnessState, idleOnly: boolean): Parameters<typeof repo.claim>[5] {
  const { options, running, parked, marks, lastStarted, perDestination, perUntrusted, untrustedSlots } = state;
  const at = performance.now();
  const inFlight = new Map<string, number>();
  for (const [job, startedAt] of running) {
    const d = job.destination!;
    // A job running past the bound makes its destination slow now, not when it ends.
    if (at - startedAt >= options.slowMs) marks.markSlow(d);
    inFlight.set(d, (inFlight.get(d) ?? 0) + 1);
  }
  // The slow slot goes round: the slow destination whose last job started longest ago goes first (issue 39,
  // fifth re-run: a big domain marked slow by one slow send waited behind an attacker's stalling domain for 6
  // socket timeouts, and could not run the fast send that would have cleared its mark).
  const slow = [...marks.slowUntil.keys()]
    .filter(marks.isSlow)
    .sort((a, b) => (lastStarted.get(a)?.order ?? 0) - (lastStarted.get(b)?.order ?? 0));
  let slowInFlight = 0;
  let untrustedInFlight = 0;
  for (const [d, n] of inFlight) if (slow.includes(d)) slowInFlight += n;
  // A parked job holds no slot, but still counts in its destination's cap and in the slow slot.
  for (const job of running.keys()) if (!parked.has(job) && !marks.proven.has(job.destination!)) untrustedInFlight++;
  // A proven destination runs up to perDestination jobs at once, an untrusted one up to perUntrusted, and the
  // untrusted together leave a slot to the proven (ninth re-run: fresh stalling domains took every slot in turn,
  // and a holder's code at a busy domain, behind the attacker's own codes there, waited a turn of all of them per
  // code: over 60 s).
  const cap = (d: string) => (marks.proven.has(d) ? perDestination : perUntrusted);
  const full = [...inFlight].filter(([d, n]) => !slow.includes(d) && (idleOnly || n >= cap(d))).map(([d]) => d);
  if (slowInFlight > 0) full.push(...slow);
  const remaining: Record<string, number> = { [SLOW_DESTINATIONS]: slowInFlight > 0 ? 0 : 1 };
  for (const [d, n] of inFlight) if (!slow.includes(d)) remaining[d] = Math.max(0, cap(d) - n);
  const trust = {
    proven: [...marks.proven],
    perUntrusted,
    untrustedRemaining: Math.max(0, untrustedSlots - untrustedInFlight),
  };
  if (!idleOnly) return { perDestination, full, slow, remaining, ...trust };
  // Among the idle destinations, turns: a job ranks by when it was due or when its destination last started a job,
  // the later of the two (issue 39, seventh re-run: with more attacker domains than slots one of them was always
  // idle, and older than another holder's code, which waited for the whole backlog again; eighth re-run: ranked
  // by the last start alone, never-seen domains asked for after a holder's code went before it, without end).
  const recent = Object.fromEntries(
    [...lastStarted].slice(-RECENT_MAX).map(([d, { at }]) => [d, new Date(at).toISOString()]),
  );
  return { perDestination, full, slow, remaining, recent, ...trust };
}

/**
 * A worker's bookkeeping of destinations (issue 39 item 2): the jobs in flight with their destination and start,
 * the destinations that answered slowly (until when), and what the next claim may take of each. A destination is
 * slow from the moment one of its jobs has run `slowMs` (still in flight, or finished), so jobs that stall hold
 * their own slots only: the claims after see their destination as slow.
 */
function destinationFairness(
  options: JobWorkerOptions['destinations'],
  concurrency: number,
  now: () => Date,
): {
  active: boolean;
  forClaim(free: number, idleOnly?: boolean): Parameters<typeof repo.claim>[5];
  holdsBack(job: ClaimedJob): boolean;
  /** Records `job` as started; `onPark` runs when it is parked (its slot is free). @returns its release */
  started(job: ClaimedJob, onPark: () => void): () => void;
  finished(job: ClaimedJob, ms: number, succeeded: boolean): void;
  /** Jobs parked now: in flight, holding no slot. */
  parked(): number;
} {
  const perDestination = options
    ? Math.max(1, Math.min(concurrency, options.perDestination ?? concurrency - 1))
    : concurrency;
  /** Jobs in flight that have a destination: when each started (performance.now()). */
  const running = new Map<ClaimedJob, number>();
  /** Jobs in flight parked (holding no slot), and whether each was of an untrusted destination when parked. */
  const parked = new Map<ClaimedJob, boolean>();
  const parkedMax = Math.min(PARKED_MAX, PARKED_PER_SLOT * concurrency);
  /** Milliseconds the last successful jobs took (at most `PARK_SAMPLES`, the oldest first). */
  const samples: number[] = [];
  const marks = destinationMarks(options, now);
  /** Parks `job` if there is room. @returns whether it was parked */
  const park = (job: ClaimedJob): boolean => {
    if (!running.has(job) || parked.has(job)) return false;
    const untrusted = !marks.proven.has(job.destination!);
    let untrustedParked = 0;
    for (const u of parked.values()) if (u) untrustedParked++;
    if (parked.size >= parkedMax || (untrusted && untrustedParked >= parkedMax >> 1)) return false;
    parked.set(job, untrusted);
    return true;
  };
  /**
   * When each destination's last job started: `order` (performance.now()) for the slow slot's turns, `at` (ms since
   * the epoch, the worker's clock) for the idle destinations' (`ClaimFairness.recent`).
   */
  const lastStarted = new Map<string, { order: number; at: number }>();
  /** Untrusted destinations (never proven, or slow) take at most this many slots together: all but one. */
  const untrustedSlots = Math.max(1, concurrency - 1);
  /** One untrusted destination takes at most this many: all the untrusted slots but one. */
  const perUntrusted = Math.max(1, Math.min(perDestination, untrustedSlots - 1));
  return {
    active: Boolean(options),
    forClaim(free, idleOnly = false) {
      if (!options) return { perDestination: free, full: [], slow: [], remaining: {} };
      return claimRules(
        { options, running, parked, marks, lastStarted, perDestination, perUntrusted, untrustedSlots },
        idleOnly,
      );
    },
    holdsBack(job) {
      return Boolean(options) && job.destination !== null;
    },
    started(job, onPark) {
      if (!options || job.destination === null) return () => undefined;
      running.set(job, performance.now());
      const timer =
        options.park === false
          ? undefined
          : setTimeout(
              () => {
                if (park(job)) onPark();
              },
              parkAfterMs(options, samples),
            );
      timer?.unref();
      lastStarted.delete(job.destination);
      lastStarted.set(job.destination, { order: performance.now(), at: now().getTime() });
      if (lastStarted.size > LAST_STARTED_MAX) lastStarted.delete(lastStarted.keys().next().value!);
      return () => {
        clearTimeout(timer);
        running.delete(job);
        parked.delete(job);
      };
    },
    finished(job, ms, succeeded) {
      const d = job.destination;
      if (!options || d === null) return;
      // A parked send is no sample: slow sends that end under the bound would raise the threshold (eleventh re-run).
      if (succeeded && !parked.has(job)) {
        samples.push(ms);
        if (samples.length > PARK_SAMPLES) samples.shift();
      }
      if (ms >= options.slowMs) marks.markSlow(d);
      else if (succeeded && !parked.has(job)) {
        marks.slowUntil.delete(d);
        marks.markProven(d);
      }
    },
    parked: () => parked.size,
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
