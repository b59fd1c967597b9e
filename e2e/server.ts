/**
 * Starts the product server as `npm start` runs it (the compiled apps/api/dist/server.js) on a free port on
 * 127.0.0.1 with a data directory of its own, and waits for /readyz. global-setup.ts starts the one every
 * spec uses; a spec that needs other settings (a resend window, say) starts its own beside it.
 */
import { spawn } from 'node:child_process';
import { freePort } from '../scripts/postgres.js';

export interface StartedServer {
  baseUrl: string;
  port: number;
  stop: () => Promise<void>;
}

/**
 * @param opts.dataDir the server's DATA_DIR (PGlite data, uploads)
 * @param opts.smtpUrl where it sends mail (the sink of global-setup.ts)
 * @param opts.env further environment (config.ts names), over the defaults below
 * @throws Error when the server exits or is not ready within 5 minutes (it is killed then)
 */
export async function startServer(opts: {
  dataDir: string;
  smtpUrl: string;
  env?: Record<string, string>;
}): Promise<StartedServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['apps/api/dist/server.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: opts.dataDir,
      SMTP_URL: opts.smtpUrl,
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Waits for /readyz (the loop ends as soon as it answers, or when the server exits). Under `npm test` the server
  // starts while typecheck and Vitest use the cores: on a loaded 2-core machine its migrations and seed took over
  // 60 s, so the cap is 5 minutes.
  const started = Date.now();
  const deadline = started + 300_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) {
      server.kill('SIGKILL');
      throw new Error(`server did not become ready in ${Date.now() - started} ms`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  console.log(`[e2e] server ready in ${Date.now() - started} ms`);
  return {
    baseUrl,
    port,
    stop: async () => {
      if (server.exitCode !== null) return;
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    },
  };
}
