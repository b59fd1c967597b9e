/**
 * `npx tsx bench/metrics-cost.ts` (issue 25, decision 031): what the metrics cost each answer. Starts the compiled
 * API (`npm run build -w @tp/api` first) twice on the embedded database: once without metrics, once with
 * METRICS_TOKEN (every answer timed into the request histogram). Drives `GET /healthz` (what every answer pays:
 * hooks and headers, no database) with autocannon (10 connections, BENCH_SECONDS each, default 6) in BENCH_ROUNDS
 * alternating rounds (default 4: off, on, off, on, …; a change in the machine's load reaches both alike; `--path
 * /v1/auth/me` drives that path instead, as the demo holder), and prints
 * each round's rate and server CPU per answer, the medians' difference (the metrics' cost per answer, µs), and the
 * time of one scrape.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startBuiltServer } from './server.js';
import { signIn } from '../scripts/dev-sign-in.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const TOKEN = 'bench-metrics-token-0123456789';
const pathAt = process.argv.indexOf('--path');
/** `--path <path>`: drive that path instead of /healthz; a /v1/ path as alice, the demo holder (signed in first). */
const PATH = pathAt > 0 ? process.argv[pathAt + 1] : '/healthz';

interface Server {
  child: ChildProcess;
  base: string;
  dataDir: string;
  /** alice's `Authorization` header for a /v1/ path, else none. */
  headers: Record<string, string>;
}

/** Starts the compiled server with `env` on a free port and a fresh DATA_DIR; resolves once /readyz answers. */
async function start(env: Record<string, string>): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-metrics-cost-'));
  const { child, base } = await startBuiltServer({ dataDir, env });
  const headers: Record<string, string> = PATH.startsWith('/v1/')
    ? { authorization: await signIn(base, 'alice@example.com') }
    : {};
  return { child, base, dataDir, headers };
}

/** CPU time (ms, user + system) of `pid` so far. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** One autocannon round on PATH: answers a second and server CPU per answer (ms). */
async function round(server: Server, label: string) {
  const before = cpuMsOf(server.child.pid!);
  const r = await autocannon({
    url: `${server.base}${PATH}`,
    connections: 10,
    duration: SECONDS,
    headers: server.headers,
  });
  const cpu = (cpuMsOf(server.child.pid!) - before) / Math.max(1, r.requests.total);
  const errors = r.errors + r.timeouts + r.non2xx;
  console.log(
    `${label.padEnd(12)} ${String(Math.round(r.requests.average)).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  CPU ${(cpu * 1000).toFixed(1)} µs/answer${errors ? `  errors ${errors}` : ''}`,
  );
  return { rate: r.requests.average, cpu };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const off = await start({});
const on = await start({ METRICS_TOKEN: TOKEN });
try {
  const offs: { rate: number; cpu: number }[] = [];
  const ons: { rate: number; cpu: number }[] = [];
  await round(off, 'warm-up off');
  await round(on, 'warm-up on');
  for (let i = 0; i < ROUNDS; i++) {
    offs.push(await round(off, 'metrics off'));
    ons.push(await round(on, 'metrics on'));
  }
  const cpuOff = median(offs.map((x) => x.cpu));
  const cpuOn = median(ons.map((x) => x.cpu));
  console.log(
    `medians of ${ROUNDS}: off ${Math.round(median(offs.map((x) => x.rate)))} req/s, ${(cpuOff * 1000).toFixed(1)} µs CPU/answer; ` +
      `on ${Math.round(median(ons.map((x) => x.rate)))} req/s, ${(cpuOn * 1000).toFixed(1)} µs CPU/answer; ` +
      `cost ${((cpuOn - cpuOff) * 1000).toFixed(1)} µs CPU per answer (${((cpuOn / cpuOff - 1) * 100).toFixed(1)} %)`,
  );
  const scrapes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const r = await fetch(`${on.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const text = await r.text();
    scrapes.push(performance.now() - t0);
    if (i === 0) console.log(`scrape: ${r.status}, ${text.length} bytes, ${text.split('\n').length} lines`);
  }
  console.log(`scrape time, median of 5: ${median(scrapes).toFixed(1)} ms`);
} finally {
  for (const s of [off, on]) {
    s.child.kill('SIGTERM');
    await new Promise((r) => s.child.once('exit', r));
    rmSync(s.dataDir, { recursive: true, force: true });
  }
}
