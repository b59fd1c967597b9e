/**
 * The compiled API as the benchmarks start it (`npm run build` first): `node [the start script's options] [nodeArgs]
 * apps/api/dist/server.js`, with the start script's environment variables, on
 * 127.0.0.1, its own address as PUBLIC_URL (or `http://<publicHost>:<port>`), LOG_LEVEL warn, `env` on top. One place for bench/gate.ts,
 * metrics-cost.ts, profile-listing.ts and time-to-qr.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from '../scripts/postgres.js';

const root = resolve(import.meta.dirname, '..');

/**
 * A started server: its process, port, base URL (`http://127.0.0.1:<port>`, where it listens) and PUBLIC_URL (the
 * base URL unless a `publicHost` was given).
 */
export interface BuiltServer {
  child: ChildProcess;
  port: number;
  base: string;
  publicUrl: string;
}

/**
 * What apps/api's start script (`NAME=value ... node <options> dist/server.js`, which `npm start` runs) sets: its
 * environment variables (glibc's malloc thresholds) and node options (the main thread's `--max-semi-space-size`),
 * decision 041.
 */
function startScript(): { env: Record<string, string>; nodeArgs: string[] } {
  const pkg = JSON.parse(readFileSync(join(root, 'apps/api/package.json'), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  const node = words.indexOf('node');
  const env = Object.fromEntries(
    words.slice(0, node).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]),
  );
  return { env, nodeArgs: words.slice(node + 1, words.indexOf('dist/server.js')) };
}

/**
 * Starts the server and resolves once `/readyz` answers 200.
 * @param opts.dataDir its DATA_DIR
 * @param opts.port the port (default: a free one)
 * @param opts.nodeArgs node options before the script (e.g. `--cpu-prof`), after the start script's own
 * @param opts.env variables over the bench's own environment and the start script's
 * @param opts.detached its own process group (stop it with its children: `process.kill(-pid)`)
 * @param opts.publicHost the host of its PUBLIC_URL (default 127.0.0.1, where it listens): `localhost` where the
 *   browser makes or uses passkeys, whose relying party must be a domain name, not an IP address (WebAuthn)
 * @throws Error when it exits first or is not ready within 120 s
 */
export async function startBuiltServer(opts: {
  dataDir: string;
  port?: number;
  env?: Record<string, string>;
  nodeArgs?: string[];
  detached?: boolean;
  publicHost?: string;
}): Promise<BuiltServer> {
  const port = opts.port ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const publicUrl = `http://${opts.publicHost ?? '127.0.0.1'}:${port}`;
  const start = startScript();
  const child = spawn(process.execPath, [...start.nodeArgs, ...(opts.nodeArgs ?? []), 'apps/api/dist/server.js'], {
    cwd: root,
    env: {
      ...process.env,
      ...start.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: publicUrl,
      DATA_DIR: opts.dataDir,
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: opts.detached ?? false,
  });
  for (const started = Date.now(); ;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (
      await fetch(`${base}/readyz`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return { child, port, base, publicUrl };
    if (Date.now() - started > 120_000) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** SIGTERM, then waits for the process to exit (at once if it already has). */
export async function stopBuiltServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
