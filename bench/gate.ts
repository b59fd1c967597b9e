/**
 * Gate simulation (issue 24; `npm run bench` runs it, or `npx tsx bench/gate.ts` alone after `npm run build`):
 * how many holders one instance serves while the doors are open, on PGlite and on PostgreSQL.
 *
 * An event of N holders, each holding one ticket to an event that is live. During a trial of BENCH_GATE_SECONDS:
 * - every holder's phone polls the pass (`GET /v1/auth/access/qr`) once per the spec's ttl (QR_TTL_SECONDS, the
 *   server's default 30 s; spec section 7): N / ttl requests a second, each a freshly rendered pass;
 * - holders arrive over BENCH_GATE_ARRIVAL_MINUTES (default 30) and open the ticket list on arrival
 *   (`GET /v1/list/ticket_listing?status=UPCOMING`): N / arrival window a second;
 * - the doors sync BENCH_GATE_CHECKINS_PER_MINUTE (default 200) offline check-ins a minute (`POST /v1/access/sync`,
 *   batches of SYNC_BATCH_MAX, real pass codes signed with the server's pass key);
 * - a sign-in storm: BENCH_GATE_SIGNINS_PER_SECOND code requests a second (default N / 1000; distinct e-mails).
 * Requests are sent open-loop at those rates (a late answer does not slow the phones down). Each trial follows
 * WARM_SECONDS (BENCH_GATE_WARM_SECONDS, default 3) of the same load on holders kept for it (WARM_HOLDERS more are
 * seeded, never in a trial), not counted: a real gate's load builds over minutes, and an instance taken from idle
 * to a thousand requests a second in one instant stalls for about a second (its connections, its pool, the JIT)
 * before it settles, which a trial at that N would count against it. The door's codes are signed with `node:crypto`
 * off the generator's thread: pure-JavaScript Ed25519 took the generator's own loop for the length of a batch. A
 * trial passes when
 * the p99 of the holders' answers (pass, listing, sign-in) is ≤ 200 ms and no request failed; a door's sync of
 * 100 check-ins is a batch (each judged in its own transaction), not a person waiting at a screen, so its time is
 * printed beside it and not held to 200 ms. The search starts at BENCH_GATE_HOLDERS (default 20,000) and doubles or halves until it has a passing and a failing N (at most BENCH_GATE_MAX holders, default
 * 40,000, all seeded), then
 * bisects BENCH_GATE_STEPS times (default 2); prints the largest passing N and holders per core. A trial waits at
 * most BENCH_GATE_SETTLE_SECONDS (default 5) for its last answers and then gives them up (the trial fails), and
 * the next starts once `/readyz` (a database round trip) answers within 50 ms again, so an overloaded N costs seconds,
 * not minutes.
 *
 * Holders are seeded with set-based SQL (users, tickets, sign-in sessions: `generate_series`), and their access
 * tokens minted with the server's JWT_SECRET, not signed in one by one. Each trial polls the slice of holders after
 * the previous trial's (wrapping around), so passes are mostly rendered afresh rather than read from the server's
 * per-step cache.
 * The load generator shares the machine's cores with the server (and PostgreSQL): the figures are a floor.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { access, passCode } from '@tp/contract';
import pg from 'pg';
import { startPostgres } from '../scripts/postgres.js';
import { PASS_SIGNING_KEY, SCANNER_KEY, startSeededServer, type Holder } from './seeded-server.js';
import { METRICS_TOKEN, shedReasons } from './shed.js';

const env = (name: string, fallback: number) => Number(process.env[`BENCH_GATE_${name}`] ?? fallback);
const START = env('HOLDERS', 20_000);
const MAX = env('MAX', 40_000);
const SECONDS = env('SECONDS', 15);
const STEPS = env('STEPS', 2);
/**
 * Seconds a trial waits for its last answers after it stops sending; what is still unanswered then is given up
 * (counted at the time it waited, far over the target) and the trial ends: an overloaded N fails in bounded time.
 */
