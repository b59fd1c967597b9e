/**
 * `npm run bench` (issues 9 and 24): a benchmark, not a test. Starts a bare `node:http` server (the baseline)
 * and the real server the way `npm start` does (apps/api's start script), on the embedded database (PGlite)
 * and on a throw-away PostgreSQL, all three at once, and drives them with autocannon in alternating rounds
 * (bare, PGlite, PostgreSQL, each test in turn, BENCH_ROUNDS rounds of BENCH_SECONDS): a change in the
 * machine's load reaches every server alike, and each ratio is of medians over the rounds.
 *
 * - throughput (10 connections): /healthz, /v1/auth/me, /v1/list/ticket_listing?status=UPCOMING,
 *   /v1/auth/access/qr cycling over BENCH_HOLDERS holders with QR_TTL_SECONDS=1;
 * - a fresh QR pass against /v1/auth/me, one request at a time, back to back and paced (bench/qr-cost.ts, its own
 *   servers with 3,000 holders each);
 * - a sign-in storm: code requests at 100/s with distinct e-mails while /healthz is measured;
 * - the event loop during a 10,000-row CSV import (bench/import-stall.ts: monitorEventLoopDelay in the server);
 * then Lighthouse 12 (CHROME_PATH, default /usr/bin/chromium) on the demo host page with only the open button
 * (`/?inline=0`) and without the loader (`/?noembed=1`), median of 3 each; time to QR on an emulated cheap phone
 * (bench/time-to-qr.ts, issue 30); the gate simulation (bench/gate.ts); mail at the speed of a crowd (bench/mail-crowd.ts,
 * issue 44: sign-in codes and a gift notice behind bulk mail, an SMTP sink of 150 ms a message); cancelling an event of
 * 20,000 tickets (bench/cancel-crowd.ts, issue 46: the run's time, the holders' e-mails, /auth/me and sign-in codes
 * meanwhile); the resident memory of one
 * process on PGlite idle and after 40 s of holder load (bench/memory.ts, issue 44); shedding load at three times
 * the measured capacity for 60 s (bench/shed.ts, issue 44; BENCH_SHED_SCALE for a quick run). Prints every target with its
 * figure and pass/fail, the total run time, and writes bench/results.json. `--write-readme` then rewrites the
 * README's Performance table from it (bench/readme.ts). Run `npm run build` first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { freePort, startPostgres } from '../scripts/postgres.js';
import { chromiumArgs } from '../e2e/chromium.js';
import { codesFrom, signIn } from '../scripts/dev-sign-in.js';
import { benchTimeToQr, qrTable } from './time-to-qr.js';
import { benchGate } from './gate.js';
import { benchQrCost } from './qr-cost.js';
import { benchMailCrowd } from './mail-crowd.js';
import { benchCancelCrowd } from './cancel-crowd.js';
import { benchShed } from './shed.js';
import { benchMemory } from './memory.js';
import { importStall, loopMonitorEnv, type ImportStall } from './import-stall.js';
import { printTargets, targetsOf, writeReadme, type BenchResults, type Row } from './readme.js';

const root = resolve(import.meta.dirname, '..');
const HOLDERS = Number(process.env.BENCH_HOLDERS ?? 220);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Rows of the import whose event-loop stretch is measured (issue 24: 10,000, the contract's largest). */
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
/** Lighthouse runs per page; the median is kept. */
const LIGHTHOUSE_RUNS = 3;

/** The server is started the way `npm start` starts it after building the panel: the API workspace's start script. */
const startCommand = ['npm', 'run', '--silent', 'start', '-w', '@tp/api'];
const apiStartScript = () =>
  (JSON.parse(readFileSync(join(root, 'apps/api/package.json'), 'utf8')) as { scripts: { start: string } }).scripts
    .start;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** Starts a command in its own process group; resolves once `readyUrl` answers 200. */
