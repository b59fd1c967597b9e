/**
 * The app's metrics endpoint and the levels read at scrape time (issue 25, decision 031). Never public by default:
 * with METRICS_TOKEN, `GET /metrics` on the main port answers a `Bearer <METRICS_TOKEN>` (401 otherwise); with
 * METRICS_PORT, a listener of its own on METRICS_HOST (127.0.0.1 by default) answers `GET /metrics` to anyone who
 * can reach it. Without either, there is no /metrics and requests are not timed (the counters still count).
 * Wrong tokens on the main port are limited per client IP like wrong API keys (issue 39): see
 * `registerMetricsTokenRoute`.
 */
import { sameSecret } from '../lib/secrets.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { AppError } from '../lib/app-error.js';
import { bearerOf, type App } from '../lib/http.js';
import { ipKey, guessGuard } from '../lib/rate-limit.js';
import { perScrape, type Metrics } from '../lib/metrics.js';
import { jobQueueStats } from '../providers/jobs/job-queue.js';
import { JOB_LANES, laneOfKind, type JobLane } from '../providers/jobs/job-lanes.js';
import { MAIL_JOB } from '../providers/mail/mail-jobs.js';
import type { Services } from './services.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics registry and counters (lib/metrics.ts). */
    metrics: Metrics;
  }
}

/** Route label of a request no route matched (404s of unknown paths): never the raw URL. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * Decorates the app with `metrics`, adds the scrape-time levels, and serves them as configured.
 * @returns `metricsAddress()`: where the metrics listener listens once the app is ready (null without METRICS_PORT)
 */
