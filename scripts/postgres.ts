/**
 * Starts a throw-away PostgreSQL server on 127.0.0.1 and a free port, for tests.
 * Uses Debian's binaries under /usr/lib/postgresql/<version>/bin; as root, the data directory is
 * owned by and the server runs as the `postgres` user (PostgreSQL refuses to run as root).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The bin directory of the newest installed PostgreSQL, or null. */
export function findPostgresBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], 'bin') : null;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningPostgres {
  url: (db: string) => string;
  port: number;
  /** Stops the server for good and removes its data. */
  stop: () => void;
  /** `pg_ctl stop -m fast` (what a failover or restart does to clients); the data stays. */
  stopFast: () => void;
  /** Starts it again on the same port and data (after `stopFast`). */
  restart: () => void;
}

/**
 * initdb + pg_ctl start; returns connection URLs and a stop function.
 * @param options more server settings for `postgres` (`-c name=value …`), e.g. to load pg_stat_statements
 */
export async function startPostgres(options?: string): Promise<RunningPostgres> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql (apt-get install -y postgresql)');
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'tp-pg-'));
  const data = join(dir, 'data');
  const run = (cmd: string, args: string[]) => {
    const full = asRoot ? ['-u', 'postgres', '--', join(bin, cmd), ...args] : args;
    execFileSync(asRoot ? 'runuser' : join(bin, cmd), full, { stdio: 'pipe' });
  };
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-w',
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200${options ? ` ${options}` : ''}`,
      'start',
    ]);
  start();
  return {
    port,
    stopFast: () => run('pg_ctl', ['-D', data, '-w', '-m', 'fast', 'stop']),
    restart: start,
    url: (db) => `postgres://postgres@127.0.0.1:${port}/${db}`,
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        /* already gone */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
