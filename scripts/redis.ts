/**
 * Starts a throw-away Redis server (Debian's `redis-server`) on 127.0.0.1 and a free port, for tests:
 * no persistence, stopped and restarted on the same port to simulate an outage.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { freePort } from './postgres.js';

/** True when `redis-server` is on the PATH. */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

export interface RunningRedis {
  url: string;
  port: number;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop: () => Promise<void>;
  /** Starts it again on the same port. */
  restart: () => Promise<void>;
}

/** Resolves once something accepts TCP connections on the port (10 s at most). */
async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = createConnection({ port, host: '127.0.0.1' }, () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server did not listen on ${port}`);
}

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
      { stdio: 'ignore' },
    );
    await waitForPort(port);
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    });
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, restart: start };
}
