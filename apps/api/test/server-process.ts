/**
 * Runs the real server (`src/server.ts`, bundled for this run: test/setup/server-bundle.ts) as a child process on 127.0.0.1 and a free port, for the
 * tests that need real processes: outages, signals. Output is kept for failure messages.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { freePort } from '../../../scripts/postgres.js';

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Its DATA_DIR (generated keys, embedded database). */
  dataDir: string;
  /** stdout + stderr so far. */
  output: () => string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** Kills it if still running and removes its data directory. */
  dispose: () => Promise<void>;
}

const apiRoot = resolve(import.meta.dirname, '..');

/**
 * The compiled entry of this run's source, `join(serverBundle, name)`: `server.js` (src/server.ts) or `db-transfer.js`
 * (scripts/db-transfer.ts), run with `node <file>` from any directory. Bundled once per run by the global setup
 * (test/setup/server-bundle.ts): a start through tsx cost about 2 more CPU s (issue 42).
 */
export const bundledEntry = (name: 'server.js' | 'db-transfer.js'): string => join(inject('serverBundle'), name);

/**
 * Starts a server with `env` on top of test defaults; resolves once /healthz answers (120 s at most).
 * `dataDir`: an existing DATA_DIR to run on (default: a new one); `dispose` removes it either way.
 * A new DATA_DIR on PGlite (no DATABASE_URL or DATA_DIR in `env`) in the PGlite project starts with the migrated
 * template its global setup dumped (test/setup/global-pglite.ts), unpacked as `DATA_DIR/pglite`, like the in-process
 * tests' databases: the server's start-up migration then finds nothing to apply (about 4 of a start's 10 CPU s on a
 * fresh directory, issue 42). A first start on an empty directory is what Playwright's server, the backup drill and
 * the quick start run.
 */
export async function startServerProcess(env: Record<string, string> = {}, dataDirIn?: string): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = dataDirIn ?? mkdtempSync(join(tmpdir(), 'tp-proc-'));
  const template = inject('dbTemplate');
  if (!dataDirIn && !env.DATA_DIR && !env.DATABASE_URL && template.startsWith('pglite:')) {
    mkdirSync(join(dataDir, 'pglite'));
    execFileSync('tar', ['-xf', template.slice('pglite:'.length), '-C', join(dataDir, 'pglite')]);
  }
  // @tp/contract from its TypeScript source, bundled in, like the rest of the tests (decision 008).
  const child = spawn(process.execPath, [bundledEntry('server.js')], {
    cwd: apiRoot,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      JWT_SECRET: 'process-test-secret-'.padEnd(48, 'x'),
      SCANNER_KEY: 'process-test-scanner-key',
      LOG_LEVEL: 'warn',
      // Load shedding off, as for the in-process apps (test/helper.ts): a test's burst on a loaded machine is not
      // what these servers are there to refuse (a CI run beside other work: 503 api.busy for a burst of sign-ins).
      SHED_EVENT_LOOP_DELAY_MS: '0',
      SHED_DATABASE_WAITING: '0',
      SHED_MAX_IN_FLIGHT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  // A cap, not a measure: a server started (then through tsx) on a fresh database beside the whole suite took over 60 s
  // on a loaded 2-core machine.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      // Not left running after the test file ends.
      child.kill('SIGKILL');
      await exited;
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    port,
    url,
    dataDir,
    output: () => out,
    exited,
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Signs in through a server's endpoints, reading the code from its dev outbox, or from those of `outboxes` (servers
 * on one database: the code mail is a job any of them may send).
 */
export async function signInOver(
  url: string,
  email: string,
  outboxes: string[] = [url],
): Promise<{ accessToken: string; refreshToken: string }> {
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const r1 = await post('/v1/auth/signInOrRegisterAndSignIn', { email });
  if (!r1.ok) throw new Error(`sign-in request ${r1.status}`);
  const { sessionId } = (await r1.json()) as { sessionId: string };
  // The code mail is a job sent a moment after the answer (decision 030): wait for it, 60 s at most (10 s was passed
  // in a loaded CI run, stop 56: the verify then went without a code).
  let otp: string | undefined;
  for (const deadline = Date.now() + 60_000; !otp && Date.now() < deadline;) {
    for (const at of outboxes) {
      const outbox = (await (await fetch(`${at}/dev/mail.json`)).json()) as { to: string; text: string }[];
      otp ??= outbox.find((m) => m.to === email)?.text.match(/\b(\d{6})\b/)?.[1];
    }
    if (!otp) await new Promise((r) => setTimeout(r, 50));
  }
  if (!otp) throw new Error(`no sign-in code for ${email} in 60 s`);
  const r2 = await post('/v1/auth/verifyLoginRequest', { email, session: sessionId, otp });
  if (!r2.ok) throw new Error(`verify ${r2.status}`);
  return (await r2.json()) as { accessToken: string; refreshToken: string };
}
