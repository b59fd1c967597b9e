/**
 * `npm run bench` (issue 9): a benchmark, not a test. Starts a bare `node:http` server (the
 * baseline) and the real server the way `npm start` does (apps/api's start script), once on the
 * embedded database (PGlite) and once on a throw-away PostgreSQL, and drives them with autocannon:
 *
 * - throughput (10 connections): /healthz, /v1/auth/me, /v1/list/ticket_listing?status=UPCOMING,
 *   /v1/auth/access/qr cycling over 200+ holders with QR_TTL_SECONDS=1;
 * - one request at a time: /v1/auth/me and a freshly rendered QR pass (holders cycled more slowly
 *   than the 1 s time step, so every pass is rendered anew); target QR p50 ≤ 1.25 × me p50 + 1 ms;
 * - a sign-in storm: code requests at 100/s with distinct e-mails while /healthz is measured;
 *   targets /healthz p99 ≤ 50 ms and ≥ 95 % of code requests answered within 1 s (PGlite).
 *
 * Then Lighthouse 12 (CHROME_PATH, default /usr/bin/chromium) on the demo host page with and
 * without the loader (`/?noembed=1`), time to QR on an emulated cheap phone (bench/time-to-qr.ts, issue 30), and
 * the gate simulation (bench/gate.ts, issue 24: the largest event one instance serves, BENCH_GATE_* knobs).
 * Prints a table and writes bench/results.json. ~12 minutes.
 * Run the panel build first (`npm run build`; `npm start` does it) so the loader exists.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { freePort, startPostgres } from '../scripts/postgres.js';
import { chromiumArgs } from '../e2e/chromium.js';
import { codesFrom, signIn } from './sign-in.js';
import { benchTimeToQr, qrTable } from './time-to-qr.js';
import { benchGate } from './gate.js';

const root = resolve(import.meta.dirname, '..');
const HOLDERS = Number(process.env.BENCH_HOLDERS ?? 220);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

/** The server is started the way `npm start` starts it after building the panel: the API workspace's start script. */
const startCommand = ['npm', 'run', '--silent', 'start', '-w', '@tp/api'];
const apiStartScript = () =>
  (JSON.parse(readFileSync(join(root, 'apps/api/package.json'), 'utf8')) as { scripts: { start: string } }).scripts
    .start;

interface Row {
  server: string;
  test: string;
  connections: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  ratio?: number;
}
const rows: Row[] = [];
const notes: Record<string, unknown> = {};

/** Starts a command in its own process group; resolves once `readyUrl` answers 200. */
async function startProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, readyUrl: string) {
  const child = spawn(cmd, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const deadline = Date.now() + 90_000;
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

async function stopProcess(child: ChildProcess) {
  const running = () => child.exitCode === null && child.signalCode === null;
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      /* already gone */
    }
  };
  if (!running()) return;
  const exited = new Promise((r) => child.once('exit', r));
  signal('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (running()) signal('SIGKILL');
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

async function record(server: string, test: string, opts: Options) {
  const r = await cannon(opts);
  rows.push({ server, test, connections: opts.connections ?? 10, ...r });
  console.log(
    `  ${server.padEnd(9)} ${test.padEnd(34)} ${String(r.reqPerSec).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms${r.errors ? `  errors ${r.errors}` : ''}`,
  );
  return r;
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
  rows.push({ server, test: `/healthz during ${perSecond} codes/s`, connections: 2, ...h });
  console.log(
    `  ${server.padEnd(9)} sign-in storm: ${perSecond}/s × ${seconds} s; ${storm.answeredWithin1sPct} % answered within 1 s (p50 ${storm.codeP50} ms), /healthz p99 ${h.p99} ms`,
  );
  return storm;
}

/** The real server, started as `npm start` starts it (apps/api's start script), against `databaseUrl` or PGlite. */
async function benchServer(name: string, databaseUrl: string | null) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-bench-'));
  console.log(`\n${name}: ${startCommand.join(' ')} (${apiStartScript()})`);
  const child = await startProcess(
    'npm',
    startCommand.slice(1),
    {
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
    },
    root,
    `${base}/readyz`,
  );
  try {
    const holders = await seedHolders(base, HOLDERS);
    const auth = { authorization: await signIn(base, 'alice@example.com') };
    let next = 0;
    const perRequestHolder = {
      requests: [
        {
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            headers: { ...req.headers, authorization: holders[next++ % holders.length] },
          }),
        },
      ],
    };

    await record(name, '/healthz', { url: `${base}/healthz` });
    await record(name, '/v1/auth/me', { url: `${base}/v1/auth/me`, headers: auth });
    await record(name, '/v1/list/ticket_listing?status=UPCOMING', {
      url: `${base}/v1/list/ticket_listing?status=UPCOMING`,
      headers: auth,
    });
    await record(name, `/v1/auth/access/qr (${holders.length} holders)`, {
      url: `${base}/v1/auth/access/qr`,
      ...perRequestHolder,
    });
    // One request at a time; holders cycled at 150/s over 220 holders: each pass is ≥ 1.4 s (> ttl) old, so rendered afresh.
    const me1 = await record(name, '/v1/auth/me, 1 at a time', {
      url: `${base}/v1/auth/me`,
      headers: auth,
      connections: 1,
      overallRate: 150,
    });
    const qr1 = await record(name, '/v1/auth/access/qr fresh, 1 at a time', {
      url: `${base}/v1/auth/access/qr`,
      connections: 1,
      overallRate: 150,
      ...perRequestHolder,
    });
    const storm = await signInStorm(name, base, 100, 8);
    notes[name] = {
      qrFreshP50Ms: qr1.p50,
      meP50Ms: me1.p50,
      qrTargetMs: Math.round((1.25 * me1.p50 + 1) * 100) / 100,
      qrWithinTarget: qr1.p50 <= 1.25 * me1.p50 + 1,
      signInStorm: storm,
    };
  } finally {
    await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchBare() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const code = `require('node:http').createServer((q,s)=>{s.setHeader('content-type','application/json; charset=utf-8');s.end('{"status":"ok"}')}).listen(${port},'127.0.0.1')`;
  console.log('\nbare node:http');
  const child = await startProcess(process.execPath, ['-e', code], {}, root, `${base}/`);
  try {
    return await record('bare', '/healthz', { url: `${base}/healthz` });
  } finally {
    await stopProcess(child);
  }
}

