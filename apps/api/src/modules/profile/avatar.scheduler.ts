/**
 * Who decodes next: the queue in front of the avatar decoding processes, fair by client address (issue 39 item 9).
 *
 * The processes are few (AVATAR_CONCURRENCY) and an in-policy SVG may cost up to its CPU budget each, so an attacker
 * with a few addresses could keep every process and queue place busy with uploads that each stop only at the budget.
 * Three rules keep an ordinary holder's upload moving:
 * 1. **Cost per address.** Each address is charged what its uploads cost (CPU milliseconds the decoding process
 *    spent, or the time it held a process when it was stopped), and `startCostMs` for each upload it asks for
 *    (admitted, queued or refused for a cheaper one: a process's boot, or a place fought for), decaying by half
 *    every `halfLifeMs`.
 * 2. **Cheapest first.** A waiting upload's priority is its address's cost plus what the upload itself is expected
 *    to cost (its `estimateMs`: a raster image by its pixels, an SVG ten budgets, behind every photo). A free
 *    process takes the cheapest (ties: first come). When the queue is full, a newcomer takes the place of a waiting
 *    upload that is dearer than the newcomer, counted without its wait (rule 5: its wait moves it up the queue, it
 *    does not keep a place against a cheaper newcomer; the one pushed out is answered `api.profile.avatar_busy`),
 *    otherwise it is refused. "Dearer" is by the expected cost for an upload expected to cost more than any raster
 *    image (`rasterMaxMs`: an SVG), else by what its keys spent alone: a photo never gives way for its size.
 * 3. **Preemption.** When every process is busy and a running SVG's priority (counted the same way), or a running
 *    photo's keys' cost, is at least `preemptMarginMs` above the cost of the cheapest waiting upload's address, and
 *    above that upload's priority, that running upload is stopped (its process killed, answered
 *    `api.profile.avatar_busy`) and the waiting one takes its process; a newcomer's upload (rule 7) never stops a
 *    holder of a ticket's. With the margin at the SVG budget, an ordinary holder (an avatar costs 50 to 400 ms,
 *    a 12-megapixel HEIC up to 1,800) is never stopped for a newcomer; an address that has spent a full budget is,
 *    and so is any SVG while a photo waits.
 *
 * 4. **A ceiling.** An address whose cost is `maxCostMs` or more is refused at once (`api.profile.avatar_busy`)
 *    until its cost decays below it: what many addresses can keep busy is bounded by their number, and their
 *    refused uploads start no process (each start costs a process's boot, which loaded the machine as much as the
 *    drawing did).
 *
 * 5. **Ageing.** A waiting upload's priority falls by `agingRate` for each millisecond it has waited, by
 *    `agingMaxMs` at most (so an SVG stays behind every photo however long it waited), so a photo is never starved
 *    by a stream of cheaper uploads (issue 39 item 9, tenth re-run: 1 × 1 PNGs from fresh addresses,
 *    each ranked at about 0 ms, kept every photo waiting to its deadline, 0 of 4 through).
 * 6. **Keys.** An upload may be charged to several keys (its client address, then its holder): its cost is the
 *    dearest of theirs, so fresh addresses do not make one holder's uploads cheap again. The address is charged
 *    what the upload cost, the holder `startCostMs` only: a holder's share counts the uploads they ask for, not
 *    their photos' size (a holder who sends a few photos in a row is not dearer than accounts that send 1 × 1 PNGs
 *    as fast as they are answered).
 *
 * 7. **Standing.** Uploads of newcomers (holders of no ticket: each costs an attacker one e-mail sign-in, a ticket
 *    costs money) wait in half the queue's places at most, and a free process takes a holder of a ticket's upload
 *    before any newcomer's; a holder of a ticket who finds the queue full pushes out the dearest newcomer's upload,
 *    whatever it costs (the eleventh re-run:
 *    1 × 1 PNGs from first-time accounts, each charged one start, were cheaper than any photo of 2 megapixels or
 *    more, and a holder's 12-megapixel photos were refused 4 of 4). Between holders of a ticket at a full queue, the
 *    keys that spent the most give way, not the upload expected to cost the most (twelfth re-run: ten ticket
 *    holders' 1 × 1 PNGs kept another holder's photos out); each holder asks for at most
 *    AVATAR_UPLOADS_PER_HOLDER_PER_MINUTE uploads a minute (the route's limit).
 *
 * Each upload has a deadline from its admission, queue wait included (`deadlineMs`): past it, it is answered
 * `api.profile.avatar_timeout` (stopped if running). What is left: addresses never seen before cost nothing yet, so
 * an attacker's first upload from each fresh address and account is ordered by its expected cost and its wait
 * alone (SECURITY.md).
 *
 * Per instance, in memory: at most `MAX_ADDRESSES` addresses are remembered (the cheapest are forgotten first).
 */
