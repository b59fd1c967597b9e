/**
 * Memory of the embedded default (issue 44, decision 041; `npm run bench` runs it, or `npx tsx bench/memory.ts`
 * alone after `npm run build`): one API process on PGlite, started as `npm start` starts it (`node` with the options
 * of apps/api's start script, `apps/api/dist/server.js`, a fresh DATA_DIR), its resident set read from
 * `/proc/<pid>/status` (VmRSS, MiB):
 *
 * - idle: BENCH_MEMORY_IDLE_SECONDS (default 10) after `/readyz` first answers, nothing asked meanwhile (the first
 *   start on a new data directory: initdb, migrations, demo data);
 * - under load: BENCH_MEMORY_LOAD_SECONDS (default 40) of holder load, autocannon on `/v1/auth/me` and the ticket
 *   listing at once (5 connections each, a signed-in demo holder), sampled every second; the figure is the RSS
 *   at the end of the load, the highest sample beside it;
 * - idle after a restart: the server stopped and started again on the same data directory (what a deployment's every
 *   later start is), BENCH_MEMORY_IDLE_SECONDS after ready.
 *
 * Targets (issue 44): idle ≤ 256 MiB, after the load ≤ 400 MiB. To measure one setting against another,
 * `BENCH_MEMORY_ENV` (`NAME=value,...`) adds variables to the server's environment and `BENCH_MEMORY_NODE_ARGS`
 * (space-separated) options to node's command line.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { signIn } from '../scripts/dev-sign-in.js';
import { startBuiltServer, stopBuiltServer } from './server.js';

const IDLE_SECONDS = Number(process.env.BENCH_MEMORY_IDLE_SECONDS ?? 10);
const LOAD_SECONDS = Number(process.env.BENCH_MEMORY_LOAD_SECONDS ?? 40);
/** Issue 44's targets, MiB of resident memory. */
export const IDLE_TARGET_MIB = 256;
export const LOADED_TARGET_MIB = 400;

/** What bench/memory.ts measured: resident MiB idle, at the end of the load and the highest sample during it. */
export interface MemoryBench {
  idleMiB: number;
  /** Idle after a restart on the same data directory (absent in runs before it was measured). */
  restartIdleMiB?: number;
  loadedMiB: number;
  loadedPeakMiB: number;
  loadSeconds: number;
  /** Requests a second over both paths during the load, and the ones that failed (errors, timeouts, non-2xx). */
  reqPerSec: number;
  errors: number;
}

/** Resident set of process `pid` in MiB (`VmRSS` of /proc/<pid>/status). */
function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Math.round(Number(kb) / 1024);
}

const extraEnv = () =>
  Object.fromEntries(
    (process.env.BENCH_MEMORY_ENV ?? '')
      .split(',')
      .filter((kv) => kv.includes('='))
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );

const start = (dataDir: string) =>
  startBuiltServer({
    dataDir,
    nodeArgs: (process.env.BENCH_MEMORY_NODE_ARGS ?? '').split(' ').filter(Boolean),
    env: { OTP_RESEND_SECONDS: '0', ...extraEnv() },
  });

/** Resident MiB of a server started on `dataDir`, idle for BENCH_MEMORY_IDLE_SECONDS after ready; then stops it. */
async function idleAfterStart(dataDir: string): Promise<number> {
  const { child } = await start(dataDir);
  try {
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    return rssMiB(child.pid!);
  } finally {
    await stopBuiltServer(child);
  }
}

/**
 * Starts the compiled server on PGlite as `npm start` does, measures its RSS idle and under holder load, stops it,
 * and measures a restart on the same data directory idle.
 */
export async function benchMemory(): Promise<MemoryBench> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-bench-mem-'));
  const { child, base } = await start(dataDir);
  try {
    const pid = child.pid!;
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idleMiB = rssMiB(pid);
    console.log(`  pglite idle ${IDLE_SECONDS} s after ready: ${idleMiB} MiB resident`);
    // A loaded machine may shed the sign-in (503 api.busy, decision 039): signIn sends it again.
    const authorization = await signIn(base, 'alice@example.com');
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssMiB(pid)), 1000);
    const runs = await Promise.all(
      ['/v1/auth/me', '/v1/list/ticket_listing?status=UPCOMING'].map((path) =>
        autocannon({ url: `${base}${path}`, connections: 5, duration: LOAD_SECONDS, headers: { authorization } }),
      ),
    );
    clearInterval(sampler);
    const loadedMiB = rssMiB(pid);
    const result: MemoryBench = {
      idleMiB,
      loadedMiB,
      loadedPeakMiB: Math.max(loadedMiB, ...samples),
      loadSeconds: LOAD_SECONDS,
      reqPerSec: Math.round(runs.reduce((n, r) => n + r.requests.average, 0)),
      errors: runs.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0),
    };
    console.log(
      `  pglite after ${LOAD_SECONDS} s of /v1/auth/me + ticket listing (${result.reqPerSec} req/s, ${result.errors} errors): ${loadedMiB} MiB resident (highest ${result.loadedPeakMiB} MiB)`,
    );
    await stopBuiltServer(child);
    result.restartIdleMiB = await idleAfterStart(dataDir);
    console.log(
      `  pglite restarted on the same data, idle ${IDLE_SECONDS} s after ready: ${result.restartIdleMiB} MiB`,
    );
    return result;
  } finally {
    await stopBuiltServer(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMemory();
