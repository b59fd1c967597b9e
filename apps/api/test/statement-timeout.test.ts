/**
 * DATABASE_STATEMENT_TIMEOUT_SECONDS (PostgreSQL project only): a request whose statement waits behind a lock past
 * the bound answers 503 `api.service_unavailable` with Retry-After instead of holding its connection and its client
 * for as long as the lock lasts, and the pool serves again once the lock is gone. The control, the same database
 * without the bound, is still waiting when the bounded one has answered.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { bearer, createTestApp, freshPostgresUrl, onPostgres, type TestApp } from './helper.js';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});

/** A test app on the database `url` whose statements are bounded to `seconds` (0: not bounded). */
async function appWithBound(url: string, seconds: number) {
  const database = await openDatabase({ databaseUrl: url, dataDir: '', databaseStatementTimeoutSeconds: seconds });
  const t = await createTestApp({ database });
  apps.push(t);
  return t;
}

describe.skipIf(!onPostgres())('a statement bounded in time (DATABASE_STATEMENT_TIMEOUT_SECONDS)', () => {
  it('answers 503 with Retry-After while a lock holds it past the bound, and serves again after', async () => {
    const url = await freshPostgresUrl();
    const boundedApp = await appWithBound(url, 1);
    // One holder, signed in through the first app before the second starts (its mail lane alone sends the code),
    // read through both.
    const { accessToken } = await boundedApp.signIn('holder@example.com');
    const unboundedApp = await appWithBound(url, 0);
    const me = (t: TestApp) => () => t.app.inject({ url: '/v1/auth/me', headers: bearer(accessToken) });
    const bounded = { me: me(boundedApp) };
    const unbounded = { me: me(unboundedApp) };
    expect((await bounded.me()).statusCode).toBe(200);
    expect((await unbounded.me()).statusCode).toBe(200);

    // Another session holds the users table (an operator's long migration, a stuck transaction).
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table users in access exclusive mode');
      let controlAnswered = false;
      const control = unbounded.me().then((r) => ((controlAnswered = true), r));
      const started = Date.now();
      const refused = await bounded.me();
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json()).toEqual({ message: 'api.service_unavailable' });
      expect(refused.headers['retry-after']).toBeTruthy();
      expect(Date.now() - started).toBeLessThan(10_000);
      // The control: without the bound, the same request is still waiting for the lock.
      expect(controlAnswered).toBe(false);
      await locker.query('rollback');
      expect((await control).statusCode).toBe(200);
      expect((await bounded.me()).statusCode).toBe(200);
    } finally {
      await locker.end();
    }
  });
});
