/**
 * The README's quick start, run for real on whatever Node is first on PATH (a step of .ci/run on Node 22, issue 42):
 * `npm start` (build, then the compiled server) on 127.0.0.1 and a free port with a throw-away DATA_DIR and the dev
 * outbox, then GET /healthz 200, one sign-in (code request, the code read from the dev outbox, verify; a request the
 * server sheds is sent again after its Retry-After and said on stderr, dev-sign-in.ts) and
 * GET /v1/auth/me 200, then SIGTERM to the whole `npm start` process group. Run `npm ci` first (.ci/run does).
 * `SMOKE_NODE_MAJOR` (e.g. 22): fail unless this process runs on that major. Exit code 0 when every step passed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { devSignIn } from './dev-sign-in.js';
import { freePort } from './postgres.js';

const root = resolve(import.meta.dirname, '..');
const started = Date.now();
const say = (line: string) => console.log(`[quick-start ${((Date.now() - started) / 1000).toFixed(1)} s] ${line}`);

const want = process.env.SMOKE_NODE_MAJOR;
if (want && process.versions.node.split('.')[0] !== want) {
  throw new Error(`running on Node ${process.versions.node}, SMOKE_NODE_MAJOR=${want}`);
}
say(`Node ${process.versions.node} (${process.execPath})`);

const dataDir = mkdtempSync(join(tmpdir(), 'tp-quick-start-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
// detached: its own process group, so that SIGTERM reaches npm, the build's children and the server alike.
const child = spawn('npm', ['start'], {
  cwd: root,
  detached: true,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stop = async () => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
};

try {
  // npm start builds first: minutes on a loaded 2-core machine.
  for (const deadline = Date.now() + 300_000; ;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    const r = await fetch(`${base}/healthz`).catch(() => null);
    if (r?.status === 200) break;
    if (Date.now() > deadline) throw new Error('/healthz did not answer 200 within 5 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
  say('GET /healthz 200');
  const { accessToken } = await devSignIn(base, 'quick-start@example.com');
  say('signed in with the code from the dev outbox');
  const me = await fetch(`${base}/v1/auth/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  if (me.status !== 200) throw new Error(`GET /v1/auth/me: ${me.status} ${await me.text()}`);
  say('GET /v1/auth/me 200');
} finally {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
}
say('passed');