const SETTLE_SECONDS = env('SETTLE_SECONDS', 5);
const ARRIVAL_MINUTES = env('ARRIVAL_MINUTES', 30);
const CHECKINS_PER_MINUTE = env('CHECKINS_PER_MINUTE', 200);
const P99_TARGET_MS = 200;
/** BENCH_GATE_DATABASES: which databases, comma-separated (default both). */
const DATABASES = (process.env.BENCH_GATE_DATABASES ?? 'pglite,postgres').split(',') as ('pglite' | 'postgres')[];
/** The spec's pass ttl: the server's default QR_TTL_SECONDS, which the bench leaves as it is. */
const TTL_SECONDS = 30;
/** BENCH_GATE_PROFILE=dir: the server runs under `node --cpu-prof` and writes its profiles there (one run, for reading). */
const PROFILE_DIR = process.env.BENCH_GATE_PROFILE;
/** BENCH_GATE_PG_STATS=1: PostgreSQL loads pg_stat_statements and its most costly statements are printed (decision 051). */
const PG_STATS = process.env.BENCH_GATE_PG_STATS === '1';
/** BENCH_GATE_ONLY=N: one trial at N holders after the warm-up, no search (e.g. with BENCH_GATE_PROFILE). */
const ONLY = env('ONLY', 0);
/** Seconds of warm-up before each trial, at its rate (see above). */
const WARM_SECONDS = env('WARM_SECONDS', 3);
/** Holders seeded for the warm-ups alone: a trial's passes are never rendered in its warm-up's time step. */
const WARM_HOLDERS = 5000;
/** The door signs its codes with node:crypto (WebCrypto runs on libuv's pool), not the generator's own thread. */
const doorEd25519 = passCode.webCryptoEd25519();

