/**
 * Builds the app on a fresh, migrated database for one test: PGlite loaded from the template dump,
 * or a PostgreSQL database copied from the migrated template (project "api-pg").
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { z } from 'zod';
import type { auth, gift, resell, swap } from '@tp/contract';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, openPgliteThread, type Database } from '../src/db/client.js';
import { seedDemo } from '../src/db/seed.js';
import type { PayoutProvider } from '../src/providers/payouts/payout.provider.js';
import type { MailMessage, MailProvider } from '../src/providers/mail/mail.provider.js';
import { checkAnswersAgainstDocument } from './openapi-conformance.js';

let templateBytes: Uint8Array | null = null;

/** True in the PostgreSQL project: tests that need a server (several instances, outages) skip on PGlite. */
export const onPostgres = (): boolean => inject('dbTemplate').startsWith('pg:');

/**
 * The image-decoding processes' module for test apps: this run's bundled `image-decode.worker.js`
 * (test/setup/server-bundle.ts), as the compiled server runs it; through tsx each decoding process cost about 0.3 s
 * more to start on a loaded machine (issue 42, decision 028 section 15).
 */
const bundledImageWorker = (): string => join(inject('serverBundle'), 'image-decode.worker.js');
/** The Apple pass-signing threads' module for test apps: this run's bundled `pass-signing.worker.js`, as above. */
const bundledSigningWorker = (): string => join(inject('serverBundle'), 'pass-signing.worker.js');

/**
 * The URL of a new database on the suite's PostgreSQL server (project "api-pg" only): a copy of the
 * migrated template, or an empty one (`empty: true`).
 */
