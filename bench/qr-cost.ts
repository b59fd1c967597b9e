/**
 * What a fresh QR pass costs against `/v1/auth/me` (issue 44; a step of `npm run bench`, or `npx tsx bench/qr-cost.ts`
 * alone after `npm run build`). The target: a fresh pass's p50 ≤ 1.25 × `/auth/me`'s p50 + 0.3 ms, one request at
 * a time, on each database.
 *
 * A built server on PGlite and one on a throw-away PostgreSQL, each with BENCH_QR_HOLDERS holders (default 3,000,
 * bench/seeded-server.ts) and QR_TTL_SECONDS=1; on one keep-alive connection, `/auth/me` then the pass of the same
 * holder, the next holder, and so on, timed to 0.1 ms (hrtime), in two ways:
 * - **back to back**: each request sent as soon as the previous one is answered (the target's figure);
 * - **paced**: BENCH_QR_PACED pairs a second (default 150), as the bench measured before issue 44; waiting between
 *   requests lets the server's process go idle, which makes every request slower (`/auth/me` most), and hides the gap.
 * The two ways and the two servers alternate, BENCH_QR_ROUNDS rounds (default 2) of BENCH_QR_SECONDS each
 * (default 4), so a change of the machine's load reaches each alike. A pass is fresh when it is rendered for the
 * request: a holder comes round again only in a later time step (the loop waits, and says so, when they cycle
 * faster), and the server's own count of rendered passes (`tp_qr_renders_total`) is printed beside the count of
 * passes asked for.
 *
 * `--profile` runs the servers under `node --cpu-prof` and drives the pass alone, back to back, for
 * BENCH_QR_SECONDS × BENCH_QR_ROUNDS, then prints each server's top frames: total (inclusive) and self time by
 * function, self time by package (BENCH_TOP rows, default 25). BENCH_KEEP_PROFILE keeps the `.cpuprofile` files.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../scripts/postgres.js';
import {
  functionOf,
  packageOf,
  printTable,
  readProfile,
  sampledMs,
  selfTime,
  totalTime,
  windowed,
} from './cpu-profile.js';
import { startSeededServer, type Holder, type SeededServer } from './seeded-server.js';

const env = (name: string, fallback: number) => Number(process.env[`BENCH_QR_${name}`] ?? fallback);
const HOLDERS = env('HOLDERS', 3000);
const SECONDS = env('SECONDS', 4);
const ROUNDS = env('ROUNDS', 2);
const PACED_PAIRS_PER_SECOND = env('PACED', 150);
const TOP = Number(process.env.BENCH_TOP ?? 25);
const METRICS_TOKEN = 'bench-qr-cost-metrics-token-0123456789';

/** p50s of one way of driving, ms to 0.1. */
export interface QrTiming {
  pairs: number;
  meP50Ms: number;
  qrP50Ms: number;
}
/** One database's figures. */
export interface QrCost {
  backToBack: QrTiming;
  paced: QrTiming;
  /** Passes asked for, and passes the server rendered meanwhile (fresh when equal). */
  passes: number;
  renders: number;
  /** Times the loop waited for a later time step before a holder's next pass (0 when the holders sufficed). */
  waits: number;
}

/** Now, microseconds on the monotonic clock (a CPU profile's time base). */
const microseconds = () => Number(process.hrtime.bigint() / 1000n);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tenth = (x: number) => Math.round(x * 10) / 10;

/** One GET on a keep-alive agent; resolves with its time in milliseconds (sub-millisecond, from hrtime). */
function timedGet(agent: http.Agent, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    http
      .get(url, { agent, headers }, (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
          else resolve(Number(process.hrtime.bigint() - t0) / 1e6);
        });
      })
      .on('error', reject);
  });
}

/** The server's count of rendered passes (`tp_qr_renders_total`). */
async function renders(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith('tp_qr_renders_total'));
  if (!line) throw new Error('no tp_qr_renders_total in the metrics');
  return Number(line.split(' ')[1]);
}

/** A server under test: its holders taken in turn, each again only in a later 1 s step than its last pass. */
class Driver {
  private next = 0;
  private readonly lastStep = new Map<number, number>();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  passes = 0;
  waits = 0;
  constructor(readonly server: SeededServer) {}

  /** The next holder whose pass is not cached: their last pass was answered in an earlier second. */
  private async holder(): Promise<Holder> {
    const h = this.server.holders[this.next++ % this.server.holders.length];
    const last = this.lastStep.get(h.userId);
    if (last !== undefined && Math.floor(Date.now() / 1000) <= last) {
      this.waits++;
      await new Promise((r) => setTimeout(r, (last + 1) * 1000 - Date.now() + 1));
    }
    return h;
  }

  /** A fresh pass of the next holder, timed; `withMe` first times that holder's `/auth/me`. */
  async pair(withMe: boolean): Promise<{ me: number; qr: number }> {
    const h = await this.holder();
    const headers = { authorization: h.authorization };
    const me = withMe ? await timedGet(this.agent, `${this.server.base}/v1/auth/me`, headers) : NaN;
    const qr = await timedGet(this.agent, `${this.server.base}/v1/auth/access/qr`, headers);
    this.passes++;
    // Answered by now: the server drew it in this second or before, so this holder's next pass is fresh in a later one.
    this.lastStep.set(h.userId, Math.floor(Date.now() / 1000));
    return { me, qr };
  }