/** Lighthouse (performance) on the demo host page with and without the loader, on a PGlite server. */
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
  const metrics = async (url: string) => {
    const result = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ['performance'],
      output: 'json',
      logLevel: 'error',
    });
    const audits = result!.lhr.audits;
    return {
      score: Math.round((result!.lhr.categories.performance.score ?? 0) * 100),
      tbtMs: Math.round(audits['total-blocking-time'].numericValue ?? NaN),
      lcpMs: Math.round(audits['largest-contentful-paint'].numericValue ?? NaN),
      cls: Math.round((audits['cumulative-layout-shift'].numericValue ?? NaN) * 1000) / 1000,
    };
  };
  try {
    console.log('\nLighthouse 12 (mobile, simulated throttling), demo host page');
    const without = await metrics(`${base}/?noembed=1`);
    const withLoader = await metrics(`${base}/`);
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
    console.log(
      `  difference      TBT ${diff.tbtMs >= 0 ? '+' : ''}${diff.tbtMs} ms  LCP ${diff.lcpMs >= 0 ? '+' : ''}${diff.lcpMs} ms  CLS ${diff.cls >= 0 ? '+' : ''}${diff.cls}`,
    );
    return { withoutLoader: without, withLoader, difference: diff };
  } finally {
    chrome.kill();
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const started = Date.now();
const bare = await benchBare();
await benchServer('pglite', null);
const pg = await startPostgres();
try {
  await benchServer('postgres', pg.url('postgres'));
} finally {
  pg.stop();
}
const lh = await lighthouseRuns();
console.log('\nTime to QR (issue 30): cheap phone (CPU 4×), Slow 4G, median of 5');
const timeToQr = await benchTimeToQr();
console.log(qrTable(timeToQr));
console.log('\nGate simulation (bench/gate.ts): largest N holders with p99 ≤ 200 ms');
const gate = await benchGate();
for (const row of rows) row.ratio = Math.round((row.reqPerSec / bare.reqPerSec) * 1000) / 1000;

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(
  `\n| server | test | conn. | req/s | p50 ms | p99 ms | ratio to bare |\n|---|---|---:|---:|---:|---:|---:|`,
);
for (const r of rows)
  console.log(`| ${r.server} | ${r.test} | ${r.connections} | ${r.reqPerSec} | ${r.p50} | ${r.p99} | ${r.ratio} |`);
console.log(`\nMachine: ${machine}; run took ${Math.round((Date.now() - started) / 1000)} s`);
for (const [name, n] of Object.entries(notes)) console.log(`${name}: ${JSON.stringify(n)}`);
writeFileSync(
  join(root, 'bench/results.json'),
  `${JSON.stringify({ at: new Date().toISOString(), machine, rows, targets: notes, lighthouse: lh, timeToQr, gate }, null, 2)}\n`,
);
console.log('Wrote bench/results.json');