import { AppError } from '../../lib/app-error.js';

/** Addresses whose cost is remembered (about 100 bytes each). */
const MAX_ADDRESSES = 10_000;

/** What one upload's work reports: its value and what it cost, CPU milliseconds. */
export interface Costed<T> {
  value: T;
  cpuMs: number;
}

export interface AvatarSchedulerOptions {
  /** Uploads decoding at once (processes). */
  concurrency: number;
  /** Uploads waiting for a process at most. */
  maxQueue: number;
  /** Deadline of one upload from its admission, milliseconds, queue wait included. */
  deadlineMs: number;
  /** How much cheaper the waiting address must be to stop a running upload, milliseconds of cost. */
  preemptMarginMs: number;
  /** Half-life of an address's cost, milliseconds. */
  halfLifeMs: number;
  /** Cost at which an address's uploads are refused until it decays, milliseconds. */
  maxCostMs: number;
  /** How much a waiting upload's priority falls per millisecond waited, milliseconds of cost (rule 5). */
  agingRate: number;
  /** The most a wait takes off a waiting upload's priority, milliseconds of cost (rule 5). */
  agingMaxMs: number;
  /** What starting a decoding process costs, charged to each upload started, milliseconds (rule 1). */
  startCostMs: number;
  /**
   * The estimate of the dearest raster image accepted, milliseconds: an upload expected to cost more (an SVG) may
   * give way for its estimate (rules 2, 3); a photo gives way only for what its keys spent.
   */
  rasterMaxMs: number;
  /** The clock, milliseconds (tests). */
  now?: () => number;
}

interface Entry {
  /** A newcomer's upload (its holder holds no ticket): it takes the newcomers' share only (rule 7). */
  newcomer: boolean;
  /** What it is charged to: its client address key, and its holder's when known. */
  keys: readonly string[];
  /** When it was admitted (the scheduler's clock). */
  admittedAt: number;
  /** What the upload is expected to cost, milliseconds. */
  estimateMs: number;
  work: (signal: AbortSignal) => Promise<Costed<unknown>>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  controller: AbortController;
  timer: ReturnType<typeof setTimeout>;
  startedAt?: number;
  /** Why it was stopped, when it was. */
  stopped?: 'api.profile.avatar_busy' | 'api.profile.avatar_timeout';
}

/** Settles an upload's promise with its outcome and clears its deadline. */
function settle(entry: Entry, outcome: { value: unknown } | { error: unknown }) {
  clearTimeout(entry.timer);
  if ('value' in outcome) entry.resolve(outcome.value);
  else entry.reject(outcome.error);
}

/** Stops a running upload: its work's signal aborts, and it is answered `key` when the work ends. */
function stop(entry: Entry, key: NonNullable<Entry['stopped']>) {
  entry.stopped = key;
  entry.controller.abort(new AppError(key));
}

/**
 * The costs of keys (rules 1 and 6), milliseconds: each charge adds to a key's cost, which decays by half every
 * `halfLifeMs` of the clock `now`; at most {@link MAX_ADDRESSES} keys are remembered (the cheapest are forgotten).
 */
function createCosts(halfLifeMs: number, now: () => number) {
  const costs = new Map<string, { ms: number; at: number }>();

  /** A key's cost now, milliseconds (decayed). */
  function keyCost(key: string): number {
    const c = costs.get(key);
    return c ? c.ms * 0.5 ** ((now() - c.at) / halfLifeMs) : 0;
  }

  /** Charges each of `keys` `ms`. */
  function charge(keys: readonly string[], ms: number) {
    for (const key of keys) {
      const ms0 = keyCost(key);
      costs.delete(key);
      costs.set(key, { ms: ms0 + Math.max(0, ms), at: now() });
    }
    if (costs.size > MAX_ADDRESSES) {
      // Forget the cheapest half (most of them decayed to nothing).
      const sorted = [...costs.keys()].sort((a, b) => keyCost(a) - keyCost(b));
      for (const a of sorted.slice(0, costs.size - MAX_ADDRESSES / 2)) costs.delete(a);
    }
  }

  return {
    keyCost,
    /** The cost of an upload's keys now: the dearest of them, milliseconds. */
    cost: (keys: readonly string[]) => Math.max(0, ...keys.map(keyCost)),
    charge,
  };
}

/**
 * The order of the uploads (rules 2, 3, 5 and 7): which waiting upload a free process takes, which one a newcomer
 * to a full queue takes the place of, and which running upload is stopped for a waiting one. It reads `waiting` (the
 * scheduler's list, in the order of arrival) and never changes it.
 */
