/**
 * Starts an SMTP sink and the product server (npm start's compiled server, built panel; e2e/server.ts) on free
 * ports on 127.0.0.1, with a throw-away data directory. Received mails are written to E2E_MAIL_DIR as .eml
 * files (the sink's URL is E2E_SMTP_URL); the server's URL is E2E_BASE_URL, its scanner key E2E_SCANNER_KEY.
 * Everything is stopped at the end.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { freePort } from '../scripts/postgres.js';
import { startServer, type StartedServer } from './server';

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

  let server: StartedServer;
  try {
    server = await startServer({
      dataDir: join(dir, 'data'),
      smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
      env: {
        QR_TTL_SECONDS: '3',
        SCANNER_KEY,
        ADMIN_KEY,
        // Specs sign the same seeded people in many times: no resend cooldown, generous per-IP limits.
        OTP_RESEND_SECONDS: '0',
        OTP_REQUESTS_PER_IP_PER_MINUTE: '1000',
        OTP_VERIFIES_PER_IP_PER_MINUTE: '1000',
        REDEEM_PER_IP_PER_MINUTE: '1000',
        // alice's browsers ask for a device pass each: the branding screenshots alone open eight in a minute.
        PASS_CREDENTIALS_PER_USER_PER_MINUTE: '1000',
      },
    });
  } catch (err) {
    // Stop what this setup started: Playwright runs no teardown after a failed setup.
    smtp.close(() => {});
    throw err;
  }
  const { baseUrl, port } = server;
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_HOST_URL = `http://localhost:${port}`;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
  process.env.E2E_SCANNER_KEY = SCANNER_KEY;
  process.env.E2E_ADMIN_KEY = ADMIN_KEY;

  return async () => {
    await server.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  };
}
