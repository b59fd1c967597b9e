/**
 * Starts the product server as `npm start` runs it (the compiled apps/api/dist/server.js) on a free port on
 * 127.0.0.1 with a data directory of its own, and waits for /readyz; and the SMTP sink it mails to. global-setup.ts
 * starts one of each per Playwright worker slot, which that worker's specs use (fixtures.ts); a spec that needs other
 * settings (a resend window, say) starts its own server beside it, mailing to its worker's sink.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { freePort } from '../scripts/postgres.js';

export interface StartedMailSink {
  /** Where each received mail is written, as 0001.eml, 0002.eml, … in the order received (e2e/mail.ts reads them). */
  mailDir: string;
  /** smtp://127.0.0.1:PORT, the server's SMTP_URL. */
  smtpUrl: string;
  stop: () => Promise<void>;
}

/**
 * Starts an SMTP sink on a free port on 127.0.0.1 that writes every mail it receives to `mailDir` (created).
 * @param mailDir a directory of this sink's own: mail.ts counts its files
 */
export async function startMailSink(mailDir: string): Promise<StartedMailSink> {
  mkdirSync(mailDir, { recursive: true });
  let n = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        writeFileSync(join(mailDir, `${String(++n).padStart(4, '0')}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  return {
    mailDir,
    smtpUrl: `smtp://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

export interface StartedServer {
  baseUrl: string;
  port: number;
  stop: () => Promise<void>;
}

/**
 * @param opts.dataDir the server's DATA_DIR (PGlite data, uploads)
 * @param opts.smtpUrl where it sends mail (a sink of startMailSink)
 * @param opts.env further environment (config.ts names), over the defaults below
 * @param opts.publicHost the host of its PUBLIC_URL (default 127.0.0.1, where it listens): `localhost` for a spec
 *   that makes passkeys, whose relying party must be a domain name, not an IP address (WebAuthn); the spec then
 *   opens the panel at the returned `baseUrl`
 * @throws Error when the server exits or is not ready within 5 minutes (it is killed then)
 */
export async function startServer(opts: {
  dataDir: string;
  smtpUrl: string;
  env?: Record<string, string>;
  publicHost?: string;
}): Promise<StartedServer> {
  const port = await freePort();
  const baseUrl = `http://${opts.publicHost ?? '127.0.0.1'}:${port}`;
  const server = spawn(process.execPath, ['apps/api/dist/server.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: opts.dataDir,
      SMTP_URL: opts.smtpUrl,
      LOG_LEVEL: 'warn',
      // No load shedding: these servers run beside Vitest on a loaded 2-core machine, where a sign-in or a refetch
      // answered 503 `api.busy` failed journeys that test something else (deep-links, wallet-journey). What a holder
      // sees of a shed request is busy.spec.ts's; the shedding itself is apps/api/test/load-shedding.test.ts's.
      SHED_EVENT_LOOP_DELAY_MS: '0',
      SHED_DATABASE_WAITING: '0',
      SHED_MAX_IN_FLIGHT: '0',
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
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
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