function createOrder(
  options: AvatarSchedulerOptions,
  now: () => number,
  cost: (keys: readonly string[]) => number,
  waiting: readonly Entry[],
) {
  /** An upload's place when the queue is full: its keys' cost plus its own expected cost, milliseconds. */
  const dearness = (entry: Entry) => cost(entry.keys) + entry.estimateMs;
  /** A waiting upload's priority (lower first): its dearness, less its wait times `agingRate` (at most `agingMaxMs`). */
  const priority = (entry: Entry) =>
    dearness(entry) - Math.min(options.agingMaxMs, options.agingRate * (now() - entry.admittedAt));

  /** Queue places newcomers' uploads may take together (rule 7). */
  const newcomerPlaces = Math.max(1, Math.floor(options.maxQueue / 2));
  const newcomersWaiting = () => waiting.filter((e) => e.newcomer).length;
  /** Whether `a` goes before `b` to a free process: a holder of a ticket's first (rule 7), then the lower priority. */
  const before = (a: Entry, b: Entry) => (a.newcomer !== b.newcomer ? !a.newcomer : priority(a) < priority(b));

  /** Index in `waiting` of the upload a free process takes next (first come on a tie), or -1. */
  function cheapestWaiting(): number {
    let best = -1;
    for (let i = 0; i < waiting.length; i++) if (best < 0 || before(waiting[i], waiting[best])) best = i;
    return best;
  }

  /** Expected to cost more than any raster image (an SVG): it may give way for its estimate (rules 2, 3). */
  const beyondRaster = (entry: Entry) => entry.estimateMs > options.rasterMaxMs;

  /**
   * Index in `waiting` of the upload among those `among` accepts with the highest `by` (last come on a tie), or -1.
   */
  function mostWaiting(among: (entry: Entry) => boolean, by: (entry: Entry) => number): number {
    let worst = -1;
    for (let i = 0; i < waiting.length; i++)
      if (among(waiting[i]) && (worst < 0 || by(waiting[i]) >= by(waiting[worst]))) worst = i;
    return worst;
  }

  /**
   * Which waiting upload `entry` takes the place of when the queue (or the newcomers' share of it) is full. A holder
   * of a ticket takes the dearest newcomer's, whatever it costs. Otherwise, among the uploads of `entry`'s standing
   * or lower: the dearest upload expected to cost more than any raster image (an SVG), if dearer than `entry` with
   * its start; else the upload whose keys spent the most, if they spent more than `entry`'s with its start. A photo
   * never gives way for its size (the thirteenth re-run: a waiting 12-megapixel photo, expected to cost 600 ms, was
   * pushed out by the next 1 × 1 PNG of an account that had spent less). `entry` is counted with the start it is
   * about to be charged, as each waiting upload was at its admission: else every upload from fresh keys pushed out
   * the one before it. @returns its index, or -1 (`entry` is refused)
   */
  function displaced(entry: Entry): number {
    if (!entry.newcomer) {
      const newcomer = mostWaiting((e) => e.newcomer, dearness);
      if (newcomer >= 0) return newcomer;
    }
    const standing = (e: Entry) => !entry.newcomer || e.newcomer;
    const svg = mostWaiting((e) => standing(e) && beyondRaster(e), dearness);
    if (svg >= 0 && dearness(waiting[svg]) > dearness(entry) + options.startCostMs) return svg;
    const spent = mostWaiting(standing, (e) => cost(e.keys));
    return spent >= 0 && cost(waiting[spent].keys) > cost(entry.keys) + options.startCostMs ? spent : -1;
  }

  /** The running upload to stop for `next`, the upload a free process would take next (rule 3), if any. */
  function victimFor(next: Entry, running: ReadonlySet<Entry>): Entry | undefined {
    // The margin is over the waiting address's cost: its own upload's estimate is what makes it cheap or dear.
    // Dearness, not the aged priority: a wait moves an upload up the queue, it never stops one like it.
    const want = Math.max(cost(next.keys) + options.preemptMarginMs, dearness(next) + 1);
    // What a running upload is stopped for: an SVG its dearness, a photo what its keys spent alone (the thirteenth
    // re-run: a holder's 12-megapixel photo, expected to cost 600 to 1,800 ms, was stopped for a 1 × 1 PNG); and a
    // newcomer's waiting upload never stops a holder of a ticket's (rule 7).
    const claim = (r: Entry) => (beyondRaster(r) ? dearness(r) : cost(r.keys));
    let victim: Entry | undefined;
    for (const r of running)
      if (!r.stopped && (!next.newcomer || r.newcomer) && claim(r) >= want && (!victim || claim(r) > claim(victim)))
        victim = r;
    return victim;
  }

  return {
    cheapestWaiting,
    displaced,
    victimFor,
    /** Whether `entry` finds the queue full: all its places, or for a newcomer the newcomers' share (rule 7). */
    queueFull: (entry: Entry) =>
      waiting.length >= options.maxQueue || (entry.newcomer && newcomersWaiting() >= newcomerPlaces),
  };
}

