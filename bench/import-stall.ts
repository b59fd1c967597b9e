/**
 * The event loop during a large CSV import (issue 24; decisions 021, 027), for `npm run bench`: the longest
 * stretch the server's event loop did not answer while an organisation imports `rows` tickets.
 *
 * Two measures of the same thing:
 * - inside the server: `perf_hooks.monitorEventLoopDelay` (resolution 10 ms) on its main thread, loaded into the
 *   server process with `NODE_OPTIONS=--import=data:…` ({@link loopMonitorEnv}); it answers its histogram on a
 *   port of its own (BENCH_LOOP_PORT), read before and after the import. The stretch is the histogram's largest
 *   value less the 10 ms resolution (the timer's own interval), milliseconds. The target: ≤ 100 ms.
 * - from outside: `/healthz` probed one request at a time during the import; the longest time between two
 *   answers (milliseconds), which adds the load generator's and the network's share.
 *
 * The import is the organiser API's (`POST /v1/org/tickets/import`, text/csv) for a new organisation (the admin
 * key the bench gives the server), one event, one ticket type and a webhook endpoint listening to
 * `ticket.issued` (so the import also queues one delivery per row, as in apps/api/test/import-no-freeze.test.ts).
 */
import { freePort } from '../scripts/postgres.js';

/** The admin key the bench's servers are started with (ADMIN_KEY), to create the importing organisation. */
export const BENCH_ADMIN_KEY = 'bench-admin-key-'.padEnd(40, 'x');
/** monitorEventLoopDelay's resolution, ms: its smallest value is one interval of its timer. */
const RESOLUTION_MS = 10;

/**
 * The preload that runs `monitorEventLoopDelay` on the server's main thread (not on the database thread, not in
 * npm, which the same NODE_OPTIONS reaches) and answers `{ maxMs }` on 127.0.0.1:BENCH_LOOP_PORT (`/reset`
 * empties it). A data: URL, so the compiled server runs unchanged; encoded, it has no space or quote (NODE_OPTIONS).
 */
const PRELOAD = [
  `import { monitorEventLoopDelay } from "node:perf_hooks";`,
  `import { isMainThread } from "node:worker_threads";`,
  `import http from "node:http";`,
  `if (isMainThread && process.argv[1]?.endsWith("server.js")) {`,
  `  const h = monitorEventLoopDelay({ resolution: ${RESOLUTION_MS} }); h.enable();`,
  `  http.createServer((req, res) => { const body = JSON.stringify({ maxMs: h.max / 1e6 });`,
  `    if (req.url === "/reset") h.reset(); res.end(body); }).listen(Number(process.env.BENCH_LOOP_PORT), "127.0.0.1");`,
  `}`,
].join('\n');

/** Environment that loads the loop monitor into a server; returns it and the monitor's URL. */
export async function loopMonitorEnv(): Promise<{ env: NodeJS.ProcessEnv; url: string }> {
  const port = await freePort();
  const preload = `data:text/javascript,${encodeURIComponent(PRELOAD)}`;
  return {
    env: {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${preload}`.trim(),
      BENCH_LOOP_PORT: String(port),
      ADMIN_KEY: BENCH_ADMIN_KEY,
    },
    url: `http://127.0.0.1:${port}`,
  };
}

export interface ImportStall {
  rows: number;
  /** The import's answer: status and milliseconds. */
  status: number;
  importMs: number;
  /** monitorEventLoopDelay's largest value less its resolution, ms. */
  loopStretchMs: number;
  /** The longest time between two `/healthz` answers probed one at a time, ms. */
  healthzGapMs: number;
  probes: number;
}

const json = { 'content-type': 'application/json' };

async function ok(r: Response, what: string) {
  if (!r.ok) throw new Error(`${what}: ${r.status} ${await r.text()}`);
  return r;
}

/**
 * Imports `rows` tickets into a new organisation on the server at `base` while probing it; `monitorUrl` is the
 * server's loop monitor ({@link loopMonitorEnv}). `name` makes the organisation's slug unique.
 */
export async function importStall(base: string, monitorUrl: string, rows: number, name: string): Promise<ImportStall> {
  const slug = `bench-${name}-${Date.now()}`;
  const org = (await (
    await ok(
      await fetch(`${base}/v1/admin/organisations`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${BENCH_ADMIN_KEY}` },
        body: JSON.stringify({ slug, name: `Bench ${name}` }),
      }),
      'create organisation',
    )
  ).json()) as { apiKey: string };
  const orgHeaders = { ...json, authorization: `Bearer ${org.apiKey}` };
  const day = 86_400_000;
  const startsAt = new Date(Date.now() + 10 * day);
  await ok(
    await fetch(`${base}/v1/org/events/evt-1`, {
      method: 'PUT',
      headers: orgHeaders,
      body: JSON.stringify({
        name: 'Stadium',
        venue: 'Arena',
        city: 'Sydney',
        country: 'AU',
        startsAt: startsAt.toISOString(),
        endsAt: new Date(startsAt.getTime() + 8 * 3600_000).toISOString(),
        timeZone: 'Australia/Sydney',
      }),
    }),
    'put event',
  );
  await ok(
    await fetch(`${base}/v1/org/ticket-types/ga`, {
      method: 'PUT',
      headers: orgHeaders,
      body: JSON.stringify({
        eventExternalId: 'evt-1',
        name: 'GA',
        priceCents: 8900,
        currency: 'AUD',
        isGiftable: true,
        isResellable: true,
        isSwappable: false,
      }),
    }),
    'put ticket type',
  );
  await ok(
    await fetch(`${base}/v1/org/webhooks`, {
      method: 'POST',
      headers: orgHeaders,
      body: JSON.stringify({ url: 'https://hooks.example.com/tp', events: ['ticket.issued'] }),
    }),
    'create webhook endpoint',
  );
  const csv = ['externalId,ticketTypeExternalId,holderEmail']
    .concat(Array.from({ length: rows }, (_, i) => `t-${i},ga,fan-${slug}-${i}@bench.test`))
    .join('\n');

  await fetch(`${monitorUrl}/reset`);
  let done = false;
  const started = performance.now();
  const imported = fetch(`${base}/v1/org/tickets/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.apiKey}`, 'content-type': 'text/csv' },
    body: csv,
    signal: AbortSignal.timeout(300_000),
  }).then(async (r) => {
    await r.arrayBuffer();
    done = true;
    return { status: r.status, importMs: performance.now() - started };
  });
  let last = performance.now();
  let gap = 0;
  let probes = 0;
  while (!done) {
    await (await fetch(`${base}/healthz`)).arrayBuffer();
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
    probes++;
    await new Promise((r) => setTimeout(r, 5));
  }
  const result = await imported;
  const { maxMs } = (await (await fetch(monitorUrl)).json()) as { maxMs: number };
  return {
    rows,
    ...result,
    importMs: Math.round(result.importMs),
    loopStretchMs: Math.round(Math.max(0, maxMs - RESOLUTION_MS) * 10) / 10,
    healthzGapMs: Math.round(gap),
    probes,
  };
}