  /** Pairs for `seconds`: back to back, or `perSecond` a second (paced). */
  async run(seconds: number, perSecond: number | null, withMe = true) {
    const me: number[] = [];
    const qr: number[] = [];
    const started = performance.now();
    for (let i = 0; performance.now() - started < seconds * 1000; i++) {
      if (perSecond) {
        const wait = started + (i * 1000) / perSecond - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      const p = await this.pair(withMe);
      me.push(p.me);
      qr.push(p.qr);
    }
    return { me, qr };
  }

  close() {
    this.agent.destroy();
  }
}

/**
 * Prints the server's CPU profiles (one per thread: the main thread, and on PGlite its database thread), over the
 * measured phases only: total and self time by function, self time by package, per pass.
 */
function printProfile(name: string, dir: string, pid: number, windows: [number, number][], passes: number) {
  // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile; PGlite's first start (the migration) is another pid.
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && f.split('.')[3] === String(pid));
  if (files.length === 0) throw new Error(`${name}: the server wrote no CPU profile`);
  for (const file of files.sort()) {
    const thread = file.split('.')[4] === '0' ? 'main thread' : `thread ${file.split('.')[4]}`;
    const profile = windowed(readProfile(join(dir, file)), windows);
    const total = sampledMs(profile);
    const per = { count: passes, what: 'passes' };
    console.log(`\n${name}, ${thread}: CPU profile under fresh passes, back to back (the measured phases only)`);
    printTable(`${name}, ${thread}: total time by function`, totalTime(profile, functionOf), total, TOP, per);
    printTable(`${name}, ${thread}: self time by function`, selfTime(profile, functionOf), total, TOP, per);
    printTable(
      `${name}, ${thread}: self time by package`,
      selfTime(profile, (n) => packageOf(n.callFrame.url)),
      total,
      TOP,
      per,
    );
  }
  if (process.env.BENCH_KEEP_PROFILE) console.log(`  profiles kept: ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

/**
 * Runs the measure (or, with `profile`, the profile) on PGlite and on PostgreSQL.
 * @returns each database's figures (empty timings when profiling)
 */
export async function benchQrCost(opts: { profile?: boolean } = {}): Promise<Record<string, QrCost>> {
  const postgres = await startPostgres();
  const servers: { name: string; driver: Driver; profileDir?: string; windows: [number, number][]; warmUp: number }[] =
    [];
  try {
    for (const name of ['pglite', 'postgres'] as const) {
      const profileDir = opts.profile ? mkdtempSync(join(tmpdir(), 'tp-qr-prof-')) : undefined;
      const server = await startSeededServer(name === 'postgres' ? postgres.url('postgres') : null, HOLDERS, {
        env: { QR_TTL_SECONDS: '1', METRICS_TOKEN },
        nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      });
      servers.push({ name, driver: new Driver(server), profileDir, windows: [], warmUp: 0 });
    }
    const before = await Promise.all(servers.map((s) => renders(s.driver.server.base)));
    // Warm-up (JIT, connections, the database's caches), not counted.
    for (const s of servers) {
      await s.driver.run(1, null);
      s.warmUp = s.driver.passes;
    }
    const samples = new Map<string, Record<'backToBack' | 'paced', { me: number[]; qr: number[] }>>();
    for (let round = 0; round < ROUNDS; round++)
      for (const s of servers)
        for (const way of opts.profile ? (['backToBack'] as const) : (['backToBack', 'paced'] as const)) {
          const from = microseconds();
          const r = await s.driver.run(SECONDS, way === 'paced' ? PACED_PAIRS_PER_SECOND : null, !opts.profile);
          s.windows.push([from, microseconds()]);
          const all = samples.get(s.name) ?? { backToBack: { me: [], qr: [] }, paced: { me: [], qr: [] } };
          all[way].me.push(...r.me);
          all[way].qr.push(...r.qr);
          samples.set(s.name, all);
        }
    const results: Record<string, QrCost> = {};
    for (const [i, s] of servers.entries()) {
      const all = samples.get(s.name)!;
      const timing = (x: { me: number[]; qr: number[] }): QrTiming => ({
        pairs: x.qr.length,
        meP50Ms: x.me.length ? tenth(median(x.me)) : NaN,
        qrP50Ms: x.qr.length ? tenth(median(x.qr)) : NaN,
      });
      const r: QrCost = {
        backToBack: timing(all.backToBack),
        paced: timing(all.paced),
        passes: s.driver.passes,
        renders: (await renders(s.driver.server.base)) - before[i],
        waits: s.driver.waits,
      };
      results[s.name] = r;
      const line = (way: string, t: QrTiming) =>
        `  ${s.name.padEnd(9)} ${way.padEnd(12)} ${t.pairs} pairs: /auth/me p50 ${t.meP50Ms} ms, fresh QR p50 ${t.qrP50Ms} ms (limit ${tenth(1.25 * t.meP50Ms + 0.3)} ms)`;
      if (!opts.profile) console.log(`${line('back to back', r.backToBack)}\n${line('paced', r.paced)}`);
      console.log(
        `  ${s.name.padEnd(9)} ${r.passes} passes asked, ${r.renders} rendered by the server${r.waits ? `; waited ${r.waits} times for a later step` : ''}`,
      );
    }
    return results;
  } finally {
    for (const s of servers) {
      s.driver.close();
      await s.driver.server.stop();
      if (s.profileDir) printProfile(s.name, s.profileDir, s.driver.server.pid, s.windows, s.driver.passes - s.warmUp);
    }
    postgres.stop();
    console.log(
      `  ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}, Node ${process.version}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchQrCost({ profile: process.argv.includes('--profile') });
