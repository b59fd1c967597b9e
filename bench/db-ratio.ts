/**
 * `npx tsx bench/db-ratio.ts` (issue 24, decision 021): requests per second of `/v1/auth/me` and the ticket
 * listing on PGlite (on its worker thread) against PostgreSQL, in one run. Both servers run the compiled API
 * (`npm run build` first) side by side and are measured in alternation (PGlite, PostgreSQL, PGlite, ...), so a
 * change in the machine's load reaches both alike. Prints each round and the ratio of the medians; target
 * PGlite ≥ 0.6 × PostgreSQL on `/v1/auth/me` (issue 44), ≥ 0.5 × on the listing. BENCH_SECONDS (default 5) per round, BENCH_ROUNDS (default 3).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startPostgres } from '../scripts/postgres.js';
import { startBuiltServer, stopBuiltServer } from './server.js';
import { signIn } from '../scripts/dev-sign-in.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function start(name: string, databaseUrl: string | null) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-bench-'));
  const started = Date.now();
  const { child, base } = await startBuiltServer({
    dataDir,
    env: { ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), OTP_RESEND_SECONDS: '0' },
  });
  console.log(`${name} ready in ${Date.now() - started} ms`);
  return { name, base, child, dataDir };
}

async function stop(s: { child: ChildProcess; dataDir: string }) {
  await stopBuiltServer(s.child);
  rmSync(s.dataDir, { recursive: true, force: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const paths = ['/v1/auth/me', '/v1/list/ticket_listing?status=UPCOMING'];

const pg = await startPostgres();
const servers = [await start('pglite', null), await start('postgres', pg.url('postgres'))];
try {
  const auth = Object.fromEntries(
    await Promise.all(servers.map(async (s) => [s.name, await signIn(s.base, 'alice@example.com')] as const)),
  );
  const results: Record<string, Record<string, number[]>> = {};
  for (let round = 1; round <= ROUNDS; round++)
    for (const path of paths)
      for (const s of servers) {
        const r = await autocannon({
          url: `${s.base}${path}`,
          connections: 10,
          duration: SECONDS,
          headers: { authorization: auth[s.name] },
        });
        const errors = r.errors + r.timeouts + r.non2xx;
        ((results[path] ??= {})[s.name] ??= []).push(Math.round(r.requests.average));
        console.log(
          `round ${round} ${s.name.padEnd(8)} ${path.padEnd(40)} ${String(Math.round(r.requests.average)).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms${errors ? `  errors ${errors}` : ''}`,
        );
      }
  console.log(
    `\n${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, Node ${process.version}`,
  );
  for (const path of paths) {
    const a = median(results[path].pglite);
    const b = median(results[path].postgres);
    console.log(
      `${path}: PGlite ${a} req/s, PostgreSQL ${b} req/s, ratio ${(a / b).toFixed(2)} (target ≥ ${path === '/v1/auth/me' ? '0.6, issue 44' : '0.5'})`,
    );
  }
} finally {
  for (const s of servers) await stop(s);
  pg.stop();
}
