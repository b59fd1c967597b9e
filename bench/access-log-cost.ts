/**
 * `npx tsx bench/access-log-cost.ts` (issue 41, point 8; decision 031): what the access log costs each answer.
 * Starts the compiled API (`npm run build -w @tp/contract -w @tp/api` first) twice on the embedded database, its
 * stdout to /dev/null as bench/server.ts starts it: LOG_LEVEL=warn (no access log: what every answer paid before)
 * and LOG_LEVEL=info (one `request completed` line per answer). Drives `GET /healthz` with autocannon
 * (10 connections, BENCH_SECONDS each, default 6) in BENCH_ROUNDS alternating rounds (default 4), and prints each
 * round's rate and server CPU per answer and the medians' difference (the line's cost per answer, µs).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startBuiltServer } from './server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const PATH = '/healthz';

interface Server {
  child: ChildProcess;
  base: string;
  dataDir: string;
  /** alice's `Authorization` header for a /v1/ path, else none. */
  headers: Record<string, string>;
}

/** Starts the compiled server with `env` on a free port and a fresh DATA_DIR; resolves once /readyz answers. */
async function start(env: Record<string, string>): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-access-log-cost-'));
  const { child, base } = await startBuiltServer({ dataDir, env });
  const headers: Record<string, string> = {};
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
const off = await start({ LOG_LEVEL: 'warn' });
const on = await start({ LOG_LEVEL: 'info' });
try {
  const offs: { rate: number; cpu: number }[] = [];
  const ons: { rate: number; cpu: number }[] = [];
  await round(off, 'warm-up off');
  await round(on, 'warm-up on');
  for (let i = 0; i < ROUNDS; i++) {
    offs.push(await round(off, 'log off'));
    ons.push(await round(on, 'log on'));
  }
  const cpuOff = median(offs.map((x) => x.cpu));
  const cpuOn = median(ons.map((x) => x.cpu));
  console.log(
    `medians of ${ROUNDS}: off ${Math.round(median(offs.map((x) => x.rate)))} req/s, ${(cpuOff * 1000).toFixed(1)} µs CPU/answer; ` +
      `on ${Math.round(median(ons.map((x) => x.rate)))} req/s, ${(cpuOn * 1000).toFixed(1)} µs CPU/answer; ` +
      `cost ${((cpuOn - cpuOff) * 1000).toFixed(1)} µs CPU per answer (${((cpuOn / cpuOff - 1) * 100).toFixed(1)} %)`,
  );
} finally {
  for (const s of [off, on]) {
    s.child.kill('SIGTERM');
    await new Promise((r) => s.child.once('exit', r));
    rmSync(s.dataDir, { recursive: true, force: true });
  }
}
