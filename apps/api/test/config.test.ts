/**
 * Configuration rules (issue 14 items 6 and 7): production guards (NODE_ENV=production needs SMTP_URL
 * and real payments unless ALLOW_SANDBOX=true; never the dev outbox), EMBED_ORIGINS, PGLITE_SHARED_BUFFERS_MB and
 * AVATAR_DEADLINE_SECONDS.
 * PGlite project only (vitest.config.ts `oneDatabaseFiles`): nothing here differs by database.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, loadDatabaseConfig } from '../src/config.js';
import { createTestApp } from './helper.js';
import { bundledEntry } from './server-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'tp-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const load = (env: NodeJS.ProcessEnv) => loadConfig(env, { dataDir, jwtSecret: new Uint8Array(32), scannerKey: 'k' });
const REAL = {
  SMTP_URL: 'smtp://mail.example.com:587',
  STRIPE_SECRET_KEY: 'sk_live_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
  CHECKOUT_BASE_URL: 'https://pay.example.com/checkout',
};

describe('operator secrets', () => {
  it('refuses an ADMIN_KEY or SCANNER_KEY shorter than 16 characters, naming it (issue 39 item 11)', () => {
    expect(() => load({ ADMIN_KEY: 'admin' })).toThrow(/ADMIN_KEY must be at least 16 characters/);
    const own = (env: NodeJS.ProcessEnv) => loadConfig(env, { dataDir, jwtSecret: new Uint8Array(32) });
    expect(() => own({ SCANNER_KEY: 'door' })).toThrow(/SCANNER_KEY must be at least 16 characters/);
    expect(own({ ADMIN_KEY: 'a'.repeat(16), SCANNER_KEY: 'd'.repeat(16) })).toMatchObject({
      adminKey: 'a'.repeat(16),
      scannerKey: 'd'.repeat(16),
    });
  });
});

describe('production guards', () => {
  it('refuses NODE_ENV=production without SMTP_URL, STRIPE_SECRET_KEY or CHECKOUT_BASE_URL, naming each', () => {
    expect(() => load({ NODE_ENV: 'production' })).toThrow(/SMTP_URL.*STRIPE_SECRET_KEY.*CHECKOUT_BASE_URL/);
    expect(() => load({ NODE_ENV: 'production', ...REAL, SMTP_URL: '' })).toThrow(/SMTP_URL/);
    expect(() => load({ NODE_ENV: 'production', ...REAL, STRIPE_SECRET_KEY: undefined })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => load({ NODE_ENV: 'production', ...REAL, ALLOW_SANDBOX: 'yes' })).not.toThrow();
    expect(() => load({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk', ALLOW_SANDBOX: '1' })).toThrow(
      /ALLOW_SANDBOX/,
    );
  });

  it('refuses NODE_ENV=production with STRIPE_SECRET_KEY but no STRIPE_WEBHOOK_SECRET, even with ALLOW_SANDBOX (issue 19, break 9)', () => {
    expect(() => load({ NODE_ENV: 'production', ...REAL, STRIPE_WEBHOOK_SECRET: undefined })).toThrow(
      /STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not/,
    );
    expect(() => load({ NODE_ENV: 'production', ...REAL, STRIPE_WEBHOOK_SECRET: '', ALLOW_SANDBOX: 'true' })).toThrow(
      /STRIPE_WEBHOOK_SECRET/,
    );
    // Outside production, and in production without Stripe (the sandbox, with ALLOW_SANDBOX), it starts.
    expect(() => load({ ...REAL, STRIPE_WEBHOOK_SECRET: undefined })).not.toThrow();
    expect(() => load({ NODE_ENV: 'production', ALLOW_SANDBOX: 'true' })).not.toThrow();
  });

  it('starts in production with real providers, and with ALLOW_SANDBOX=true with a warning, never with the dev outbox', () => {
    const real = load({ NODE_ENV: 'production', ...REAL });
    expect(real.warnings).toEqual([]);
    expect(real.devOutbox).toBe(false);
    const sandbox = load({ NODE_ENV: 'production', ALLOW_SANDBOX: 'true' });
    expect(sandbox.devOutbox).toBe(false);
    expect(sandbox.warnings.join('\n')).toMatch(/ALLOW_SANDBOX.*SMTP_URL/);
    expect(sandbox.warnings.join('\n')).toMatch(/STRIPE_SECRET_KEY/);
    // Development keeps today's defaults.
    expect(load({}).devOutbox).toBe(true);
    expect(load({ SMTP_URL: 'smtp://127.0.0.1:2525' }).devOutbox).toBe(false);
  });

  it('does not serve /dev/mail when the config has no dev outbox', async () => {
    const t = await createTestApp({ config: { devOutbox: false } });
    try {
      expect((await t.app.inject({ url: '/dev/mail' })).statusCode).toBe(404);
      expect((await t.app.inject({ url: '/dev/mail.json' })).statusCode).toBe(404);
      expect((await t.app.inject({ url: '/v1/config' })).json()).toMatchObject({ isDev: false });
    } finally {
      await t.close();
    }
  });

  it('exits non-zero with the reason when the server is started in production without SMTP_URL', () => {
    const root = resolve(import.meta.dirname, '../../..');
    const run = spawnSync(process.execPath, [bundledEntry('server.js')], {
      cwd: root,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0', STRIPE_SECRET_KEY: 'sk' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/NODE_ENV=production refuses to start: SMTP_URL is not set/);
    expect(run.stderr).not.toMatch(/at .*config\.ts/); // a message, not a stack trace
  });
});

describe('EMBED_ORIGINS', () => {
  it("defaults to 'self' and PUBLIC_URL's site (registrable domain and subdomains)", () => {
    expect(load({ PUBLIC_URL: 'https://tickets.example.co.uk' }).embedOrigins).toEqual([
      "'self'",
      'https://example.co.uk',
      'https://*.example.co.uk',
    ]);
  });

  it('takes comma-separated origins and refuses anything that is not one', () => {
    expect(load({ EMBED_ORIGINS: 'https://festival.example.org, https://*.example.net/' }).embedOrigins).toEqual([
      "'self'",
      'https://festival.example.org',
      'https://*.example.net',
    ]);
    for (const bad of [
      "https://a.example; script-src 'unsafe-inline'",
      '*',
      'javascript:alert(1)',
      'https://a.example/path',
    ])
      expect(() => load({ EMBED_ORIGINS: bad }), bad).toThrow(/EMBED_ORIGINS/);
  });
});

describe('IMPORT_BACKGROUND_ROWS and IMPORT_CHUNK_ROWS (decision 040)', () => {
  it('default to 500 and 1,000, take 0 to 50,000 and 1 to 10,000, and refuse anything else by name', () => {
    expect(load({})).toMatchObject({ importBackgroundRows: 500, importChunkRows: 1000 });
    expect(load({ IMPORT_BACKGROUND_ROWS: '0', IMPORT_CHUNK_ROWS: '1' })).toMatchObject({
      importBackgroundRows: 0,
      importChunkRows: 1,
    });
    expect(load({ IMPORT_BACKGROUND_ROWS: '50000', IMPORT_CHUNK_ROWS: '10000' })).toMatchObject({
      importBackgroundRows: 50_000,
      importChunkRows: 10_000,
    });
    for (const bad of ['-1', '50001', '2.5', 'lots'])
      expect(() => load({ IMPORT_BACKGROUND_ROWS: bad }), bad).toThrow(/IMPORT_BACKGROUND_ROWS/);
    for (const bad of ['0', '10001', '2.5', 'lots'])
      expect(() => load({ IMPORT_CHUNK_ROWS: bad }), bad).toThrow(/IMPORT_CHUNK_ROWS/);
  });
});

describe('PGLITE_SHARED_BUFFERS_MB and PGLITE_THREAD_YOUNG_GENERATION_MB (decision 041)', () => {
  it('default to 16 and 8 MiB, take whole MiB within their bounds, and refuse anything else by name', () => {
    expect(load({}).pgliteMemory).toEqual({ sharedBuffersMb: 16, youngGenerationMb: 8 });
    expect(load({ PGLITE_SHARED_BUFFERS_MB: '128', PGLITE_THREAD_YOUNG_GENERATION_MB: '64' }).pgliteMemory).toEqual({
      sharedBuffersMb: 128,
      youngGenerationMb: 64,
    });
    for (const bad of ['0', '1025', '2.5', 'lots', '-3'])
      expect(() => load({ PGLITE_SHARED_BUFFERS_MB: bad }), bad).toThrow(/PGLITE_SHARED_BUFFERS_MB/);
    for (const bad of ['0', '513', 'x'])
      expect(() => load({ PGLITE_THREAD_YOUNG_GENERATION_MB: bad }), bad).toThrow(/PGLITE_THREAD_YOUNG_GENERATION_MB/);
  });
});

describe('AVATAR_DEADLINE_SECONDS', () => {
  it('defaults to 10 s, is at least 1 s, and refuses what is not a whole number by name', () => {
    expect(load({}).avatarDeadlineMs).toBe(10_000);
    expect(load({ AVATAR_DEADLINE_SECONDS: '4' }).avatarDeadlineMs).toBe(4000);
    expect(load({ AVATAR_DEADLINE_SECONDS: '0' }).avatarDeadlineMs).toBe(1000);
    for (const bad of ['2.5', 'soon', '-3'])
      expect(() => load({ AVATAR_DEADLINE_SECONDS: bad }), bad).toThrow(/AVATAR_DEADLINE_SECONDS/);
  });
});

describe('outbound timeouts and job lanes (issue 39)', () => {
  it('default to bounds far below the libraries’ own, take fractions of seconds, and refuse nonsense', () => {
    expect(load({})).toMatchObject({
      smtpConnectTimeoutSeconds: 10,
      smtpSocketTimeoutSeconds: 30,
      smtpSendTimeoutSeconds: 60,
      apnsConnectTimeoutSeconds: 10,
      apnsTimeoutSeconds: 10,
      googleWalletTimeoutSeconds: 10,
      stripeTimeoutSeconds: 20,
      jobMailConcurrency: 8,
      jobWalletConcurrency: 2,
      jobQueueAlertSeconds: 120,
    });
    expect(load({ SMTP_SOCKET_TIMEOUT_SECONDS: '0.5', JOB_MAIL_CONCURRENCY: '100' })).toMatchObject({
      smtpSocketTimeoutSeconds: 0.5,
      jobMailConcurrency: 16,
    });
    expect(() => load({ SMTP_SOCKET_TIMEOUT_SECONDS: '0' })).toThrow(/SMTP_SOCKET_TIMEOUT_SECONDS/);
    expect(() => load({ APNS_TIMEOUT_SECONDS: 'soon' })).toThrow(/APNS_TIMEOUT_SECONDS/);
    expect(() => load({ JOB_MAIL_CONCURRENCY: '-1' })).toThrow(/JOB_MAIL_CONCURRENCY/);
  });
});

describe('DATA_DIR (issue 41, point 11)', () => {
  const apiData = resolve(import.meta.dirname, '..', '.data');
  it('defaults to apps/api/.data whatever the working directory (npm start in apps/api, node from the root)', () => {
    const cwd = process.cwd();
    try {
      for (const dir of [
        resolve(import.meta.dirname, '..', '..', '..'),
        resolve(import.meta.dirname, '..'),
        tmpdir(),
      ]) {
        process.chdir(dir);
        expect(loadDatabaseConfig({}).dataDir, dir).toBe(apiData);
      }
    } finally {
      process.chdir(cwd);
    }
  });

  it('resolves a DATA_DIR that is set against the working directory', () => {
    expect(loadDatabaseConfig({ DATA_DIR: '/srv/tickets' }).dataDir).toBe('/srv/tickets');
    expect(loadDatabaseConfig({ DATA_DIR: 'x' }).dataDir).toBe(resolve(process.cwd(), 'x'));
  });
});