export function registerMetrics(
  app: App,
  deps: {
    config: Pick<Config, 'metricsPort' | 'metricsHost' | 'metricsToken' | 'jobQueueAlertSeconds'>;
    database: Database;
  },
  services: Pick<Services, 'access' | 'avatars' | 'outboundWebhooks'>,
  metrics: Metrics,
) {
  const { config, database } = deps;
  app.decorate('metrics', metrics);

  metrics.addGauge({
    name: 'db_pool_connections',
    help: 'Database connections open (pg: the pool; PGlite: its one connection)',
    collect: () => database.poolStats().size,
  });
  metrics.addGauge({
    name: 'db_pool_in_use',
    help: 'Database connections checked out (PGlite: 1 while a statement runs on its thread)',
    collect: () => database.poolStats().inUse,
  });
  metrics.addGauge({
    name: 'db_pool_waiting',
    help: 'Requests waiting for a database connection (PGlite: statements queued on its thread)',
    collect: () => database.poolStats().waiting,
  });
  const webhookQueue = perScrape(() => services.outboundWebhooks.queueStats());
  metrics.addGauge({
    name: 'webhook_queue_depth',
    help: 'Outbound webhook deliveries pending (due or waiting for a retry)',
    collect: async () => (await webhookQueue()).depth,
  });
  metrics.addGauge({
    name: 'webhook_queue_oldest_age_seconds',
    help: 'Seconds since the oldest pending outbound webhook delivery was queued (0 when none is)',
    collect: async () => (await webhookQueue()).oldestAgeSeconds,
  });
  // Every e-mail is a `mail` job of the durable queue (decision 030).
  const mailQueue = perScrape(async () => {
    const stats = (await jobQueueStats(database.db)).find((k) => k.kind === MAIL_JOB);
    return stats ?? { depth: 0, oldestAgeSeconds: 0, oldestDueSeconds: 0, failed: 0 };
  });
  metrics.addGauge({
    name: 'mail_queue_depth',
    help: 'E-mails waiting in the job queue (due, waiting for a retry, or being sent)',
    collect: async () => (await mailQueue()).depth,
  });
  metrics.addGauge({
    name: 'mail_queue_oldest_age_seconds',
    help: 'Seconds since the oldest e-mail waiting in the job queue was enqueued (0 when none is)',
    collect: async () => (await mailQueue()).oldestAgeSeconds,
  });
  metrics.addGauge({
    name: 'mail_queue_failed',
    help: 'E-mails whose attempts ran out, kept for the operator (GET /v1/admin/jobs/failed)',
    collect: async () => (await mailQueue()).failed,
  });
  // How late each lane of the job queue runs (decision 030 amendment, issue 39): the longest a due job has waited, and
  // 1 past JOB_QUEUE_ALERT_SECONDS (the README's alert rule). Read from the shared database: every instance reports
  // the same queue. Not in /readyz: a stuck outside service would take every instance out of the load balancer.
  const laneDue = perScrape(async () => {
    const due = new Map<JobLane, number>(JOB_LANES.map((lane) => [lane, 0]));
    for (const k of await jobQueueStats(database.db)) {
      const lane = laneOfKind(k.kind);
      due.set(lane, Math.max(due.get(lane) ?? 0, k.oldestDueSeconds));
    }
    return [...due].map(([lane, seconds]) => ({ lane, seconds }));
  });
  metrics.addLabelledGauge({
    name: 'job_queue_oldest_due_seconds',
    help: 'Seconds the longest-waiting due job of each lane of the job queue has been due (0 when none is)',
    labelNames: ['lane'],
    collect: async () => (await laneDue()).map(({ lane, seconds }) => ({ labels: { lane }, value: seconds })),
  });
  metrics.addLabelledGauge({
    name: 'job_queue_stalled',
    help: 'Per lane of the job queue: 1 when a due job has waited more than JOB_QUEUE_ALERT_SECONDS, else 0',
    labelNames: ['lane'],
    collect: async () =>
      (await laneDue()).map(({ lane, seconds }) => ({
        labels: { lane },
        value: seconds > config.jobQueueAlertSeconds ? 1 : 0,
      })),
  });
  metrics.addCounter({
    name: 'qr_renders_total',
    help: 'QR pass PNGs rendered by this instance',
    collect: () => services.access.renderCount(),
  });
  metrics.addGauge({
    name: 'avatar_pool_busy',
    help: 'Avatar uploads being checked or decoded',
    collect: () => services.avatars.poolStats().busy,
  });
  metrics.addGauge({
    name: 'avatar_pool_queued',
    help: 'Avatar uploads waiting for a free decoding process',
    collect: () => services.avatars.poolStats().queued,
  });

  const enabled = config.metricsToken !== null || config.metricsPort !== null;
  if (enabled)
    app.addHook('onResponse', (req, reply, done) => {
      const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
      metrics.observeRequest(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });

  let listener: Server | null = null;
  if (config.metricsPort !== null) {
    const port = config.metricsPort;
    app.addHook('onReady', async () => {
      listener = createServer((req, res) => {
        if (req.method !== 'GET' || req.url !== '/metrics') {
          res.writeHead(404).end();
          return;
        }
        metrics.registry.metrics().then(
          (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
          (err: unknown) => {
            app.log.error({ err }, 'metrics: scrape failed');
            res.writeHead(500).end();
          },
        );
      });
      const server = listener;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, config.metricsHost, () => resolve());
      });
    });
    app.addHook('onClose', async () => {
      const server = listener;
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  }

  return {
    /** The metrics listener's address and port (METRICS_PORT=0 takes a free one), or null. */
    metricsAddress: (): AddressInfo | null => (listener?.address() as AddressInfo | null) ?? null,
  };
}

/**
 * `GET /metrics` on the main port when METRICS_TOKEN is set: the metrics to `Authorization: Bearer <METRICS_TOKEN>`
 * (compared as SHA-256 digests in constant time), 401 `api.unauthorized` otherwise. Wrong or missing tokens count
 * against a bucket of their own per client IP (`ipKey`), `keyFailuresPerMinute` a minute
 * (KEY_FAILURES_PER_IP_PER_MINUTE, the limit of wrong API keys); past it they answer 429 `api.too_many_requests`
 * with `Retry-After`, counted as `metrics_token_failures` (issue 39: 40 wrong guesses were 40 × 401), and the
 * address is locked out until the window ends (`guessGuard`): the right token is refused too, or a 429 would only
 * mean "wrong" and guessing would go on at full speed. Call after the rate-limit plugin is registered
 * (`createRateLimit`).
 */
export function registerMetricsTokenRoute(
  app: App,
  config: Pick<Config, 'metricsToken' | 'keyFailuresPerMinute'>,
): void {
  const expected = config.metricsToken;
  if (expected === null) return;
  const failures = app.createRateLimit({
    max: config.keyFailuresPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (req) => `metricsfail:${ipKey(req)}`,
  });
  const guard = guessGuard(failures, 'metrics_token_failures');
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    guard.check(req);
    const token = bearerOf(req);
    if (!token || !sameSecret(token, expected)) {
      await guard.wrong(req);
      throw new AppError('api.unauthorized');
    }
    return reply.type(app.metrics.registry.contentType).send(await app.metrics.registry.metrics());
  });
}
