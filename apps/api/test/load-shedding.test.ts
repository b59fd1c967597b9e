/**
 * Load shedding (issue 43, decision 039): while the event loop or the database queue is past its bound, every /v1
 * request answers 503 `api.busy` with Retry-After at once; /healthz, pages and static files are served as usual and
 * /readyz reports the pressure (503) so a load balancer drains the instance. With the default bounds, ordinary
 * requests are never shed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.js';
import type { App } from '../src/lib/http.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Injects `GET url` every 10 ms until `done(status)` holds or `ms` pass; the last answer. */
async function pollUntil(app: TestApp['app'], url: string, done: (status: number) => boolean, ms = 3000) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await app.inject({ url });
    if (done(r.statusCode) || Date.now() > end) return r;
    await sleep(10);
  }
}

describe('load shedding', () => {
  it('with the default bounds, answers ordinary requests and is not under pressure', async () => {
    // The defaults (test/helper.ts turns shedding off for the other files).
    const dataDir = mkdtempSync(join(tmpdir(), 'tp-shed-'));
    const defaults = loadConfig({}, { dataDir, jwtSecret: new Uint8Array(32), scannerKey: 'k', adminKey: 'k' });
    rmSync(dataDir, { recursive: true, force: true });
    const bounds = {
      shedEventLoopDelayMs: defaults.shedEventLoopDelayMs,
      shedEventLoopUtilization: defaults.shedEventLoopUtilization,
      shedDatabaseWaiting: defaults.shedDatabaseWaiting,
      shedSampleIntervalMs: defaults.shedSampleIntervalMs,
      shedMaxInFlight: defaults.shedMaxInFlight,
      shedInFlightWaitMs: defaults.shedInFlightWaitMs,
    };
    expect(bounds).toEqual({
      shedEventLoopDelayMs: 1000,
      shedEventLoopUtilization: 0,
      shedDatabaseWaiting: 100,
      shedSampleIntervalMs: 1000,
      shedMaxInFlight: 64,
      shedInFlightWaitMs: 200,
    });
    t = await createTestApp({ seed: true, config: bounds });
    const answers = await Promise.all(Array.from({ length: 20 }, () => t!.app.inject({ url: '/v1/config' })));
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    expect(t.app.isUnderPressure()).toBe(false);
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ok' });
  });

  it('answers 503 api.busy with Retry-After while the database queue is past its bound, and recovers', async () => {
    t = await createTestApp({
      seed: true,
      config: { shedDatabaseWaiting: 10, shedSampleIntervalMs: 20, shedRetryAfterSeconds: 7, adminKey: 'admin-key' },
    });
    const database = t.database;
    const real = database.poolStats.bind(database);
    // A forced pressure state: 500 statements waiting for the database, as the pool would report them.
    database.poolStats = () => ({ size: 1, inUse: 1, waiting: 500 });
    try {
      const shed = await pollUntil(t.app, '/v1/config', (s) => s === 503);
      expect(shed.statusCode).toBe(503);
      expect(shed.headers['retry-after']).toBe('7');
      expect(shed.json()).toEqual({ message: 'api.busy' });
      // The organiser API's error body keeps its English detail.
      const org = await t.app.inject({
        url: '/v1/admin/organisations',
        headers: { authorization: 'Bearer admin-key' },
      });
      expect(org.statusCode).toBe(503);
      const orgBody = org.json<{ message: string; detail?: string }>();
      expect(orgBody.message).toBe('api.busy');
      expect(orgBody.detail).toContain('Retry-After');
      // Liveness, pages and the panel's files are never shed; readiness reports the pressure.
      expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
      expect((await t.app.inject({ url: '/help' })).statusCode).toBe(200);
      const ready = await t.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('7');
      expect(ready.json()).toMatchObject({ status: 'busy', pressure: 'databaseQueue' });
    } finally {
      database.poolStats = real;
    }
    // The queue drained: the next sample lifts the pressure.
    const back = await pollUntil(t.app, '/v1/config', (s) => s === 200);
    expect(back.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('refuses a /v1 request past SHED_MAX_IN_FLIGHT in flight at once, and takes one again when one ends (issue 44)', async () => {
    const held: (() => void)[] = [];
    t = await createTestApp({
      // A fixed bound (no growth with the pace): the test below shows the growth.
      config: { shedMaxInFlight: 2, shedInFlightWaitMs: 0, shedRetryAfterSeconds: 3, metricsToken: METRICS_TOKEN },
      // A /v1 route that answers when the test lets it: requests held in flight.
      routes: (app) =>
        app.get(
          '/v1/test/held',
          { schema: { hide: true } },
          () => new Promise<{ ok: true }>((resolve) => held.push(() => resolve({ ok: true }))),
        ),
    });
    const first = t.app.inject({ url: '/v1/test/held' });
    const second = t.app.inject({ url: '/v1/test/held' });
    await vi.waitFor(() => expect(held).toHaveLength(2));
    const third = await t.app.inject({ url: '/v1/config' });
    expect(third.statusCode).toBe(503);
    expect(third.headers['retry-after']).toBe('3');
    expect(third.json()).toEqual({ message: 'api.busy' });
    // Not the API: never counted nor shed.
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    held.shift()!();
    expect((await first).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await t!.app.inject({ url: '/v1/config' })).statusCode).toBe(200));
    held.shift()!();
    expect((await second).statusCode).toBe(200);
    // Each shed request counted by its reason.
    const metrics = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.body).toMatch(/shed_requests_total\{reason="inFlight"\} 1\n/);
  });

  it('grows the in-flight bound with the pace: SHED_IN_FLIGHT_WAIT_MS of the last window (decision 051)', async () => {
    const held: (() => void)[] = [];
    const hold = (app: App) =>
      app.get(
        '/v1/test/held',
        { schema: { hide: true } },
        () => new Promise<{ ok: true }>((resolve) => held.push(() => resolve({ ok: true }))),
      );
    const windowPassed = () => new Promise((r) => setTimeout(r, 1050));
    /** After 40 answers in one window (1 s), how many of 6 held requests are admitted. */
    const admittedAfterPace = async (shedInFlightWaitMs: number) => {
      t = await createTestApp({
        config: { shedMaxInFlight: 2, shedInFlightWaitMs, shedSampleIntervalMs: 1000 },
        routes: hold,
      });
      // A window starts at the first request after the last one ended (windows roll as requests come).
      await t.app.inject({ url: '/v1/config' });
      await windowPassed();
      for (let i = 0; i < 40; i++) expect((await t.app.inject({ url: '/v1/config' })).statusCode).toBe(200);
      await windowPassed();
      const requests = Array.from({ length: 6 }, () => t!.app.inject({ url: '/v1/test/held' }));
      // Each is held or refused: wait until every one is one or the other.
      const refused: number[] = [];
      requests.forEach((r, i) => void r.then((res) => res.statusCode === 503 && refused.push(i)));
      await vi.waitFor(() => expect(held.length + refused.length).toBe(6));
      const admitted = held.length;
      for (const release of held.splice(0)) release();
      await Promise.all(requests);
      await t.close();
      t = undefined;
      return admitted;
    };
    // 40 answers in a window of at most 2 s, times 1,000 ms: a bound of 20 or more, over the floor of 2.
    expect(await admittedAfterPace(1000)).toBe(6);
    // The control: no growth, the floor of 2.
    expect(await admittedAfterPace(0)).toBe(2);
  });

  it('answers 503 api.busy after the event loop was blocked past its bound', async () => {
    t = await createTestApp({ config: { shedEventLoopDelayMs: 100, shedSampleIntervalMs: 100 } });
    expect((await t.app.inject({ url: '/v1/config' })).statusCode).toBe(200);
    // The loop blocked for 300 ms at a time: each sample's mean delay is far past 100 ms, whatever the machine's
    // load. A sample decides until the next one (100 ms later), so the request goes right after the sampler's timer
    // (due before the test's own 0 ms timer); once blocked for 1.5 s in one go, a request on a loaded machine came
    // after the next, calm sample and got 200.
    let shed = await t.app.inject({ url: '/v1/config' });
    for (let i = 0; i < 10 && shed.statusCode !== 503; i++) {
      const until = Date.now() + 300;
      while (Date.now() < until) {
        /* busy */
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
      shed = await t.app.inject({ url: '/v1/config' });
    }
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('5');
    expect(shed.json()).toEqual({ message: 'api.busy' });
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});
