/**
 * Starts an SMTP sink and the product server (npm start's compiled server, built panel) on free ports on
 * 127.0.0.1, with a throw-away data directory. Received mails are written to E2E_MAIL_DIR as .eml
 * files; the server's URL is E2E_BASE_URL, its scanner key E2E_SCANNER_KEY. Everything is stopped at the end.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { freePort } from '../scripts/postgres.js';

/** The door scanner key of the e2e server (E2E_SCANNER_KEY in the specs). */
const SCANNER_KEY = 'e2e-door-scanner-key';
/** The platform key of the e2e server (E2E_ADMIN_KEY in the specs: creates organisations). */
const ADMIN_KEY = 'e2e-platform-admin-key';

export default async function globalSetup() {
  for (const built of ['apps/api/dist/server.js', 'apps/panel/dist/index.html', 'apps/panel/dist/scanner/index.html']) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build before the Playwright specs`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'tp-e2e-'));
  const mailDir = join(dir, 'mail');
  mkdirSync(mailDir);
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
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // The compiled server, as `npm start` runs it (`npm run build` comes first: npm test does it).
  const server = spawn(process.execPath, ['apps/api/dist/server.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: join(dir, 'data'),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      QR_TTL_SECONDS: '3',
      SCANNER_KEY,
      ADMIN_KEY,
      LOG_LEVEL: 'warn',
      // Specs sign the same seeded people in many times: no resend cooldown, generous per-IP limits.
      OTP_RESEND_SECONDS: '0',
      OTP_REQUESTS_PER_IP_PER_MINUTE: '1000',
      OTP_VERIFIES_PER_IP_PER_MINUTE: '1000',
      REDEEM_PER_IP_PER_MINUTE: '1000',
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
      // Stop what this setup started: Playwright runs no teardown after a failed setup.
      server.kill('SIGKILL');
      smtp.close(() => {});
      throw new Error(`server did not become ready in ${Date.now() - started} ms`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  console.log(`[e2e] server ready in ${Date.now() - started} ms`);
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_HOST_URL = `http://localhost:${port}`;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_SCANNER_KEY = SCANNER_KEY;
  process.env.E2E_ADMIN_KEY = ADMIN_KEY;

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  };
}
