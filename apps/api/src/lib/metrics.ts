/**
 * The app's metrics (issue 25, decision 031): one prom-client registry per app instance (tests build many apps in
 * one process; prom-client's global default registry is never used), in Prometheus text format. Event counters are
 * counted where the event happens (check-ins, sign-ins, rate-limit refusals); levels (database pool, queues, the
 * avatar pool, QR renders) are read at scrape time from a callback (`addGauge`, `addCounter`). Every label has a
 * bounded set of values: route templates (`/v1/tickets/:userTicketId`), never raw URLs, ids or e-mails. The
 * README's "Metrics" section lists them.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Prefix of every metric name of this service. */
export const METRIC_PREFIX = 'tp_';

/**
 * Buckets of the request duration histogram, in seconds: from the sub-millisecond answers (health, cached reads)
 * to the slow ones (an import, an avatar decode).
 */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** How a door check-in was heard: scanned by an online door, or synced later by an offline one. */
export type CheckInMode = 'online' | 'offline';

/** What a sign-in step did: a code e-mailed, a code verified (session opened), a code refused. */
export type SignInOutcome = 'code_sent' | 'verified' | 'failed';

/** A metric whose value is read when scraped. Name without the `tp_` prefix. */
export interface CollectedMetric {
  /** Metric name without {@link METRIC_PREFIX} (snake_case; counters end in `_total`). */
  name: string;
  /** The HELP line: what it counts, in which unit. */
  help: string;
  /** The current value; may read the database (a scrape waits for it). */
  collect: () => number | Promise<number>;
}

/**
 * A new metrics registry with the event counters and the request histogram.
 * @returns the registry (`registry.metrics()` is the text a scrape answers) and the functions that count
 */
export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  const requestDuration = new Histogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: 'Time from request to answer, seconds, by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const checkIns = new Counter({
    name: `${METRIC_PREFIX}check_ins_total`,
    help: 'Door check-ins judged by the server, by mode (online, offline), result (admitted, refused) and the refusal reason',
    labelNames: ['mode', 'result', 'reason'] as const,
    registers,
  });
  const signIns = new Counter({
    name: `${METRIC_PREFIX}sign_ins_total`,
    help: 'Sign-in steps by outcome: code_sent (a code e-mailed), verified (a session opened), failed (a code refused)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const shedRequests = new Counter({
    name: `${METRIC_PREFIX}shed_requests_total`,
    help: 'Requests refused with 503 api.busy by load shedding (decision 039), by reason: eventLoopDelay, eventLoopUtilization, databaseQueue, inFlight',
    labelNames: ['reason'] as const,
    registers,
  });
  const rateLimitRefusals = new Counter({
    name: `${METRIC_PREFIX}rate_limit_refusals_total`,
    help: 'Requests answered 429 by a rate limit, by limit name',
    labelNames: ['limit'] as const,
    registers,
  });
  const paymentMismatches = new Counter({
    name: `${METRIC_PREFIX}payment_mismatches_total`,
    help: 'Reported payments flagged for the operator (GET /v1/admin/payments/mismatched), by reason: not_paid, session, amount, currency, ended, unknown_payment',
    labelNames: ['reason'] as const,
    registers,
  });

  return {
    registry,

    /**
     * One answered request.
     * @param route the route template (`/v1/tickets/:userTicketId`), or `unmatched` when no route matched
     * @param seconds time from the request's arrival to its answer, seconds
     */
    observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
      requestDuration.observe({ method, route, status_code: statusCode }, seconds);
    },

    /**
     * One door check-in judged (spec section 2; issue 26 point 7's verdicts).
     * @param reason null when it admitted; `exited` when an exit scan was recorded (issue 48); else the check-in log's
     *   verdict (online, the entry rule that refused among them) or the first conflict (offline)
     */
    checkIn(mode: CheckInMode, reason: string | null): void {
      const result = reason === null ? 'admitted' : reason === 'exited' ? 'exited' : 'refused';
      checkIns.inc({ mode, result, reason: reason === 'exited' ? '' : (reason ?? '') });
    },

    /** One sign-in step (spec section 3). */
    signIn(outcome: SignInOutcome): void {
      signIns.inc({ outcome });
    },

    /** One request refused by load shedding (lib/load-shedding.ts), by the bound it was past. */
    shed(reason: string): void {
      shedRequests.inc({ reason });
    },

    /** One request refused by the rate limit named `limit` (lib/rate-limit.ts `LimitName`). */
    rateLimited(limit: string): void {
      rateLimitRefusals.inc({ limit });
    },

    /**
     * One reported payment flagged for the operator (issue 46), counted once however often the provider sends it.
     * @param reason one of the contract's `PAYMENT_MISMATCH_REASONS` (a bounded set)
     */
    paymentMismatch(reason: string): void {
      paymentMismatches.inc({ reason });
    },

    /**
     * Adds a gauge read at scrape time, e.g. a queue's depth:
     * `metrics.addGauge({ name: 'mail_queue_depth', help: '…', collect: async () => (await stats()).depth })`.
     */
    addGauge(metric: CollectedMetric): void {
      new Gauge({
        name: `${METRIC_PREFIX}${metric.name}`,
        help: metric.help,
        registers,
        async collect() {
          this.set(await metric.collect());
        },
      });
    },

    /**
     * Adds a gauge with labels read at scrape time: `collect` answers one value per series (each label's values
     * from a bounded set, e.g. the job queue's lanes); series not answered are dropped.
     */
    addLabelledGauge(
      metric: Omit<CollectedMetric, 'collect'> & {
        labelNames: readonly string[];
        collect: () => Promise<{ labels: Record<string, string>; value: number }[]>;
      },
    ): void {
      new Gauge({
        name: `${METRIC_PREFIX}${metric.name}`,
        help: metric.help,
        labelNames: metric.labelNames,
        registers,
        async collect() {
          const series = await metric.collect();
          this.reset();
          for (const { labels, value } of series) this.set(labels, value);
        },
      });
    },

    /** Adds a counter read at scrape time from a running total kept elsewhere (it never goes down). */
    addCounter(metric: CollectedMetric): void {
      new Counter({
        name: `${METRIC_PREFIX}${metric.name}`,
        help: metric.help,
        registers,
        async collect() {
          const total = await metric.collect();
          this.reset();
          this.inc(total);
        },
      });
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/**
 * `fn` shared by the gauges of one scrape: a call within `ms` of the last gets the same promise (one query feeds
 * a queue's depth and its oldest age).
 */
export function perScrape<T>(fn: () => Promise<T>, ms = 1000): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    const at = Date.now();
    if (!last || at - last.at > ms) last = { at, value: fn() };
    return last.value;
  };
}