export async function freshPostgresUrl(opts: { empty?: boolean } = {}): Promise<string> {
  const adminUrl = inject('dbTemplate').slice('pg:'.length);
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(opts.empty ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE tp_template`);
  await admin.end();
  return adminUrl.replace(/\/postgres$/, `/${name}`);
}

async function openTemplateCopy(): Promise<Database> {
  const template = inject('dbTemplate');
  if (template.startsWith('pglite:')) {
    // On its worker thread, as the server runs it (decision 021).
    templateBytes ??= new Uint8Array(readFileSync(template.slice('pglite:'.length)));
    return openPgliteThread({ loadDataDir: templateBytes }, new URL(inject('pgliteWorker')));
  }
  return openDatabase({ databaseUrl: await freshPostgresUrl(), dataDir: '' });
}

/**
 * Databases of finished tests, emptied back to the migrated template's state, for the next tests of the file and
 * (one of them, test/setup/close-databases.ts) of the worker's next file:
 * opening a copy of the template costs 1-3 s on PGlite (a database thread, 40 MB of data dir loaded, the
 * server started) and 0.2-0.5 s on PostgreSQL (CREATE DATABASE, a pool), emptying one costs tens of
 * milliseconds. The migrations insert no rows, so the template's tables are empty and emptying them (EMPTY_ALL)
 * gives the template's state, serials included.
 */
const idleDatabases: Database[] = [];

/** Closes the idle databases but `keep`: after each test file (test/setup/close-databases.ts). */
export async function closeIdleDatabases(keep = 0): Promise<void> {
  await Promise.all(idleDatabases.splice(keep).map((d) => d.close()));
}

async function freshDatabase(): Promise<Database> {
  return idleDatabases.pop() ?? openTemplateCopy();
}

/**
 * Empties every table of the app's schemas (not drizzle's migration journal) and restarts every sequence: the
 * template's state. DELETE under `session_replication_role = replica` (no foreign-key triggers) rather than
 * TRUNCATE, which costs about 200 ms on PostgreSQL for these few rows (new files for each table).
 */
const EMPTY_ALL = `do $$
declare r record;
begin
  set local session_replication_role = replica;
  for r in select format('%I.%I', schemaname, tablename) as name from pg_tables
           where schemaname not in ('pg_catalog', 'information_schema', 'drizzle') loop
    execute 'delete from ' || r.name;
  end loop;
  for r in select format('%I.%I', schemaname, sequencename) as name from pg_sequences
           where schemaname not in ('pg_catalog', 'information_schema', 'drizzle') loop
    perform setval(r.name, 1, false);
  end loop;
end $$`;

/** Empties `database` back to the template's state and keeps it for the next test; closes it when that fails. */
async function releaseDatabase(database: Database): Promise<void> {
  try {
    await database.db.execute(EMPTY_ALL);
    idleDatabases.push(database);
  } catch {
    await database.close();
  }
}

/*
 * Answer bodies of the calls the tests read, from the contract's schemas, for light-my-request's typed
 * `res.json<T>()` (untyped it is any). Failed calls answer with the contract's `ErrorBody`.
 */
export type SignInBody = z.infer<typeof auth.signInResponse>;
export type TokenPair = z.infer<typeof auth.tokenPair>;
export type UserSearchBody = z.infer<typeof gift.userSearchResult>[];
export type UnlockBody = z.infer<typeof gift.unlockResponse>;
export type ResellableTicketBody = z.infer<typeof resell.resellableTicket>;
export type ListingBody = z.infer<typeof resell.listing>;
export type CreateResaleBody = z.infer<typeof resell.createResaleResponse>;
export type ClientSecretBody = z.infer<typeof resell.clientSecretResponse>;
export type SwapTicketBody = z.infer<typeof swap.swapTicket>;
export type StartSwapBody = z.infer<typeof swap.startSwapResponse>;

/**
 * Runs raw SQL (test set-up and checks of stored state) and returns its rows typed as `T`; both drivers'
 * results carry `rows`.
 */
export async function rawQuery<T>(db: Database['db'], query: string): Promise<{ rows: T[] }> {
  const result: unknown = await db.execute(query);
  return result as { rows: T[] };
}

/**
 * A mail provider that keeps messages for assertions; `failNext(n)` makes the next n sends reject (a temporary
 * `421`), `failNext(n, to)` the next n sends to that address only (the jobs of one request run in parallel lanes, in
 * no set order), `failNext(n, to, 550)` with a permanent refusal as nodemailer reports it (`responseCode`, and the
 * refused addresses in `rejected` and `rejectedErrors[].recipient`).
 */
export function captureMail(): MailProvider & {
  sent: MailMessage[];
  lastCodeFor(email: string): string;
  failNext(n: number, to?: string, responseCode?: number): void;
} {
  const sent: MailMessage[] = [];
  let failures = 0;
  let failTo: string | undefined;
  let failCode = 421;
  return {
    sent,
    send(m) {
      if (failures > 0 && (failTo === undefined || failTo === m.to)) {
        failures--;
        if (failCode === 421) return Promise.reject(new Error('smtp: 421 service not available'));
        const response = `${failCode} 5.1.1 <${m.to}>: Recipient address rejected: User unknown`;
        return Promise.reject(
          // As nodemailer's SMTP transport rejects: the envelope's refused addresses ride along on the error.
          Object.assign(new Error(`Can't send mail - all recipients were rejected: ${response}`), {
            code: 'EENVELOPE',
            command: 'RCPT TO',
            responseCode: failCode,
            response,
            rejected: [m.to],
            rejectedErrors: [Object.assign(new Error(response), { recipient: m.to, responseCode: failCode })],
          }),
        );
      }
      sent.push(m);
      return Promise.resolve();
    },
    failNext(n, to, responseCode = 421) {
      failures = n;
      failTo = to?.toLowerCase();
      failCode = responseCode;
    },
    outbox: () => sent.map((m, i) => ({ ...m, id: i + 1, at: '' })).reverse(),
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
  /**
   * Keep the app's log lines in `logs` (the app logs nothing otherwise): `true` those of level warn and above,
   * `'debug'` every line of level debug and above.
   */
  logs?: boolean | 'debug';
  /** Adds routes before the app is ready (e.g. a route that throws, for the error handler). */
  routes?: (app: BuiltApp) => void;
  /** Runs on this database instead of a fresh template copy; `close()` leaves it open (its owner closes it). */
  database?: Database;
  /**
   * false: `app.inject` answers without running the due jobs (a test of timing, whose probes must not wait for
   * the mails); the app's worker still sends them on its own.
   */
  runJobs?: boolean;
  /**
   * true: the app sends mail with its own provider, as configured (`config.smtpUrl` over SMTP, with its timeouts),
   * instead of the captured mail (`mail` then stays empty).
   */
  realMail?: boolean;
  /** PEM certificates the organisation logo's fetch trusts (a test's own HTTPS server on 127.0.0.1). */
  logoFetchCa?: string;
}

