/**
 * Housekeeping (issue 11): expired sign-in requests, ended sign-ins with their refresh tokens and processed
 * webhook events and jobs that failed for good leave the database once the retention has passed; live ones and
 * pending jobs stay. The clock is moved.
 */
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { bearer, createTestApp, onPostgres, type TestApp } from './helper.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ seed: true, config: { housekeepingRetentionDays: 7 } });
});
afterEach(async () => {
  await t.close();
});

const DAY = 24 * 3600 * 1000;
const count = async (table: string) => {
  const result = await t.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
  return (result as { rows: { n: number }[] }).rows[0].n;
};
const counts = async () => ({
  loginRequests: await count('login_requests'),
  sessions: await count('auth_sessions'),
  refreshTokens: await count('refresh_tokens'),
  stripeEvents: await count('webhook_events'),
  jobs: await count('jobs'),
});

describe('housekeeping', () => {
  it('deletes what ended more than the retention ago, and nothing that still works', async () => {
    const live = await t.signIn('alice@example.com');
    const ended = await t.signIn('bob@example.com');
    expect((await t.app.inject({ url: '/v1/auth/logout', headers: bearer(ended.accessToken) })).statusCode).toBe(204);
    await t.database.db.execute(
      sql`insert into webhook_events (id, type, received_at) values ('evt_1', 'account.updated', ${t.clock.now()})`,
    );
    // A job that failed for good now, and one still waiting (due long after this test's clock): only the first goes.
    await t.database.db.execute(sql`delete from jobs`);
    await t.database.db.execute(
      sql`insert into jobs (kind, payload, attempts, failed_at, last_error) values ('mail', '{}', 5, ${t.clock.now()}, 'gone')`,
    );
    await t.database.db.execute(
      sql`insert into jobs (kind, payload, run_at) values ('mail', '{}', ${new Date(t.clock.now().getTime() + 1000 * DAY)})`,
    );
    const before = await counts();
    expect(before).toEqual({ loginRequests: 2, sessions: 2, refreshTokens: 2, stripeEvents: 1, jobs: 2 });

    // Within the retention nothing goes.
    t.clock.advance(6 * DAY);
    expect(await t.app.services.housekeeping.runOnce()).toEqual({
      loginRequests: 0,
      sessions: 0,
      refreshTokens: 0,
      stripeEvents: 0,
      outboundDeliveries: 0,
      checkInLog: 0,
      auditLog: 0,
      failedJobs: 0,
      passkeyChallenges: 0,
    });

    // Past it: the used codes, bob's signed-out sign-in and the webhook id go; alice's live sign-in stays.
    t.clock.advance(2 * DAY);
    expect(await t.app.services.housekeeping.runOnce()).toEqual({
      loginRequests: 2,
      sessions: 1,
      refreshTokens: 1,
      stripeEvents: 1,
      outboundDeliveries: 0,
      checkInLog: 0,
      auditLog: 0,
      failedJobs: 1,
      passkeyChallenges: 0,
    });
    expect(await counts()).toEqual({ loginRequests: 0, sessions: 1, refreshTokens: 1, stripeEvents: 0, jobs: 1 });
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/refresh',
      payload: { refreshToken: live.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);

    // Alice's sign-in ends after 30 days; 7 days later it goes with its (rotated) refresh tokens.
    t.clock.advance(38 * DAY);
    expect(await t.app.services.housekeeping.runOnce()).toMatchObject({ sessions: 1, refreshTokens: 2 });
    expect(await counts()).toEqual({ loginRequests: 0, sessions: 0, refreshTokens: 0, stripeEvents: 0, jobs: 1 });
  });

  it.skipIf(onPostgres())('on PGlite, which has no autovacuum, a run refreshes the planner statistics', async () => {
    // What ANALYZE last counted of a table (-1: never analysed).
    const analysed = async (table: string) => {
      const result = await t.database.db.execute(sql`select reltuples as n from pg_class where relname = ${table}`);
      return Number((result as { rows: { n: number }[] }).rows[0].n);
    };
    await t.signIn('carol@example.com');
    const users = await count('users');
    const tickets = await count('user_tickets');
    expect(tickets).toBeGreaterThan(0);
    expect([await analysed('users'), await analysed('user_tickets')]).not.toEqual([users, tickets]);
    await t.app.services.housekeeping.runOnce();
    expect([await analysed('users'), await analysed('user_tickets')]).toEqual([users, tickets]);
  });

  it.skipIf(!onPostgres())('skips a run while another instance holds the housekeeping lock', async () => {
    const result = await t.database.db.execute(sql`select current_database() as name`);
    const { name } = (result as { rows: { name: string }[] }).rows[0];
    const url = inject('dbTemplate')
      .slice('pg:'.length)
      .replace(/\/postgres$/, `/${name}`);
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock($1)', [0x74706b]);
      expect(await t.app.services.housekeeping.runOnce()).toBeNull();
      await other.query('select pg_advisory_unlock($1)', [0x74706b]);
      expect(await t.app.services.housekeeping.runOnce()).not.toBeNull();
    } finally {
      await other.end();
    }
  });
});
