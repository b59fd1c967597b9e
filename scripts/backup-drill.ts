/**
 * The README's backup and restore drill, run for real (issue 25; `npm run backup:drill`, a step of .ci/run):
 *
 * - **PostgreSQL**: a server (src/server.ts) on a database with a signed-in holder is backed up while it runs
 *   (`pg_dump --format=custom`, and DATA_DIR's files with `tar`), the backup is restored into a new database
 *   (`createdb`, `pg_restore`) and a new DATA_DIR, a fresh server starts on them, and the holder's refresh token
 *   still works, /me answers the holder, and sign-in works.
 * - **PGlite**: the server is stopped (SIGTERM: PGlite's files are consistent only once it has closed them),
 *   DATA_DIR is copied with `tar`, the server starts again at once; a fresh server on the copy lets the same holder
 *   refresh.
 *
 * The commands are the README's ("Backups"). Needs the build (`npm run build`; .ci/run runs the drill after
 * `npm test`, which builds) and Debian's postgresql (pg_dump, pg_restore, createdb on PATH;
 * the server under /usr/lib/postgresql, started by scripts/postgres.ts). Exit code 0 when both drills pass.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { devSignIn } from './dev-sign-in.js';
import { freePort, startPostgres } from './postgres.js';

const apiRoot = resolve(import.meta.dirname, '../apps/api');
const work = mkdtempSync(join(tmpdir(), 'tp-drill-'));
const started = Date.now();
const children: ChildProcess[] = [];

function say(line: string) {
  console.log(`[backup-drill ${((Date.now() - started) / 1000).toFixed(1)} s] ${line}`);
}

/** Runs a command as the README prints it (through bash), failing on a non-zero exit. */
function sh(command: string, env: Record<string, string> = {}) {
  try {
    execFileSync('bash', ['-euo', 'pipefail', '-c', command], {
      cwd: work,
      env: { ...process.env, ...env },
      stdio: 'pipe',
    });
  } catch (err) {
    throw new Error(`${command}: ${String((err as { stderr?: Buffer }).stderr ?? err)}`);
  }
}

interface Server {
  url: string;
  stop: () => Promise<void>;
}

/** The compiled server (what `npm start` runs) on 127.0.0.1 and a free port; resolves once /healthz answers. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: apiRoot,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`server stopped with ${code}:\n${out}`);
    },
  };
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Signs in through the e-mailed code (read from the dev outbox, 15 s at most); returns the tokens. */
const signIn = (base: string, email: string) => devSignIn(base, email, 15_000);

/**
 * On the restored server: the holder's refresh token of before the backup still works and /me answers the holder
 * (the session was restored); and sign-in works (another address: the holder's own is in its resend cooldown).
 */
async function checkRestored(base: string, email: string, refreshToken: string) {
  const refreshed = await post(`${base}/v1/auth/refresh`, { refreshToken });
  if (refreshed.status !== 200) throw new Error(`refresh after restore: ${refreshed.status}`);
  const { accessToken } = (await refreshed.json()) as { accessToken: string };
  const me = (await (
    await fetch(`${base}/v1/auth/me`, { headers: { authorization: `Bearer ${accessToken}` } })
  ).json()) as {
    email: string;
  };
  if (me.email !== email) throw new Error(`restored /v1/auth/me answered ${JSON.stringify(me)}`);
  await signIn(base, `after-${email}`);
}

async function postgresDrill() {
  const pg = await startPostgres();
  try {
    const ADMIN_URL = pg.url('postgres');
    sh('createdb --maintenance-db="$ADMIN_URL" tickets', { ADMIN_URL });
    const DATABASE_URL = pg.url('tickets');
    const DATA_DIR = join(work, 'pg-data');
    const server = await startServer({ DATABASE_URL, DATA_DIR });
    const email = 'drill-pg@example.com';
    const { refreshToken } = await signIn(server.url, email);
    say('PostgreSQL: holder signed in; backing up the running server');
    // README "Backups", PostgreSQL: the database while it runs, then DATA_DIR's files.
    sh('pg_dump --format=custom --file=tickets.dump "$DATABASE_URL"', { DATABASE_URL });
    sh('tar -C "$DATA_DIR" -czf data-dir.tgz .', { DATA_DIR });
    await server.stop();
    // Restore into a new database and a new DATA_DIR.
    const NEW_DATA_DIR = join(work, 'pg-restored');
    mkdirSync(NEW_DATA_DIR);
    sh('createdb --maintenance-db="$ADMIN_URL" tickets_restored', { ADMIN_URL });
    const NEW_DATABASE_URL = pg.url('tickets_restored');
    sh('pg_restore --no-owner --exit-on-error --dbname="$NEW_DATABASE_URL" tickets.dump', { NEW_DATABASE_URL });
    sh('tar -C "$NEW_DATA_DIR" -xzf data-dir.tgz', { NEW_DATA_DIR });
    const restored = await startServer({ DATABASE_URL: NEW_DATABASE_URL, DATA_DIR: NEW_DATA_DIR });
    await checkRestored(restored.url, email, refreshToken);
    await restored.stop();
    say('PostgreSQL: restored; the holder is still signed in');
  } finally {
    pg.stop();
  }
}

async function pgliteDrill() {
  const DATA_DIR = join(work, 'pglite-data');
  const server = await startServer({ DATA_DIR });
  const email = 'drill-pglite@example.com';
  const { refreshToken } = await signIn(server.url, email);
  say('PGlite: holder signed in; stopping the server for a consistent copy');
  // README "Backups", PGlite: stop (SIGTERM), copy DATA_DIR whole (then the README starts it again).
  await server.stop();
  sh('tar -C "$DATA_DIR" -czf pglite-backup.tgz .', { DATA_DIR });
  // Restore into a fresh DATA_DIR.
  const NEW_DATA_DIR = join(work, 'pglite-restored');
  mkdirSync(NEW_DATA_DIR);
  sh('tar -C "$NEW_DATA_DIR" -xzf pglite-backup.tgz', { NEW_DATA_DIR });
  const restored = await startServer({ DATA_DIR: NEW_DATA_DIR });
  await checkRestored(restored.url, email, refreshToken);
  await restored.stop();
  say('PGlite: restored; the holder is still signed in');
}

if (!existsSync(join(apiRoot, 'dist/server.js'))) throw new Error('backup-drill: run `npm run build` first');
try {
  // Side by side: each is mostly waiting for its servers to start.
  await Promise.all([postgresDrill(), pgliteDrill()]);
  say(`passed (servers on Node ${process.versions.node})`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
