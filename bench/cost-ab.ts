/**
 * The engine of the per-answer cost benches (`bench/metrics-cost.ts`, `bench/access-log-cost.ts`; decision 031):
 * starts the compiled API twice on the embedded database (each in a fresh DATA_DIR, stdout to /dev/null as
 * bench/server.ts starts it), once with the feature off and once on, drives PATH with autocannon (10 connections,
 * `seconds` each) in alternating rounds (off, on, off, on, …: a change in the machine's load reaches both alike),
 * prints each round's rate and server CPU per answer (from /proc) and the medians' difference, the feature's cost
 * per answer (µs).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startBuiltServer } from './server.js';

/** One started server of the comparison. */
export interface CostServer {
  child: ChildProcess;
  base: string;
  dataDir: string;
}

/** What one comparison runs. */
export interface CostComparison {
  /** Names the DATA_DIR prefix and the round labels (`<name> off`, `<name> on`). */
  name: string;
  /** Environment of the server without the feature, and with it. */
  off: Record<string, string>;
  on: Record<string, string>;
  /** The path driven (e.g. `/healthz`). */
  path: string;
  /** Request headers for a started server (e.g. a holder's bearer for a /v1/ path). */
  headers?: (base: string) => Promise<Record<string, string>>;
  /** Seconds per round, and alternating rounds after one warm-up each. */
  seconds: number;
  rounds: number;
  /** Runs with the servers still up, after the rounds (e.g. timing a scrape of the `on` one). */
  after?: (servers: { off: CostServer; on: CostServer }) => Promise<void>;
}

/** CPU time (ms, user + system) of `pid` so far. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs `c` and prints its rounds and medians; stops both servers and deletes their data at the end. */
export async function compareCost(c: CostComparison): Promise<void> {
  const start = async (env: Record<string, string>) => {
    const dataDir = mkdtempSync(join(tmpdir(), `tp-${c.name}-cost-`));
    const { child, base } = await startBuiltServer({ dataDir, env });
    return { child, base, dataDir, headers: (await c.headers?.(base)) ?? {} };
  };
  const round = async (server: Awaited<ReturnType<typeof start>>, label: string) => {
    const before = cpuMsOf(server.child.pid!);
    const r = await autocannon({
      url: `${server.base}${c.path}`,
      connections: 10,
      duration: c.seconds,
      headers: server.headers,
    });
    const cpu = (cpuMsOf(server.child.pid!) - before) / Math.max(1, r.requests.total);
    const errors = r.errors + r.timeouts + r.non2xx;
    console.log(
      `${label.padEnd(12)} ${String(Math.round(r.requests.average)).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  CPU ${(cpu * 1000).toFixed(1)} µs/answer${errors ? `  errors ${errors}` : ''}`,
    );
    return { rate: r.requests.average, cpu };
  };
  const off = await start(c.off);
  const on = await start(c.on);
  try {
    await round(off, 'warm-up off');
    await round(on, 'warm-up on');
    const offs: { rate: number; cpu: number }[] = [];
    const ons: { rate: number; cpu: number }[] = [];
    for (let i = 0; i < c.rounds; i++) {
      offs.push(await round(off, `${c.name} off`));
      ons.push(await round(on, `${c.name} on`));
    }
    const cpuOff = median(offs.map((x) => x.cpu));
    const cpuOn = median(ons.map((x) => x.cpu));
    console.log(
      `medians of ${c.rounds}: off ${Math.round(median(offs.map((x) => x.rate)))} req/s, ${(cpuOff * 1000).toFixed(1)} µs CPU/answer; ` +
        `on ${Math.round(median(ons.map((x) => x.rate)))} req/s, ${(cpuOn * 1000).toFixed(1)} µs CPU/answer; ` +
        `cost ${((cpuOn - cpuOff) * 1000).toFixed(1)} µs CPU per answer (${((cpuOn / cpuOff - 1) * 100).toFixed(1)} %)`,
    );
    await c.after?.({ off, on });
  } finally {
    for (const s of [off, on]) {
      s.child.kill('SIGTERM');
      await new Promise((r) => s.child.once('exit', r));
      rmSync(s.dataDir, { recursive: true, force: true });
    }
  }
}
