/**
 * Issue 19 break 3 / issues 24, 44: a large import must not freeze the instance (decisions 021, 027, 040).
 * While it runs, `/healthz` and a page (the demo host page, which names the first organisation) answer within
 * 100 ms at p99, a holder's `/v1/auth/me` and ticket listing within 1 s at p99,
 * `perf_hooks.monitorEventLoopDelay` sees no stall over 100 ms, and the import stays all or nothing (a bad last
 * row leaves nothing). The import runs in the background (202, then followed at GET /v1/org/imports/{importId}
 * until done), in chunks of short transactions, on both databases alike. Rows: 10,000 here (the CI's time);
 * `IMPORT_NO_FREEZE_ROWS=50000` measures a stadium's file for decision 040's table. One row more than the contract's
 * `IMPORT_MAX_ROWS` (50,000) answers 413 naming the limit.
 *
 * Machine load: the probes run first at rest, in the same test, and each bound is the issue's target plus
 * twice the figure measured at rest in this run (on a quiet machine a few milliseconds: the target itself; on
 * the 2-core machine shared by six sessions the figure at rest is 50-350 ms, and a bound without it would
 * measure the neighbours). The figures are printed for the decision's table.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { organisations } from '@tp/contract';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
/** Rows of the import (10,000; `IMPORT_NO_FREEZE_ROWS=50000` for decision 040's figures). */
const ROWS = Number(process.env.IMPORT_NO_FREEZE_ROWS ?? 10_000);
/** The targets, in milliseconds. */
const TARGET = { health: 100, page: 100, me: 1000, listing: 1000, stall: 100 };
/** The documented bound (see above): the target plus twice the figure at rest in this run. */
const budget = (k: keyof typeof TARGET, atRest: number) => TARGET[k] + 2 * atRest;

let t: TestApp;
let dist: string;
beforeEach(async () => {
  dist = mkdtempSync(join(tmpdir(), 'tp-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html lang="en"><body><div id="root"></div></body></html>');
  t = await createTestApp({ config: { adminKey: ADMIN, panelDistDir: dist, jobPollMs: 250 }, runJobs: false });
});
afterEach(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];
type Figures = Record<'health' | 'page' | 'me' | 'listing' | 'stall', number> & { probes: number };

/**
 * Probes `/healthz`, the panel's index, `/v1/auth/me` and the ticket listing, each in its own loop (a slow
 * answer of one does not hold back the others), on a fixed schedule from the start until `until` settles. A
 * probe's time runs from when it was due, not from when it could be sent: when the event loop was blocked,
 * every probe due meanwhile counts as waiting until the answer came (the coordinated-omission correction), so
 * a frozen instance shows as frozen even though no probe could run. The event loop's longest stall beside,
 * from `monitorEventLoopDelay` and from the gaps between the ticks of a 10 ms timer.
 */
async function probe(token: string, until: Promise<unknown>): Promise<Figures> {
  let done = false;
  const settled = until.then(
    () => (done = true),
    () => (done = true),
  );
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let lastTick = performance.now();
  let maxGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - lastTick);
    lastTick = now;
  }, 10);
  const t0 = performance.now();
  const timed = async (url: string, auth: boolean, everyMs: number) => {
    const times: number[] = [];
    let k = 0;
    do {
      const due = t0 + k * everyMs;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const res = await t.app.inject({ url, headers: auth ? bearer(token) : {} });
      const end = performance.now();
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      // This probe and every one due before its answer came.
      do times.push(end - (t0 + k++ * everyMs));
      while (t0 + k * everyMs < end);
    } while (!done);
    return times;
  };
  const [health, page, me, listing] = await Promise.all([
    timed('/healthz', false, 20),
    timed('/', false, 20),
    timed('/v1/auth/me', true, 50),
    timed('/v1/list/ticket_listing?status=UPCOMING', true, 50),
    settled,
  ]);
  await sleep(30); // the monitor's own timer records a stall when it next fires
  clearInterval(ticker);
  maxGap = Math.max(maxGap, performance.now() - lastTick);
  loop.disable();
  return {
    health: p99(health),
    page: p99(page),
    me: p99(me),
    listing: p99(listing),
    stall: Math.max(0, Math.max(loop.max / 1e6, maxGap) - 10),
    probes: health.length,
  };
}

const round = (f: Figures) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, Math.round(v)]));

function expectWithinTargets(during: Figures, rest: Figures) {
  for (const k of ['health', 'page', 'me', 'listing', 'stall'] as const)
    expect(during[k], `${k} p99 ${Math.round(during[k])} ms (at rest ${Math.round(rest[k])} ms)`).toBeLessThanOrEqual(
      budget(k, rest[k]),
    );
}