async function startProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, readyUrl: string) {
  const child = spawn(cmd, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited with ${child.exitCode}`);
    try {
      if ((await fetch(readyUrl)).ok) return child;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`${readyUrl} did not become ready`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Stops a process started in its own group (npm and the server under it) and waits until every process of the
 * group has exited: npm exits before the server has shut down, and PostgreSQL stopped under a server still
 * closing its pool printed "connection lost" lines. SIGTERM, then SIGKILL after 15 s.
 */
async function stopProcess(child: ChildProcess) {
  const signal = (sig: NodeJS.Signals | 0) => {
    try {
      process.kill(-child.pid!, sig);
      return true;
    } catch {
      return false; // the group is gone
    }
  };
  if (!signal('SIGTERM')) return;
  for (const deadline = Date.now() + 15_000; signal(0) && Date.now() < deadline;)
    await new Promise((r) => setTimeout(r, 100));
  signal('SIGKILL');
}

type Options = autocannon.Options;
async function cannon(opts: Options) {
  const result = await autocannon({ duration: SECONDS, connections: 10, ...opts });
  return {
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const json = { 'content-type': 'application/json' };

/** Signs `count` new holders in through the API (codes read from the dev outbox); returns bearer headers. */
async function seedHolders(base: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  const batch = 40;
  for (let start = 0; start < count; start += batch) {
    const emails = Array.from({ length: Math.min(batch, count - start) }, (_, i) => `holder${start + i}@bench.test`);
    const sessions = await Promise.all(
      emails.map(async (email) => {
        const r = await fetch(`${base}/v1/auth/signInOrRegisterAndSignIn`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ email }),
        });
        if (!r.ok) throw new Error(`code request ${r.status} ${await r.text()}`);
        return ((await r.json()) as { sessionId: string }).sessionId;
      }),
    );
    const codes = await codesFrom(base, emails);
    const codeOf = (email: string) => codes.get(email);
    const signedIn = await Promise.all(
      emails.map(async (email, i) => {
        const r = await fetch(`${base}/v1/auth/verifyLoginRequest`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ email, session: sessions[i], otp: codeOf(email) }),
        });
        if (!r.ok) throw new Error(`verify ${r.status} ${await r.text()}`);
        return `Bearer ${((await r.json()) as { accessToken: string }).accessToken}`;
      }),
    );
    tokens.push(...signedIn);
  }
  return tokens;
}

/** Code requests at `perSecond` for `seconds` (distinct e-mails) while autocannon measures /healthz. */
async function signInStorm(server: string, base: string, perSecond: number, seconds: number) {
  const latencies: number[] = [];
  let failed = 0;
  const sends: Promise<void>[] = [];
  const health = cannon({ url: `${base}/healthz`, connections: 2, duration: seconds });
  const started = performance.now();
  for (let i = 0; i < perSecond * seconds; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    sends.push(
      fetch(`${base}/v1/auth/signInOrRegisterAndSignIn`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: `storm-${server}-${i}-${Date.now()}@bench.test` }),
        signal: AbortSignal.timeout(30_000),
      }).then(
        async (r) => {
          await r.arrayBuffer();
          if (r.ok) latencies.push(performance.now() - t0);
          else failed++;
        },
        () => {
          failed++;
        },
      ),
    );
  }
  const h = await health;
  await Promise.all(sends);
  latencies.sort((a, b) => a - b);
  const total = perSecond * seconds;
  const within1s = latencies.filter((l) => l <= 1000).length / total;
  const storm = {
    codeRequests: total,
    failed,
    answeredWithin1sPct: Math.round(within1s * 1000) / 10,
    codeP50: Math.round(latencies[Math.floor(latencies.length / 2)] ?? NaN),
    healthzP99: h.p99,
    healthzReqPerSec: h.reqPerSec,
  };
  console.log(
    `  ${server.padEnd(9)} sign-in storm: ${perSecond}/s × ${seconds} s; ${storm.answeredWithin1sPct} % answered within 1 s (p50 ${storm.codeP50} ms), /healthz p99 ${h.p99} ms`,
  );
  return storm;
}

interface Server {
  name: 'pglite' | 'postgres';
  base: string;
  child: ChildProcess;
  dataDir: string;
  monitorUrl: string;
  holders: string[];
  auth: string;
}

/** The real server, started as `npm start` starts it (apps/api's start script), against `databaseUrl` or PGlite. */
async function startServer(name: Server['name'], databaseUrl: string | null): Promise<Server> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-bench-'));
  const monitor = await loopMonitorEnv();
  console.log(`${name}: ${startCommand.join(' ')} (${apiStartScript()})`);
  const child = await startProcess(
    'npm',
    startCommand.slice(1),
    {
      ...monitor.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      QR_TTL_SECONDS: '1',
      LOG_LEVEL: 'warn',
      OTP_RESEND_SECONDS: '0',
      OTP_REQUESTS_PER_IP_PER_MINUTE: '1000000',
      OTP_VERIFIES_PER_IP_PER_MINUTE: '1000000',
      // The import measure below times one 10,000-row import in the request (a larger file goes to the background,
      // decision 040; its figures are import-no-freeze.test.ts's).
      IMPORT_BACKGROUND_ROWS: String(IMPORT_ROWS),
    },
    root,
    `${base}/readyz`,
  );
  const holders = await seedHolders(base, HOLDERS);
  const auth = await signIn(base, 'alice@example.com');
  return { name, base, child, dataDir, monitorUrl: monitor.url, holders, auth };
}

/** Stops a server (its whole process group) and removes its data directory. */
async function stopServer(s: { child: ChildProcess; dataDir: string }) {
  await stopProcess(s.child);
  rmSync(s.dataDir, { recursive: true, force: true });
}

interface Test {
  server: string;
  test: string;
  opts: Options;
}

/** The throughput tests, each run once per round in this order; a row per test with the median round. */
async function alternatingRounds(bareBase: string, servers: Server[]): Promise<Row[]> {
  const tests: Test[] = [{ server: 'bare', test: '/healthz', opts: { url: `${bareBase}/healthz` } }];
  for (const s of servers) {
    let next = 0;
    tests.push(
      { server: s.name, test: '/healthz', opts: { url: `${s.base}/healthz` } },
      {
        server: s.name,
        test: '/v1/auth/me',
        opts: { url: `${s.base}/v1/auth/me`, headers: { authorization: s.auth } },
      },
      {
        server: s.name,
        test: '/v1/list/ticket_listing?status=UPCOMING',
        opts: { url: `${s.base}/v1/list/ticket_listing?status=UPCOMING`, headers: { authorization: s.auth } },
      },
      {
        server: s.name,
        test: `/v1/auth/access/qr (${s.holders.length} holders)`,
        opts: {
          url: `${s.base}/v1/auth/access/qr`,
          requests: [
            {
              setupRequest: (req: autocannon.Request) => ({
                ...req,
                headers: { ...req.headers, authorization: s.holders[next++ % s.holders.length] },
              }),
            },
          ],
        },
      },
    );
  }
  // Interleaved by test, so each pair the targets compare ran seconds apart: bare, pglite, postgres /healthz, ...
  const order = [...tests].sort(
    (a, b) => tests.findIndex((t) => t.test === a.test) - tests.findIndex((t) => t.test === b.test),
  );
  const results = new Map<Test, Awaited<ReturnType<typeof cannon>>[]>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const t of order) {
      // A pause between tests: what the previous one left running (its last answers, GC) does not land on this one.
      await new Promise((r) => setTimeout(r, 1000));
      const r = await cannon(t.opts);
      results.set(t, [...(results.get(t) ?? []), r]);
      console.log(
        `  round ${round} ${t.server.padEnd(9)} ${t.test.padEnd(40)} ${String(r.reqPerSec).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms${r.errors ? `  errors ${r.errors}` : ''}`,
      );
    }
  }
  return tests.map((t) => {
    const rs = results.get(t)!;
    const mid = rs.find((r) => r.reqPerSec === median(rs.map((x) => x.reqPerSec)))!;
    return {
      server: t.server,
      test: t.test,
      connections: 10,
      ...mid,
      errors: rs.reduce((n, r) => n + r.errors, 0),
      rounds: rs.map((r) => r.reqPerSec),
    };
  });
}

async function benchBare() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const code = `require('node:http').createServer((q,s)=>{s.setHeader('content-type','application/json; charset=utf-8');s.end('{"status":"ok"}')}).listen(${port},'127.0.0.1')`;
  const child = await startProcess(process.execPath, ['-e', code], {}, root, `${base}/`);
  return { base, child };
}

/** Lighthouse (performance) on the demo host page with only the open button and without the loader, median of 3. */
async function lighthouseRuns() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-bench-lh-'));
  const server = await startProcess(
    'npm',
    startCommand.slice(1),
    { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    root,
    `${base}/readyz`,
  );
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', ...chromiumArgs],
  });
  type M = { score: number; tbtMs: number; lcpMs: number; cls: number };
  /** One Lighthouse run; a run that failed (a runtime error, no metrics: seen once under load) runs again, 3 tries. */
  const metrics = async (url: string, attempt = 1): Promise<M> => {
    const { lhr } = (await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ['performance'],
      output: 'json',
      logLevel: 'error',
    }))!;
    const [tbt, lcp, cls] = ['total-blocking-time', 'largest-contentful-paint', 'cumulative-layout-shift'].map(
      (id) => lhr.audits[id]?.numericValue,
    );
    if (lhr.runtimeError || tbt === undefined || lcp === undefined || cls === undefined) {
      const why = lhr.runtimeError?.code ?? 'no metrics';
      if (attempt >= 3) throw new Error(`Lighthouse failed ${attempt} times on ${url}: ${why}`);
      console.log(`  a Lighthouse run failed (${why}); running it again`);
      return metrics(url, attempt + 1);
    }
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      tbtMs: Math.round(tbt),
      lcpMs: Math.round(lcp),
      cls: Math.round(cls * 1000) / 1000,
    };
  };
  const medianOf = (runs: M[]) => ({
    score: median(runs.map((r) => r.score)),
    tbtMs: median(runs.map((r) => r.tbtMs)),
    lcpMs: median(runs.map((r) => r.lcpMs)),
    cls: median(runs.map((r) => r.cls)),
  });
  try {
    console.log(
      `\nLighthouse 12 (mobile, simulated throttling), demo host page with only the open button, median of ${LIGHTHOUSE_RUNS}`,
    );
    const withoutRuns: M[] = [];
    const withRuns: M[] = [];
    for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
      withoutRuns.push(await metrics(`${base}/?noembed=1`));
      withRuns.push(await metrics(`${base}/?inline=0`));
    }
    const without = medianOf(withoutRuns);
    const withLoader = medianOf(withRuns);
    const diff = {
      tbtMs: withLoader.tbtMs - without.tbtMs,
      lcpMs: withLoader.lcpMs - without.lcpMs,
      cls: Math.round((withLoader.cls - without.cls) * 1000) / 1000,
    };
    for (const [label, m] of [
      ['without loader', without],
      ['with loader', withLoader],
    ] as const) {
      console.log(`  ${label.padEnd(15)} score ${m.score}  TBT ${m.tbtMs} ms  LCP ${m.lcpMs} ms  CLS ${m.cls}`);
    }
    const sign = (n: number) => (n >= 0 ? '+' : '');
    console.log(
      `  difference      TBT ${sign(diff.tbtMs)}${diff.tbtMs} ms  LCP ${sign(diff.lcpMs)}${diff.lcpMs} ms  CLS ${sign(diff.cls)}${diff.cls}`,
    );
    return {
      page: '/?inline=0',
      runs: LIGHTHOUSE_RUNS,
      withoutLoader: without,
      withLoader,
      difference: diff,
      allRuns: { withoutLoader: withoutRuns, withLoader: withRuns },
    };
  } finally {
    chrome.kill();
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const started = Date.now();
const loadAtStart = load();
console.log(`load average at start: ${loadAtStart}\n`);
const bare = await benchBare();
const postgres = await startPostgres();
const servers: Server[] = [];
let rows: Row[];
const storms: BenchResults['signInStorm'] = {};
const imports: Record<string, ImportStall> = {};
try {
  servers.push(await startServer('pglite', null), await startServer('postgres', postgres.url('postgres')));
  console.log(`\nThroughput, 10 connections, ${ROUNDS} alternating rounds of ${SECONDS} s (the median round kept)`);
  rows = await alternatingRounds(bare.base, servers);
  console.log('\nSign-in storm');
  for (const s of servers) storms[s.name] = await signInStorm(s.name, s.base, 100, 8);
  console.log(`\nEvent loop during a ${IMPORT_ROWS}-row import (monitorEventLoopDelay in the server)`);
  for (const s of servers) {
    const r = await importStall(s.base, s.monitorUrl, IMPORT_ROWS, s.name);
    imports[s.name] = r;
    console.log(
      `  ${s.name.padEnd(9)} ${r.rows} rows: ${r.status} in ${r.importMs} ms; longest event-loop stretch ${r.loopStretchMs} ms; longest /healthz gap ${r.healthzGapMs} ms (${r.probes} probes)`,
    );
  }
} finally {
  for (const s of servers) await stopServer(s);
  postgres.stop();
  await stopProcess(bare.child);
}
console.log('\nA fresh QR pass against /v1/auth/me, one request at a time (bench/qr-cost.ts)');
const qrCost = await benchQrCost();
const lh = await lighthouseRuns();
console.log('\nTime to QR (issue 30): cheap phone (CPU 4×), Slow 4G, median of 5');
const timeToQr = await benchTimeToQr();
console.log(qrTable(timeToQr));
console.log('\nGate simulation (bench/gate.ts): largest N holders with p99 ≤ 200 ms');
const gate = await benchGate();
console.log('\nMail at the speed of a crowd (bench/mail-crowd.ts): SMTP sink of 150 ms a message');
const mailCrowd = await benchMailCrowd();
console.log('\nCancelling a stadium (bench/cancel-crowd.ts): 20,000 tickets, SMTP sink of 150 ms a message');
const cancelCrowd = await benchCancelCrowd();
console.log('\nShed load, never fall over (bench/shed.ts): capacity, then three times it for 60 s, open loop');
const shed = await benchShed();
console.log('\nMemory of one process on PGlite (bench/memory.ts): resident idle and after holder load');
const memory = await benchMemory();
const bareRate = rows.find((r) => r.server === 'bare')!.reqPerSec;
for (const row of rows) row.ratio = Math.round((row.reqPerSec / bareRate) * 1000) / 1000;

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const results: BenchResults = {
  at: new Date().toISOString(),
  machine,
  load: { start: loadAtStart, end: load() },
  runSeconds: Math.round((Date.now() - started) / 1000),
  settings: { seconds: SECONDS, rounds: ROUNDS, holders: HOLDERS, importRows: IMPORT_ROWS },
  rows,
  qrCost,
  signInStorm: storms,
  importStall: imports,
  lighthouse: lh,
  timeToQr,
  gate,
  mailCrowd,
  cancelCrowd,
  shed,
  memory,
  targets: [],
};
results.targets = targetsOf(results);
console.log(
  `\n| server | test | conn. | req/s | p50 ms | p99 ms | ratio to bare |\n|---|---|---:|---:|---:|---:|---:|`,
);
for (const r of rows)
  console.log(`| ${r.server} | ${r.test} | ${r.connections} | ${r.reqPerSec} | ${r.p50} | ${r.p99} | ${r.ratio} |`);
printTargets(results);
writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log('Wrote bench/results.json');
if (process.argv.includes('--write-readme')) {
  await writeReadme(results);
  console.log('Rewrote the README Performance table from this run');
}