/** The fair queue described in the module comment: its costs ({@link createCosts}) and order ({@link createOrder}). */
export function createAvatarScheduler(options: AvatarSchedulerOptions) {
  const now = options.now ?? (() => performance.now());
  const waiting: Entry[] = [];
  const running = new Set<Entry>();
  const { keyCost, cost, charge } = createCosts(options.halfLifeMs, now);
  const { cheapestWaiting, displaced, victimFor, queueFull } = createOrder(options, now, cost, waiting);

  function start(entry: Entry) {
    running.add(entry);
    entry.startedAt = now();
    entry.work(entry.controller.signal).then(
      (done) => {
        charge(entry.keys.slice(0, 1), done.cpuMs);
        finish(entry, entry.stopped ? { error: new AppError(entry.stopped) } : { value: done.value });
      },
      (err: unknown) => {
        charge(entry.keys.slice(0, 1), now() - (entry.startedAt ?? now()));
        finish(entry, { error: entry.stopped ? new AppError(entry.stopped) : err });
      },
    );
  }

  function finish(entry: Entry, outcome: { value: unknown } | { error: unknown }) {
    running.delete(entry);
    settle(entry, outcome);
    pump();
  }

  /** Gives free processes to the cheapest waiting uploads, then stops a running upload for a much cheaper one. */
  function pump() {
    for (let next = cheapestWaiting(); running.size < options.concurrency && next >= 0; next = cheapestWaiting())
      start(waiting.splice(next, 1)[0]);
    const best = cheapestWaiting();
    if (best < 0) return;
    const victim = victimFor(waiting[best], running);
    // Its process ends at once; `finish` then starts the cheapest waiting upload.
    if (victim) stop(victim, 'api.profile.avatar_busy');
  }

  return {
    /**
     * Runs `work` when a process is free for it (see the module comment) and answers its value.
     * @param keys what the upload is charged to: the client's address key (`ipKey`) first, then its holder's key
     *   when known (rule 6).
     * @param work the decoding; it must stop when `signal` aborts, and report its CPU cost.
     * @param estimateMs what the upload is expected to cost, milliseconds (0 when nothing is known).
     * @param opts.newcomer its holder holds no ticket (rule 7; default false).
     * @throws AppError `api.profile.avatar_busy` (429) when the address's cost is at the ceiling, when the queue is
     *   full of cheaper uploads, or when it was pushed out of the queue or stopped for a cheaper upload; `api.profile.avatar_timeout` (422) past the
     *   deadline; what `work` throws.
     */
    run<T>(
      keys: string | readonly string[],
      work: (signal: AbortSignal) => Promise<Costed<T>>,
      estimateMs = 0,
      opts: { newcomer?: boolean } = {},
    ): Promise<T> {
      const charged = typeof keys === 'string' ? [keys] : keys;
      if (cost(charged) >= options.maxCostMs) return Promise.reject(new AppError('api.profile.avatar_busy'));
      // Its place is compared with the others' before it is charged: the start counts from the next upload on.
      const startCost = () => charge(charged, options.startCostMs);
      return new Promise<T>((resolve, reject) => {
        const entry: Entry = {
          newcomer: opts.newcomer ?? false,
          keys: charged,
          admittedAt: now(),
          estimateMs,
          work,
          resolve: resolve as (value: unknown) => void,
          reject,
          controller: new AbortController(),
          timer: setTimeout(() => {
            const at = waiting.indexOf(entry);
            if (at >= 0) {
              waiting.splice(at, 1);
              settle(entry, { error: new AppError('api.profile.avatar_timeout') });
            } else if (running.has(entry)) stop(entry, 'api.profile.avatar_timeout');
          }, options.deadlineMs),
        };
        if (running.size < options.concurrency) {
          startCost();
          return start(entry);
        }
        if (queueFull(entry)) {
          const worst = displaced(entry);
          if (worst < 0) {
            startCost();
            return settle(entry, { error: new AppError('api.profile.avatar_busy') });
          }
          const [pushedOut] = waiting.splice(worst, 1);
          settle(pushedOut, { error: new AppError('api.profile.avatar_busy') });
        }
        startCost();
        waiting.push(entry);
        pump();
      });
    },
    /** Uploads decoding (`busy`) and waiting for a process (`queued`) right now. */
    stats: () => ({ busy: running.size, queued: waiting.length }),
    /** A key's cost now, CPU milliseconds (decayed; tests and metrics). */
    cost: keyCost,
  };
}
