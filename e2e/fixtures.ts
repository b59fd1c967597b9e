/**
 * The `test` every spec imports (Playwright's, plus one fixture): each Playwright worker runs its own SMTP sink
 * and its own product server (e2e/server.ts: the compiled server on a throw-away PGlite data directory, freshly
 * seeded), started before the worker's first test or `beforeAll` and stopped when the worker ends. The specs
 * share a server's demo holders (alice's and bob's tickets, profiles and languages), its platform and door keys
 * and its mail sink (a sign-in code is found by address in the sink), so two workers on one server could read each
 * other's codes and change each other's tickets; one server per worker keeps each worker's specs, taken one file
 * at a time in file order (`fullyParallel: false`), on data only the specs before them in that worker touched
 * (decision 028 section 13).
 *
 * Sets, in the worker's process, the environment the specs and e2e/support.ts read: E2E_BASE_URL (the server on
 * 127.0.0.1), E2E_HOST_URL (the same server as localhost: the demo host page's other site), E2E_MAIL_DIR (the
 * sink's .eml files), E2E_SMTP_URL (the sink, for a spec's own server), E2E_SCANNER_KEY and E2E_ADMIN_KEY.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import { startMailSink, startServer } from './server';

export * from '@playwright/test';

/** The door scanner key of each worker's server (E2E_SCANNER_KEY in the specs). */
const SCANNER_KEY = 'e2e-door-scanner-key';
/** The platform key of each worker's server (E2E_ADMIN_KEY in the specs: creates organisations). */
const ADMIN_KEY = 'e2e-platform-admin-key';

/** The worker's server and sink, as the E2E_* variables above describe them. */
export interface WorkerServer {
  baseUrl: string;
  mailDir: string;
  smtpUrl: string;
}

export const test = base.extend<object, { workerServer: WorkerServer }>({
  workerServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function asks for from its first parameter
    async ({}, use, workerInfo) => {
      const dir = mkdtempSync(join(tmpdir(), `tp-e2e-w${workerInfo.parallelIndex}-`));
      const sink = await startMailSink(join(dir, 'mail'));
      try {
        const server = await startServer({
          dataDir: join(dir, 'data'),
          smtpUrl: sink.smtpUrl,
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
        try {
          Object.assign(process.env, {
            E2E_BASE_URL: server.baseUrl,
            E2E_HOST_URL: `http://localhost:${server.port}`,
            E2E_MAIL_DIR: sink.mailDir,
            E2E_SMTP_URL: sink.smtpUrl,
            E2E_SCANNER_KEY: SCANNER_KEY,
            E2E_ADMIN_KEY: ADMIN_KEY,
          });
          await use({ baseUrl: server.baseUrl, mailDir: sink.mailDir, smtpUrl: sink.smtpUrl });
        } finally {
          await server.stop();
        }
      } finally {
        await sink.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    // Started for every worker, before its first test or beforeAll. On a loaded 2-core machine a start (migrations
    // and seed) took over 60 s; startServer gives up after 5 minutes.
    { scope: 'worker', auto: true, timeout: 330_000 },
  ],
});