/** One parsed pino log line. */
export type LogLine = { level: number; msg: string; err?: { type: string; message: string; stack: string } } & Record<
  string,
  unknown
>;

/** A built app with its database, a movable clock and captured mail. Call `close()` after. */
export async function createTestApp(opts: TestAppOptions = {}) {
  const database = opts.database ?? (await freshDatabase());
  let current = opts.start ?? new Date();
  const clock = {
    now: () => current,
    advance: (ms: number) => {
      current = new Date(current.getTime() + ms);
    },
  };
  const mail = captureMail();
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-test-'));
  const config = testConfig(dataDir, opts.config);
  if (opts.seed) await seedDemo(database.db, current);
  const logs: LogLine[] = [];
  const logger = opts.logs
    ? {
        level: opts.logs === 'debug' ? 'debug' : 'warn',
        stream: { write: (line: string) => logs.push(JSON.parse(line) as LogLine) },
      }
    : undefined;
  const app = await buildApp({
    config,
    database,
    mail: opts.realMail ? undefined : mail,
    now: clock.now,
    payouts: opts.payouts,
    logger,
    logoFetchCa: opts.logoFetchCa,
    imageDecodeWorker: bundledImageWorker(),
    passSigningWorker: bundledSigningWorker(),
  });
  opts.routes?.(app);
  await app.ready();
  // The one hook of issue 28: every answer a suite reads is checked against the API document.
  checkAnswersAgainstDocument(app);
  if (opts.runJobs !== false) runJobsAfterEachRequest(app);
  let closed = false;
  return {
    app,
    database,
    clock,
    mail,
    config,
    logs,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      if (!opts.database) await releaseDatabase(database);
      rmSync(dataDir, { recursive: true, force: true });
    },
    /** Signs in through the real endpoints and returns the tokens. */
    signIn: (email: string) => signInThrough(app, mail, clock, email),
  };
}
export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * After each `app.inject(opts)`, runs the jobs that are due on the app's clock (decision 030: every e-mail is a job
 * the worker sends a moment after the commit), so a test reads the mails of a request as soon as it answered. A job
 * that failed waits its backoff on the test clock: advance it and call `app.services.jobs.runDue()`.
 * The worker's own timing (a woken worker sends within a second) is tested in job-queue.test.ts.
 */
function runJobsAfterEachRequest(app: BuiltApp): void {
  const inject = (app.inject as (...args: unknown[]) => unknown).bind(app);
  (app as { inject: unknown }).inject = (...args: unknown[]) => {
    if (args.length !== 1 || args[0] === undefined) return inject(...args);
    return (inject(args[0]) as Promise<unknown>).then(async (res) => {
      await app.services.jobs.runDue();
      return res;
    });
  };
}

/**
 * Runs a race control's `round` up to `rounds` times, until `lost` says the race was lost (the lock removed, the rule
 * broken); returns that round's result, or the last one's. A race is a matter of timing: on a loaded machine one round
 * may happen to run its transactions one after the other, so one round that stayed correct proves nothing. Each
 * round must start from its own state (a fresh session, rows removed), since the previous one may have changed it.
 */
export async function untilRaceLost<T>(round: () => Promise<T>, lost: (result: T) => boolean, rounds = 5): Promise<T> {
  let result = await round();
  for (let i = 1; i < rounds && !lost(result); i++) result = await round();
  return result;
}