type Kind = 'pass' | 'listing' | 'sync' | 'sign-in';
interface Trial {
  holders: number;
  requests: number;
  failed: number;
  /** Failed answers by kind and status ("pass 503", "sign-in error"). */
  failedBy: Record<string, number>;
  p50: number;
  p99: number;
  byKind: Record<Kind, { n: number; p99: number }>;
  /** The slowest door sync (ms): reported, not held to the target. */
  syncMaxMs: number;
  passed: boolean;
  /** Requests still unanswered SETTLE_SECONDS after the last was sent: abandoned, counted at that time. */
  abandoned: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : NaN;

/**
 * One trial at `n` holders (the slice starting at `offset` of `all`); `tag` names its sign-in storm's e-mails
 * (distinct from every other trial's).
 */
async function trial(
  base: string,
  all: Holder[],
  offset: number,
  n: number,
  eventId: number,
  agent: http.Agent,
  seconds = SECONDS,
  tag = String(offset),
): Promise<Trial> {
  const holder = (i: number) => all[(offset + i) % all.length];
  const latencies: Record<Kind, number[]> = { pass: [], listing: [], sync: [], 'sign-in': [] };
  let failed = 0;
  /** Failed answers by status (`error`: no answer, the connection failed), to tell shedding from limits. */
  const failedBy: Record<string, number> = {};
  let abandoned = 0;
  const pending = new Set<http.ClientRequest>();
  const url = new URL(base);
  const send = (kind: Kind, method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<void>((done) => {
      const t0 = performance.now();
      let settled = false;
      /** Records the request once: answered (`ok` by status), failed, or given up at the end of the trial. */
      const finish = (outcome: 'ok' | 'failed' | 'abandoned', status = 'error') => {
        if (settled) return;
        settled = true;
        pending.delete(req);
        latencies[kind].push(performance.now() - t0);
        if (outcome === 'failed') {
          failed++;
          failedBy[`${kind} ${status}`] = (failedBy[`${kind} ${status}`] ?? 0) + 1;
        }
        // A door's batch is reported (its time), not held to the target.
        if (outcome === 'abandoned' && kind !== 'sync') abandoned++;
        done();
      };
      const req = http.request(
        { host: url.hostname, port: url.port, method, path, agent, headers, timeout: 30_000 },
        (res) => {
          res.resume();
          res.on('end', () => finish(res.statusCode === 200 ? 'ok' : 'failed', String(res.statusCode)));
        },
      );
      req.on('error', () => finish(pending.has(req) ? 'failed' : 'abandoned'));
      // Destroyed at the end of the trial (or mid-answer): no 'end' will come.
      req.on('close', () => finish(pending.has(req) ? 'failed' : 'abandoned'));
      req.on('timeout', () => req.destroy());
      pending.add(req);
      req.end(body);
    });

  const rates: Record<Kind, number> = {
    pass: n / TTL_SECONDS,
    listing: n / (ARRIVAL_MINUTES * 60),
    sync: CHECKINS_PER_MINUTE / access.SYNC_BATCH_MAX / 60,
    'sign-in': env('SIGNINS_PER_SECOND', n / 1000),
  };
  let admitted = 0;
  const make: Record<Kind, (i: number) => Promise<void>> = {
    pass: (i) => send('pass', 'GET', '/v1/auth/access/qr', { authorization: holder(i).authorization }),
    listing: (i) =>
      send('listing', 'GET', '/v1/list/ticket_listing?status=UPCOMING', {
        authorization: holder(n - 1 - (i % n)).authorization,
      }),
    sync: async () => {
      const step = Math.floor(Date.now() / 1000 / TTL_SECONDS);
      const batch = Array.from({ length: access.SYNC_BATCH_MAX }, () => holder(admitted++ % n));
      const items = await Promise.all(
        batch.map(async (h) => ({
          id: randomUUID(),
          code: await passCode.signServerCode(PASS_SIGNING_KEY, h.userId, step, doorEd25519),
          scannedAt: new Date().toISOString(),
          userTicketIds: [h.userTicketId],
        })),
      );
      return send(
        'sync',
        'POST',
        '/v1/access/sync',
        { 'content-type': 'application/json', 'x-scanner-key': SCANNER_KEY },
        JSON.stringify({ eventId, items }),
      );
    },
    'sign-in': (i) =>
      send(
        'sign-in',
        'POST',
        '/v1/auth/signInOrRegisterAndSignIn',
        { 'content-type': 'application/json' },
        JSON.stringify({ email: `storm-${tag}-${i}@bench.test` }),
      ),
  };

  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  const sent: Record<Kind, number> = { pass: 0, listing: 0, sync: 0, 'sign-in': 0 };
  for (;;) {
    const elapsed = (performance.now() - started) / 1000;
    if (elapsed >= seconds) break;
    for (const kind of Object.keys(rates) as Kind[]) {
      // The first sync goes out at once, then at its rate (a trial is shorter than a minute).
      const due = Math.floor(elapsed * rates[kind]) + (kind === 'sync' ? 1 : 0);
      while (sent[kind] < due) inFlight.push(make[kind](sent[kind]++));
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  const settled = await Promise.race([
    Promise.all(inFlight).then(() => true),
    new Promise<false>((r) => setTimeout(() => r(false), SETTLE_SECONDS * 1000)),
  ]);
  if (!settled) {
    const gaveUp = [...pending];
    pending.clear(); // each counts as abandoned, at the time waited, when it closes
    for (const req of gaveUp) req.destroy();
    await Promise.all(inFlight);
  }
  const every = [...latencies.pass, ...latencies.listing, ...latencies['sign-in']].sort((a, b) => a - b);
  const syncs = [...latencies.sync].sort((a, b) => a - b);
  const byKind = Object.fromEntries(
    (Object.keys(latencies) as Kind[]).map((k) => {
      const sorted = [...latencies[k]].sort((a, b) => a - b);
      return [k, { n: sorted.length, p99: Math.round(percentile(sorted, 0.99)) }];
    }),
  ) as Trial['byKind'];
  const p99 = Math.round(percentile(every, 0.99));
  return {
    holders: n,
    requests: every.length,
    failed,
    failedBy,
    p50: Math.round(percentile(every, 0.5)),
    p99,
    byKind,
    syncMaxMs: Math.round(syncs.at(-1) ?? NaN),
    passed: failed === 0 && abandoned === 0 && p99 <= P99_TARGET_MS,
    abandoned,
  };
}

/**
 * Waits (at most 60 s) until `/readyz` (a database round trip) answers within 50 ms: the backlog of an overloaded
 * trial is worked off. Not `/healthz`: the requests a trial gave up on still run their statements, and on PGlite they
 * queue on its one connection while the event loop is free (a trial after an overload then failed at half the N that
 * passed before it).
 */
async function quiet(base: string) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const t0 = performance.now();
    const ok = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok && performance.now() - t0 < 50) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The trial's sheds by the server's reason (`tp_shed_requests_total` before and after), e.g. " shed by inFlight 30". */
function shedBy(before: Record<string, number>, after: Record<string, number>): string {
  const by = Object.entries(after)
    .map(([reason, count]) => [reason, count - (before[reason] ?? 0)] as const)
    .filter(([, count]) => count > 0);
  return by.length ? ` shed by ${by.map(([reason, count]) => `${reason} ${count}`).join(', ')}` : '';
}

/** The search over N on one server; returns the largest passing N (0 when even the smallest tried fails). */
async function search(name: string, base: string, seeded: Holder[], eventId: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const tried: Trial[] = [];
  const all = seeded.slice(0, seeded.length - WARM_HOLDERS);
  const warm = seeded.slice(-WARM_HOLDERS);
  let offset = 0;
  let warmUps = 0;
  const run = async (n: number) => {
    // The warm-up at this N (its holders come round again within a step: their passes are served from the cache).
    await trial(base, warm, 0, n, eventId, agent, WARM_SECONDS, `warm-${warmUps++}`);
    const shedBefore = await shedReasons(base);
    const t = await trial(base, all, offset, n, eventId, agent);
    const shedAfter = await shedReasons(base);
    offset += n;
    await quiet(base);
    tried.push(t);
    const kinds = Object.entries(t.byKind)
      .filter(([k]) => k !== 'sync')
      .map(([k, v]) => `${k} ${v.n} p99 ${v.p99}`)
      .join(', ');
    console.log(
      `  ${name.padEnd(8)} N ${String(n).padStart(6)}: ${t.passed ? 'pass' : 'FAIL'}  p50 ${t.p50} ms  p99 ${t.p99} ms  failed ${t.failed}${
        t.failed
          ? ` [${Object.entries(t.failedBy)
              .map(([k, v]) => `${k}: ${v}`)
              .join(', ')}]`
          : ''
      }${shedBy(shedBefore, shedAfter)}${t.abandoned ? `  abandoned ${t.abandoned}` : ''}  (${kinds}; door sync ${t.byKind.sync.n}, slowest ${t.syncMaxMs} ms)`,
    );
    return t.passed;
  };
  let pass = 0;
  let fail = 0;
  if (ONLY) {
    await run(ONLY);
    agent.destroy();
    return { largest: tried[0].passed ? ONLY : 0, firstFailing: tried[0].passed ? null : ONLY, tried };
  }
  let n = Math.min(START, MAX);
  while (pass === 0 || fail === 0) {
    if (await run(n)) {
      pass = n;
      if (n >= MAX) break;
      n = Math.min(MAX, n * 2);
    } else {
      fail = n;
      if (n <= 250) break;
      n = Math.floor(n / 2);
    }
  }
  for (let i = 0; i < STEPS && pass > 0 && fail > 0 && fail - pass > 500; i++) {
    const mid = Math.round((pass + fail) / 2 / 100) * 100;
    if (await run(mid)) pass = mid;
    else fail = mid;
  }
  agent.destroy();
  return { largest: pass, firstFailing: fail || null, tried };
}

/** Prints PostgreSQL's 15 statements of most execution time (pg_stat_statements): calls, total and mean ms. */
async function printStatements(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_stat_statements');
    const { rows } = await client.query(`select calls, round(total_exec_time) as total_ms,
      round((total_exec_time / calls)::numeric, 3) as mean_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as query
      from pg_stat_statements order by total_exec_time desc limit 15`);
    console.table(rows);
  } finally {
    await client.end();
  }
}

/** Runs the search on PGlite and on PostgreSQL; returns the figures for bench/results.json. */
export async function benchGate() {
  const seedCount = MAX + WARM_HOLDERS;
  const results: Record<string, unknown> = {};
  const postgres = await startPostgres(
    PG_STATS ? '-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all' : undefined,
  );
  try {
    for (const name of DATABASES) {
      const t0 = Date.now();
      const seeded = await startSeededServer(name === 'postgres' ? postgres.url('postgres') : null, seedCount, {
        nodeArgs: PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : undefined,
        env: { METRICS_TOKEN },
      });
      try {
        console.log(
          `\n${name}: ${seeded.holders.length} holders seeded and their tokens minted in ${Date.now() - t0} ms`,
        );
        const found = await search(name, seeded.base, seeded.holders, seeded.event);
        const perCore = Math.round(found.largest / cpus().length);
        console.log(
          `  ${name}: largest N with p99 ≤ ${P99_TARGET_MS} ms: ${found.largest} holders (${perCore} per core, ${cpus().length} cores)`,
        );
        results[name] = { ...found, holdersPerCore: perCore };
      } finally {
        if (PG_STATS && name === 'postgres') await printStatements(postgres.url('postgres'));
        await seeded.stop();
      }
    }
  } finally {
    postgres.stop();
  }
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(`  load average after: ${load}`);
  return {
    ...results,
    settings: { START, MAX, SECONDS, STEPS, WARM_SECONDS, ARRIVAL_MINUTES, CHECKINS_PER_MINUTE },
    load,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) await benchGate();
