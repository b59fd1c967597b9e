/**
 * `npx tsx bench/profile-listing.ts` (issue 24): where the ticket listing's time goes. Starts the compiled API
 * (`npm run build` first) on a throw-away PostgreSQL under `node --cpu-prof`, drives `/v1/auth/me` and then
 * `/v1/list/ticket_listing?status=UPCOMING` (alice, the demo holder) with autocannon (10 connections,
 * BENCH_SECONDS each, default 8) in BENCH_ROUNDS alternating rounds (default 3), prints the rates and the ratio of
 * the medians (target listing ≥ 0.6 × me), then the
 * server's CPU profile: self time by function and by package, largest first (BENCH_TOP rows, default 20).
 * The profile covers both phases; `--only <path>` drives that one path alone (e.g. `--only /healthz`: what every
 * answer pays, hooks and headers) for a profile of it only.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startPostgres } from '../scripts/postgres.js';
import { startBuiltServer, stopBuiltServer } from './server.js';
import { signIn } from '../scripts/dev-sign-in.js';
import { functionOf, packageOf, printTable, readProfile, sampledMs, selfTime } from './cpu-profile.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const TOP = Number(process.env.BENCH_TOP ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const onlyAt = process.argv.indexOf('--only');
/** `--only <path>`: drive that path alone (anonymous, e.g. `/healthz`) for a profile of it only. */
const only = onlyAt > 0 ? process.argv[onlyAt + 1] : null;

/** CPU time (ms, user + system) of `pid` so far; 0 once it is gone. */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return 0;
  }
}

/** The PostgreSQL server on `port` and its backends (children of the postmaster). */
function postgresPids(port: number): number[] {
  const all = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  const cmd = (pid: string) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return '';
    }
  };
  const master = all.find((pid) => cmd(pid).includes(`-p\0${port}\0`) || cmd(pid).includes(`-p ${port} `));
  if (!master) return [];
  const children = all.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1] === master;
    } catch {
      return false;
    }
  });
  return [master, ...children].map(Number);
}

const pg = await startPostgres();
const dataDir = mkdtempSync(join(tmpdir(), 'tp-profile-'));
const profileDir = mkdtempSync(join(tmpdir(), 'tp-cpuprof-'));
const { child, base } = await startBuiltServer({
  dataDir,
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
  env: { DATABASE_URL: pg.url('postgres'), OTP_RESEND_SECONDS: '0' },
}).catch((err: unknown) => {
  pg.stop();
  throw err;
});
try {
  const authorization = await signIn(base, 'alice@example.com');
  /**
   * One autocannon phase; besides the rate, the CPU time the server process and PostgreSQL spent per answer (ms):
   * what other work on a shared machine changes least.
   */
  const rate = async (path: string) => {
    const pids = [child.pid!, ...postgresPids(pg.port)];
    const cpuBefore = pids.reduce((sum, pid) => sum + cpuMsOf(pid), 0);
    const r = await autocannon({
      url: `${base}${path}`,
      connections: 10,
      duration: SECONDS,
      headers: { authorization },
    });
    const cpuMs = pids.reduce((sum, pid) => sum + cpuMsOf(pid), 0) - cpuBefore;
    const errors = r.errors + r.timeouts + r.non2xx;
    const cpuPerAnswer = cpuMs / Math.max(1, r.requests.total);
    console.log(
      `${path.padEnd(40)} ${String(Math.round(r.requests.average)).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  CPU ${cpuPerAnswer.toFixed(2)} ms/answer${errors ? `  errors ${errors}` : ''}`,
    );
    return { rate: r.requests.average, cpu: cpuPerAnswer };
  };
  // Alternating rounds (me, listing, me, ...): a change in the machine's load reaches both alike; medians compared.
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const me: { rate: number; cpu: number }[] = [];
  const listing: { rate: number; cpu: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (only) {
      await rate(only);
      continue;
    }
    me.push(await rate('/v1/auth/me'));
    listing.push(await rate('/v1/list/ticket_listing?status=UPCOMING'));
  }
  if (!only) {
    const rates = median(listing.map((x) => x.rate)) / median(me.map((x) => x.rate));
    const cpu = median(me.map((x) => x.cpu)) / median(listing.map((x) => x.cpu));
    console.log(
      `listing / me (medians of ${ROUNDS}): ${rates.toFixed(2)} by req/s, ${cpu.toFixed(2)} by CPU per answer (server + PostgreSQL); target ≥ 0.6`,
    );
  }
  console.log(
    `${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, Node ${process.version}`,
  );
} finally {
  await stopBuiltServer(child);
  pg.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const [file] = readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('the server wrote no CPU profile');
const profile = readProfile(join(profileDir, file));
if (process.env.BENCH_KEEP_PROFILE) console.log(`\nprofile kept: ${join(profileDir, file)}`);
else rmSync(profileDir, { recursive: true, force: true });
const total = sampledMs(profile);
printTable('Self time by function', selfTime(profile, functionOf), total, TOP);
printTable(
  'Self time by package',
  selfTime(profile, (n) => packageOf(n.callFrame.url)),
  total,
  TOP,
);
