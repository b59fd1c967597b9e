/**
 * Builds the app on a fresh, migrated database for one test: PGlite loaded from the template dump,
 * or a PostgreSQL database copied from the migrated template (project "api-pg").
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { fromPglite, openDatabase, type Database } from '../src/db/client.js';
import { seedDemo } from '../src/db/seed.js';
import type { PayoutProvider } from '../src/providers/payouts/payout.provider.js';
import type { MailMessage, MailProvider, OutboxEntry } from '../src/providers/mail/mail.provider.js';

let templateBlob: Blob | null = null;

async function freshDatabase(): Promise<Database> {
  const template = inject('dbTemplate');
  if (template.startsWith('pglite:')) {
    templateBlob ??= new Blob([readFileSync(template.slice('pglite:'.length))]);
    return fromPglite(await PGlite.create({ loadDataDir: templateBlob }));
  }
  const adminUrl = template.slice('pg:'.length);
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE tp_template`);
  await admin.end();
  return openDatabase({ databaseUrl: adminUrl.replace(/\/postgres$/, `/${name}`), dataDir: '' });
}

/** A mail provider that keeps messages for assertions; `failNext(n)` makes the next n sends reject. */
export function captureMail(): MailProvider & {
  sent: MailMessage[];
  lastCodeFor(email: string): string;
  failNext(n: number): void;
} {
  const sent: MailMessage[] = [];
  let failures = 0;
  return {
    sent,
    send(m) {
      if (failures > 0) {
        failures--;
        return Promise.reject(new Error('smtp: 421 service not available'));
      }
      sent.push(m);
      return Promise.resolve();
    },
    failNext(n) {
      failures = n;
    },
    outbox: () => sent.map((m, i) => ({ ...m, id: i + 1, at: '' }) as OutboxEntry).reverse(),
    close() {},
    lastCodeFor(email) {
      const m = [...sent].reverse().find((x) => x.to === email.toLowerCase());
      const code = m?.text.match(/\b(\d{6})\b/)?.[1];
      if (!code) throw new Error(`no code mailed to ${email}`);
      return code;
    },
  };
}

export interface TestAppOptions {
  seed?: boolean;
  config?: Partial<Config>;
  start?: Date;
  payouts?: PayoutProvider;
  /** Keep the app's log lines of level warn and above in `logs` (the app logs nothing otherwise). */
  logs?: boolean;
  /** Adds routes before the app is ready (e.g. a route that throws, for the error handler). */
  routes?: (app: BuiltApp) => void;
}

/** One parsed pino log line. */
export type LogLine = { level: number; msg: string; err?: { type: string; message: string; stack: string } } & Record<
  string,
  unknown
>;

/** A built app with its database, a movable clock and captured mail. Call `close()` after. */
export async function createTestApp(opts: TestAppOptions = {}) {
  const database = await freshDatabase();
  let current = opts.start ?? new Date();
  const clock = {
    now: () => current,
    advance: (ms: number) => {
      current = new Date(current.getTime() + ms);
    },
  };
  const mail = captureMail();
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-test-'));
  const config = loadConfig(
    {},
    {
      dataDir,
      jwtSecret: new TextEncoder().encode('test-secret-'.padEnd(48, 'x')),
      publicUrl: 'http://panel.test',
      otpRequestsPerIpPerMinute: 1000,
      otpVerifiesPerIpPerMinute: 1000,
      qrTtlSeconds: 30,
      ...opts.config,
    },
  );
  if (opts.seed) await seedDemo(database.db, current);
  const logs: LogLine[] = [];
  const logger = opts.logs
    ? { level: 'warn', stream: { write: (line: string) => logs.push(JSON.parse(line) as LogLine) } }
    : undefined;
  const app = await buildApp({ config, database, mail, now: clock.now, payouts: opts.payouts, logger });
  opts.routes?.(app);
  await app.ready();
  return {
    app,
    database,
    clock,
    mail,
    config,
    logs,
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    /** Signs in through the real endpoints and returns the tokens. */
    async signIn(email: string) {
      const r1 = await app.inject({ method: 'POST', url: '/v1/auth/signInOrRegisterAndSignIn', payload: { email } });
      if (r1.statusCode !== 200) throw new Error(`sign-in request ${r1.statusCode} ${r1.body}`);
      const r2 = await app.inject({
        method: 'POST',
        url: '/v1/auth/verifyLoginRequest',
        payload: { email, session: r1.json().sessionId, otp: mail.lastCodeFor(email) },
      });
      if (r2.statusCode !== 200) throw new Error(`verify ${r2.statusCode} ${r2.body}`);
      // Let the resend cooldown pass so a later sign-in of the same e-mail works.
      clock.advance(61_000);
      return r2.json() as { accessToken: string; refreshToken: string };
    },
  };
}
export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** `Authorization` header for a token. */
export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