it('the largest import leaves the event loop, /healthz, pages and holder calls answering; all or nothing', async () => {
  const org = (
    await t.app.inject({
      method: 'POST',
      url: '/v1/admin/organisations',
      headers: bearer(ADMIN),
      payload: { slug: 'big', name: 'Big Org' },
    })
  ).json<{ id: number; apiKey: string }>();
  const put = (path: string, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(org.apiKey), payload });
  const day = 86_400_000;
  const at = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
  expect(
    (
      await put('events/evt-1', {
        name: 'Stadium',
        venue: 'Arena',
        city: 'Sydney',
        country: 'AU',
        startsAt: at(10 * day),
        endsAt: at(10 * day + 8 * 3600_000),
        timeZone: 'Australia/Sydney',
      })
    ).statusCode,
  ).toBe(201);
  const type = { eventExternalId: 'evt-1', name: 'GA', priceCents: 8900, currency: 'AUD' };
  expect(
    (await put('ticket-types/ga', { ...type, isGiftable: true, isResellable: true, isSwappable: false })).statusCode,
  ).toBe(201);
  // The organisation listens to ticket.issued: the import also queues 10,000 webhook deliveries.
  expect(
    (
      await t.app.inject({
        method: 'POST',
        url: '/v1/org/webhooks',
        headers: bearer(org.apiKey),
        payload: { url: 'https://hooks.example.com/tp', events: ['ticket.issued'] },
      })
    ).statusCode,
  ).toBe(201);
  const { accessToken } = await t.signIn('holder@example.com');
  const csv = (n: number, bad = false) =>
    ['externalId,ticketTypeExternalId,holderEmail']
      .concat(Array.from({ length: n }, (_, i) => `t-${i},${bad && i === n - 1 ? 'nope' : 'ga'},fan${i}@example.com`))
      .join('\n');
  const importCsv = (body: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/org/tickets/import',
      headers: { ...bearer(org.apiKey), 'content-type': 'text/csv' },
      payload: body,
    });
  /** Sends the file (202) and follows its import, once a second as the console does, until done or failed. */
  const importInBackground = async (body: string) => {
    const sent = performance.now();
    let polls = 0;
    const accepted = await importCsv(body);
    expect(accepted.statusCode, accepted.body).toBe(202);
    const { importId } = accepted.json<{ importId: string }>();
    for (;;) {
      const r = await t.app.inject({ url: `/v1/org/imports/${importId}`, headers: bearer(org.apiKey) });
      expect(r.statusCode, r.body).toBe(200);
      const s = r.json<organisations.ImportStatus>();
      if (s.status === 'done' || s.status === 'failed') return s;
      if (process.env.IMPORT_NO_FREEZE_ROWS && ++polls % 20 === 0)
        console.log(`${Math.round(performance.now() - sent)} ms: ${s.status} ${s.rowsDone}/${s.rowsTotal}`);
      await sleep(250);
    }
  };
  const count = async (table: string) =>
    Number((await rawQuery<{ n: string }>(t.database.db, `select count(*) as n from ${table}`)).rows[0].n);
  const users = await count('users');
  // One row more than any import takes is refused before anything is checked or written.
  const tooMany = await importCsv(csv(organisations.IMPORT_MAX_ROWS + 1));
  expect(tooMany.statusCode).toBe(413);
  expect(tooMany.json()).toMatchObject({ message: 'api.org.import.too_many_rows' });
  expect(tooMany.json<{ detail: string }>().detail).toContain(`at most ${organisations.IMPORT_MAX_ROWS} data rows`);

  for (const url of ['/healthz', '/', '/v1/auth/me', '/v1/list/ticket_listing?status=UPCOMING'])
    await t.app.inject({ url, headers: bearer(accessToken) }); // warm: the first answer of a route compiles it
  // As long as an import takes on a quiet machine: the worst of a longer window is larger on a loaded one.
  const rest = await probe(accessToken, sleep(3000));

  // All or nothing: the last of the rows names an unknown type; nothing is written.
  const refusedAt = performance.now();
  const refused = importInBackground(csv(ROWS, true));
  const whileRefused = await probe(accessToken, refused);
  const refusal = await refused;
  const refusedMs = performance.now() - refusedAt;
  expect(refusal).toMatchObject({ status: 'failed', errors: [{ row: ROWS + 1, field: 'ticketTypeExternalId' }] });
  expect(await count('user_tickets')).toBe(0);
  expect(await count('users')).toBe(users);
  expect(await count('webhook_deliveries')).toBe(0);

  const started = performance.now();
  const accepted = importInBackground(csv(ROWS));
  const during = await probe(accessToken, accepted);
  const res = await accepted;
  const importMs = performance.now() - started;
  expect(res).toMatchObject({ status: 'done', rowsDone: ROWS, created: ROWS });
  expect(await count('user_tickets')).toBe(ROWS);
  expect(await count('webhook_deliveries')).toBe(ROWS);

  console.log(
    JSON.stringify({
      database: t.database.kind,
      rows: ROWS,
      rest: round(rest),
      whileRefused: round(whileRefused),
      refusedMs: Math.round(refusedMs),
      during: round(during),
      importMs: Math.round(importMs),
    }),
  );
  expectWithinTargets(whileRefused, rest);
  expectWithinTargets(during, rest);
}, 900_000);
