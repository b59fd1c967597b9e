/**
 * Load shedding (issue 43, decision 039): `@fastify/under-pressure` samples the event loop and the database queue
 * every `SHED_SAMPLE_INTERVAL_MS`; while a sample is past its bound, every `/v1` request is refused at once with
 * 503 `api.busy` and `Retry-After` instead of queueing behind the work the instance cannot finish. Pages, static
 * files, `/healthz`, `/readyz` and `/metrics` are never shed: the panel's document and assets are cheap and let the
 * panel show its "busy, try again" message; `/readyz` reports the pressure itself (503) so a load balancer drains
 * the instance; `/healthz` stays a liveness probe that a busy instance still passes.
 *
 * A second bound needs no sample (issue 44): at most so many `/v1` requests are handled at once; one more is refused
 * at once the same way. The samples see an overload a window late and then shed every request of the next window;
 * the in-flight bound keeps serving at capacity and refuses only the excess, so past capacity the instance still
 * serves nearly its capacity in 2xx (bench/shed.ts measures it at three times capacity). The bound is
 * `SHED_MAX_IN_FLIGHT`, or more at a faster pace: the `/v1` requests finished in the last window times
 * `SHED_IN_FLIGHT_WAIT_MS` (decision 051), so an admitted request waits behind about that long of work.
 */
import fastifyUnderPressure from '@fastify/under-pressure';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { AppError } from './app-error.js';
import type { App } from './http.js';

/** Why an instance sheds: the kinds of bound `@fastify/under-pressure` reports, `healthCheck` being the database queue. */
export type PressureReason = 'eventLoopDelay' | 'eventLoopUtilization' | 'databaseQueue';
/** Why a request was shed: a sampled pressure, or `inFlight` (too many `/v1` requests being handled at once). */
export type ShedReason = PressureReason | 'inFlight';

/** The bounds and timing of load shedding, from the config (each bound 0 = not checked). */
export type SheddingConfig = Pick<
  Config,
  | 'shedEventLoopDelayMs'
  | 'shedEventLoopUtilization'
  | 'shedDatabaseWaiting'
  | 'shedSampleIntervalMs'
  | 'shedRetryAfterSeconds'
  | 'shedMaxInFlight'
  | 'shedInFlightWaitMs'
>;

/** True for the requests load shedding refuses under pressure: the /v1 API. */
const shedPath = (req: FastifyRequest) => req.url.startsWith('/v1/');

/**
 * The bound on `/v1` requests in flight: `shedMaxInFlight`, or `shedInFlightWaitMs` of the pace of the last window of
 * `shedSampleIntervalMs` (requests finished a millisecond), whichever is more. Windows roll as requests come (no
 * timer): a window that ran longer (an idle spell) divides its count by its real length.
 * - `admit()`: false when as many as the bound are in flight; else counts one more;
 * - `finished()`: one less in flight, one more finished in this window;
 * - `count()`: the `/v1` requests in flight now (0 with no bound).
 */
function inFlightBound(config: SheddingConfig) {
  const floor = config.shedMaxInFlight;
  let bound = floor;
  let now = 0;
  let finishedInWindow = 0;
  let windowStart = performance.now();
  const roll = () => {
    const at = performance.now();
    const elapsed = at - windowStart;
    if (elapsed < config.shedSampleIntervalMs) return;
    bound = Math.max(floor, Math.ceil((finishedInWindow * config.shedInFlightWaitMs) / elapsed));
    finishedInWindow = 0;
    windowStart = at;
  };
  return {
    admit(): boolean {
      roll();
      if (now >= bound) return false;
      now++;
      return true;
    },
    finished: (): void => {
      now--;
      finishedInWindow++;
    },
    count: () => now,
  };
}

