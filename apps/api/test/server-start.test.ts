/**
 * Starting the server on a busy port (issue 23): one line naming PORT on stderr and exit 1, not a JSON stack
 * trace. Runs the real entry point (src/server.ts, bundled for this run: server-process.ts `bundledEntry`, as
 * config.test.ts does) against a port a listener of this test holds.
 * PGlite project only (vitest.config.ts `oneDatabaseFiles`): nothing here differs by database.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenFailure, startBanner } from '../src/lib/listen.js';
import { bundledEntry } from './server-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'tp-start-'));
let busy: Server;
let port: number;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  port = (busy.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((r) => busy.close(r));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a busy port', () => {
  it('the server prints one line naming PORT and exits 1', async () => {
    const root = resolve(import.meta.dirname, '../../..');
    const child = spawn(process.execPath, [bundledEntry('server.js')], {
      cwd: root,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false' },
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const status = await new Promise<number | null>((r) => child.on('exit', r));
    expect(status).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toEqual([
      `Port ${port} on 127.0.0.1 is already in use: stop what is using it, or set PORT to a free port (PORT=${port + 1} npm start).`,
    ]);
    expect(stdout).not.toMatch(/EADDRINUSE|"level"/);
  }, 180_000);

  it('other listen errors are not explained away', () => {
    expect(listenFailure(Object.assign(new Error('x'), { code: 'ECONNRESET' }), { port: 1, host: 'h' })).toBeNull();
    expect(listenFailure(undefined, { port: 1, host: 'h' })).toBeNull();
  });
});

describe('the start banner (issue 41, point 11)', () => {
  it('names the console beside the panel, the scanner and the organiser API', () => {
    const banner = startBanner({ publicUrl: 'http://localhost:8080', dataDir: '/d', smtpUrl: null, devOutbox: true });
    expect(banner).toMatch(/Console: +http:\/\/localhost:8080\/console /);
    expect(banner).toContain('http://localhost:8080/en/?PANEL_TAB=LOGIN');
    expect(banner).toContain('http://localhost:8080/scanner (key: SCANNER_KEY, else the one in /d/scanner-key)');
    expect(banner).toContain('Dev outbox:     http://localhost:8080/dev/mail');
  });
});