/** The config every test app gets, with `overrides` on top. */
function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  return loadConfig(
    {},
    {
      dataDir,
      jwtSecret: new TextEncoder().encode('test-secret-'.padEnd(48, 'x')),
      publicUrl: 'http://panel.test',
      otpRequestsPerIpPerMinute: 1000,
      otpVerifiesPerIpPerMinute: 1000,
      // The avatar tests' holders upload many times a minute (the queue's rules are their subject);
      // avatar.test.ts sets the real bound for its test of it.
      avatarUploadsPerHolderPerMinute: 1000,
      // The gift tests race 20 gifts of one account; gift.test.ts sets the real bound for its test of it.
      giftsPerMinute: 1000,
      passkeysPerUserPerMinute: 1000,
      // The resale tests race buyers from one address; resale.test.ts sets the real bound for its test of it.
      resaleBuysPerIpPerMinute: 1000,
      qrTtlSeconds: 30,
      // Load shedding off (decision 039): the tests' bursts (a hundred racing requests on one PGlite connection) are
      // the point of those tests, not overload, and one process builds many apps: another app's boot, or a second of
      // PDF or image work, blocks the loop for every app of the process. test/load-shedding.test.ts sets its own.
      shedEventLoopDelayMs: 0,
      shedDatabaseWaiting: 0,
      shedMaxInFlight: 0,
      ...overrides,
    },
  );
}

type Clock = { now: () => Date; advance: (ms: number) => void };

/** Signs in through the real endpoints of `app` and returns the tokens. */
async function signInThrough(app: BuiltApp, mail: ReturnType<typeof captureMail>, clock: Clock, email: string) {
  const r1 = await app.inject({ method: 'POST', url: '/v1/auth/signInOrRegisterAndSignIn', payload: { email } });
  if (r1.statusCode !== 200) throw new Error(`sign-in request ${r1.statusCode} ${r1.body}`);
  await app.services.jobs.runDue(); // the code mail is a job (decision 030)
  const r2 = await app.inject({
    method: 'POST',
    url: '/v1/auth/verifyLoginRequest',
    payload: { email, session: r1.json<{ sessionId: string }>().sessionId, otp: mail.lastCodeFor(email) },
  });
  if (r2.statusCode !== 200) throw new Error(`verify ${r2.statusCode} ${r2.body}`);
  // Let the resend cooldown pass so a later sign-in of the same e-mail works.
  clock.advance(61_000);
  return r2.json<{ accessToken: string; refreshToken: string }>();
}

/**
 * `count` instances of the app on one PostgreSQL database (project "api-pg" only), each with its own
 * pool, sharing the clock, the captured mail and the config (secrets, scanner key, REDIS_URL...): what N
 * processes behind a load balancer share. Call `close()` after.
 */
export async function createTestApps(count: number, opts: TestAppOptions = {}) {
  const url = await freshPostgresUrl();
  const databases = await Promise.all(
    Array.from({ length: count }, () => openDatabase({ databaseUrl: url, dataDir: '' })),
  );
  let current = opts.start ?? new Date();
  const clock: Clock = {
    now: () => current,
    advance: (ms: number) => {
      current = new Date(current.getTime() + ms);
    },
  };
  const mail = captureMail();
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-test-'));
  const config = testConfig(dataDir, { scannerKey: 'scanner-key-for-tests', ...opts.config });
  if (opts.seed) await seedDemo(databases[0].db, current);
  const apps: BuiltApp[] = [];
  for (const database of databases) {
    const app = await buildApp({
      config,
      database,
      mail,
      now: clock.now,
      payouts: opts.payouts,
      imageDecodeWorker: bundledImageWorker(),
      passSigningWorker: bundledSigningWorker(),
    });
    await app.ready();
    checkAnswersAgainstDocument(app);
    runJobsAfterEachRequest(app);
    apps.push(app);
  }
  return {
    apps,
    databases,
    clock,
    mail,
    config,
    async close() {
      for (const app of apps) await app.close();
      for (const database of databases) await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    /** Signs in through the endpoints of `apps[on]`. */
    signIn: (email: string, on = 0) => signInThrough(apps[on], mail, clock, email),
  };
}

/** `Authorization` header for a token. */
export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

/**
 * Makes the account of `accessToken` a seller with a verified sandbox payout account (an Australian bank account),
 * through `POST /v1/resell/sandbox-onboarding`; answers the response.
 */
export const onboardSandboxSeller = (app: BuiltApp, accessToken: string) =>
  app.inject({
    method: 'POST',
    url: '/v1/resell/sandbox-onboarding',
    headers: bearer(accessToken),
    payload: { country: 'AU', firstName: 'A', lastName: 'B', birthdate: '1990-01-02', bankAccount: '062-000 12345678' },
  });