/**
 * Registers `@fastify/under-pressure` on `app` (root scope: it sees every route).
 * - event loop delay: the mean delay of the last sample window, milliseconds, past `shedEventLoopDelayMs`;
 * - event loop utilisation: the share (0-1) of the last window the loop was busy, past `shedEventLoopUtilization`
 *   (per window, `interval` mode; the plugin's default mode averages since start, which never recovers);
 * - database queue: `database.poolStats().waiting` (the `pg` pool's waiting clients, or the statements queued for
 *   PGlite's thread) past `shedDatabaseWaiting` more than the `/v1` requests in flight (each waits for at most one
 *   connection: the in-flight bound is theirs), sampled on the same interval: the backstop for work that is not
 *   `/v1` (jobs, imports) and for a database that stopped answering.
 * Event loop samples taken within two windows of the app's `onReady` are ignored (the boot's own stall).
 * - requests in flight: a `/v1` request that finds the in-flight bound of others being handled (counted from this
 *   `onRequest` hook until its response closes, an aborted one too) is refused; not sampled, not in `pressure()`
 *   (a momentary peak must not take the instance out of a load balancer). The bound: `shedMaxInFlight`, or
 *   `shedInFlightWaitMs` of the last window's pace (`/v1` requests finished a millisecond) when that is more.
 * A shed request answers 503 `{ "message": "api.busy" }` with `Retry-After: shedRetryAfterSeconds` (seconds) and
 * counts in `onShed(reason)` (the metrics' `shed_requests_total`). Both hooks run before the body is read, the rate
 * limits counted or any handler run: a shed request did nothing, and a client may send it again, a POST too.
 * @returns `pressure()`: the reason the instance is under pressure now, or null (for `/readyz`)
 */
export async function registerLoadShedding(
  app: App,
  config: SheddingConfig,
  database: Pick<Database, 'poolStats'>,
  onShed: (reason: ShedReason) => void,
): Promise<{ pressure: () => PressureReason | null }> {
  const waitingBound = config.shedDatabaseWaiting;
  let databaseQueued = false;
  const inFlight = inFlightBound(config);
  // The boot (routes compiled, plugins loaded) blocks the loop for a while: the event loop samples count from the
  // first window that started after the app was ready (the plugin's histogram runs from its registration).
  let warmUntil = Infinity;
  app.addHook('onReady', (done) => {
    warmUntil = performance.now() + 2 * config.shedSampleIntervalMs;
    done();
  });
  const warming = (type: string) => type !== 'healthCheck' && performance.now() < warmUntil;
  const busy = () => new AppError('api.busy', {}, { 'retry-after': String(config.shedRetryAfterSeconds) });
  await app.register(fastifyUnderPressure, {
    sampleInterval: config.shedSampleIntervalMs,
    maxEventLoopDelay: config.shedEventLoopDelayMs,
    maxEventLoopUtilization: config.shedEventLoopUtilization,
    eventLoopUtilizationMode: 'interval',
    // The database queue as the plugin's "external health check": synchronous counters, no query.
    healthCheck: () => {
      databaseQueued = waitingBound > 0 && database.poolStats().waiting > waitingBound + inFlight.count();
      return Promise.resolve(!databaseQueued);
    },
    healthCheckInterval: config.shedSampleIntervalMs,
    retryAfter: config.shedRetryAfterSeconds,
    pressureHandler: (req, _reply, type) => {
      // Not the API (pages, static files, probes, metrics), or the boot's own stall: served as usual.
      if (!shedPath(req) || warming(type)) return;
      const reason: PressureReason = type === 'healthCheck' ? 'databaseQueue' : (type as PressureReason);
      onShed(reason);
      // A rejected promise: the plugin hands the error to the error handler (one error type, `detail` on /v1/org).
      return Promise.reject(busy());
    },
  });
  // After the plugin's hook: a request it sheds is not counted.
  if (config.shedMaxInFlight > 0)
    app.addHook('onRequest', (req, reply, done) => {
      if (!shedPath(req)) return done();
      if (!inFlight.admit()) {
        onShed('inFlight');
        return done(busy());
      }
      reply.raw.once('close', inFlight.finished);
      done();
    });
  return {
    pressure() {
      if (!app.isUnderPressure()) return null;
      if (databaseQueued) return 'databaseQueue';
      if (warming('eventLoop')) return null;
      const { eventLoopDelay } = app.memoryUsage();
      const delayBound = config.shedEventLoopDelayMs;
      return delayBound > 0 && eventLoopDelay > delayBound ? 'eventLoopDelay' : 'eventLoopUtilization';
    },
  };
}
