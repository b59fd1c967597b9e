/**
 * Checks that the build is there, then starts one SMTP sink and one product server (npm start's compiled server,
 * built panel; e2e/server.ts) per Playwright worker slot (`config.workers`), each on free ports on 127.0.0.1 with a
 * throw-away data directory of its own, freshly seeded. Slot i's settings are exported as E2E_BASE_URL_i,
 * E2E_HOST_URL_i, E2E_MAIL_DIR_i, E2E_SMTP_URL_i, E2E_SCANNER_KEY_i and E2E_ADMIN_KEY_i; the worker running in slot i
 * (its `parallelIndex`) takes them as E2E_BASE_URL, … (e2e/fixtures.ts). Everything is stopped at the end.
 * With E2E_DATABASE=postgres the servers run on a throw-away PostgreSQL (one database per slot) instead of the
 * embedded database: `npm test` runs the exchange journey so as well (issue 45: the journey on both databases).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import pg from 'pg';
import { startPostgres } from '../scripts/postgres';
import { startMailSink, startServer, type StartedMailSink, type StartedServer } from './server';

/** The door scanner key of the e2e servers (E2E_SCANNER_KEY in the specs). */
const SCANNER_KEY = 'e2e-door-scanner-key';
/** The platform key of the e2e servers (E2E_ADMIN_KEY in the specs: creates organisations). */
const ADMIN_KEY = 'e2e-platform-admin-key';

/** Starts slot `slot`'s sink and server and exports its E2E_*_slot variables; what to stop goes into `stops`. */
async function startSlot(slot: number, stops: (() => Promise<void>)[], databaseUrl?: string) {
  const dir = mkdtempSync(join(tmpdir(), `tp-e2e-${slot}-`));
  stops.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
  const sink: StartedMailSink = await startMailSink(join(dir, 'mail'));
  stops.push(sink.stop);
  const server: StartedServer = await startServer({
    dataDir: join(dir, 'data'),
    smtpUrl: sink.smtpUrl,
    env: {
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      QR_TTL_SECONDS: '3',
      SCANNER_KEY,
      ADMIN_KEY,
      // Specs sign the same seeded people in many times: no resend cooldown, generous per-IP limits.
      OTP_RESEND_SECONDS: '0',
      OTP_REQUESTS_PER_IP_PER_MINUTE: '1000',
      OTP_VERIFIES_PER_IP_PER_MINUTE: '1000',
      REDEEM_PER_IP_PER_MINUTE: '1000',
      GIFTS_PER_USER_PER_MINUTE: '1000',
      // alice's browsers ask for a device pass each: the branding screenshots alone open eight in a minute.
      PASS_CREDENTIALS_PER_USER_PER_MINUTE: '1000',
      // alice changes her picture in several specs.
      AVATAR_UPLOADS_PER_HOLDER_PER_MINUTE: '1000',
      // A long journey on a loaded machine may move a ticket more than 5 minutes after its sign-in: the step-up
      // (issue 47) is walked by e2e/step-up.spec.ts on a server of its own with a 5-second window.
      STEP_UP_MAX_AGE_SECONDS: '3600',
    },
  });
  stops.push(server.stop);
  Object.assign(process.env, {
    [`E2E_BASE_URL_${slot}`]: server.baseUrl,
    [`E2E_HOST_URL_${slot}`]: `http://localhost:${server.port}`,
    [`E2E_MAIL_DIR_${slot}`]: sink.mailDir,
    [`E2E_SMTP_URL_${slot}`]: sink.smtpUrl,
    [`E2E_SCANNER_KEY_${slot}`]: SCANNER_KEY,
    [`E2E_ADMIN_KEY_${slot}`]: ADMIN_KEY,
  });
}

export default async function globalSetup(config: FullConfig) {
  for (const built of ['apps/api/dist/server.js', 'apps/panel/dist/index.html', 'apps/panel/dist/scanner/index.html']) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build before the Playwright specs`);
  }
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  const urls: (string | undefined)[] = [];
  if (process.env.E2E_DATABASE === 'postgres') {
    const server = await startPostgres();
    stops.push(() => Promise.resolve(server.stop()));
    const admin = new pg.Client({ connectionString: server.url('postgres') });
    await admin.connect();
    for (let i = 0; i < config.workers; i++) {
      await admin.query(`create database e2e_slot_${i}`);
      urls.push(server.url(`e2e_slot_${i}`));
    }
    await admin.end();
  }
  // The slots start at once (a start is mostly one core's work: migrations and seed).
  const started = await Promise.allSettled(
    Array.from({ length: config.workers }, (_, i) => startSlot(i, stops, urls[i])),
  );
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    // Stop what this setup started: Playwright runs no teardown after a failed setup.
    await stopAll();
    throw failed.reason;
  }
  // On PostgreSQL, each server must have migrated and seeded its own database (not fallen back to the embedded one).
  for (const url of urls) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ n: string }>('select count(*) as n from organisations');
    await client.end();
    if (Number(rows[0].n) === 0) {
      await stopAll();
      throw new Error(`the e2e server did not seed ${url}`);
    }
  }
  return stopAll;
}
