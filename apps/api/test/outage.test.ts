/**
 * PostgreSQL restarts under traffic (issue 11): two real server processes on one PostgreSQL server of their
 * own; `pg_ctl stop -m fast` for 10 s while requests keep coming. Every answer is 200 or a generic 503 with
 * Retry-After (never a 500, never a dropped connection, no process dies), /readyz says not ready, and both
 * serve again within 5 s of PostgreSQL's return. PostgreSQL project only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startPostgres, type RunningPostgres } from '../../../scripts/postgres.js';
import { onPostgres } from './helper.js';
import { budgetMs } from './timing.js';
import { signInOver, startServerProcess, type ServerProcess } from './server-process.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  server: number;
  path: string;
  status: number | string;
  retryAfter: string | null;
  body: string;
}

describe.skipIf(!onPostgres())('PostgreSQL outage under traffic, two instances', () => {
  let postgres: RunningPostgres;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    postgres = await startPostgres();
    const admin = new pg.Client({ connectionString: postgres.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE app');
    await admin.end();
    const env = {
      PUBLIC_URL: 'http://tickets.test',
      DATABASE_URL: postgres.url('app'),
      DATABASE_POOL_MAX: '4',
      OTP_REQUESTS_PER_IP_PER_MINUTE: '1000',
    };
    // Both start together on the empty database (migrations and seed under advisory locks).
    servers.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await s.dispose();
    postgres?.stop();
  });

  it('answers 503 with Retry-After while it is down, never 500, and heals within 5 s of its return', async () => {
    // The code mail is a job: either instance may send it, into its own dev outbox.
    const { accessToken } = await signInOver(
      servers[0].url,
      'alice@example.com',
      servers.map((s) => s.url),
    );
    const answers: Answer[] = [];
    const paths = ['/v1/auth/me', '/v1/config', '/v1/list/ticket_listing?status=UPCOMING'];
    const ask = async (server: number, path: string): Promise<Answer> => {
      try {
        const r = await fetch(`${servers[server].url}${path}`, {
          headers: { authorization: `Bearer ${accessToken}` },
          signal: AbortSignal.timeout(8000),
        });
        return { server, path, status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.text() };
      } catch (err) {
        return { server, path, status: String((err as Error).cause ?? err), retryAfter: null, body: '' };
      }
    };
    let traffic = true;
    const workers = [0, 1].flatMap((server) =>
      [0, 1].map(async (w) => {
        for (let i = w; traffic; i++) {
          answers.push(await ask(server, paths[i % paths.length]));
          await sleep(25);
        }
      }),
    );

    await sleep(1000);
    postgres.stopFast();
    await sleep(3000);
    const ready = await Promise.all(servers.map((s) => fetch(`${s.url}/readyz`)));
    expect(ready.map((r) => r.status)).toEqual([503, 503]);
    const health = await Promise.all(servers.map((s) => fetch(`${s.url}/healthz`)));
    expect(health.map((r) => r.status)).toEqual([200, 200]);
    await sleep(7000);

    // Baseline: PostgreSQL's own start (pg_ctl -w) on this machine now; healing may take it 3 times, at least 5 s.
    const restarting = Date.now();
    postgres.restart();
    const back = Date.now();
    const healBudget = budgetMs(back - restarting, 3, 5000);
    const healedAfter = await Promise.all(
      servers.map(async (_s, server) => {
        for (;;) {
          const a = await ask(server, '/v1/auth/me');
          if (a.status === 200) return Date.now() - back;
          if (Date.now() - back > 3 * healBudget) return Infinity;
          await sleep(100);
        }
      }),
    );
    await sleep(500);
    traffic = false;
    await Promise.all(workers);

    expect(
      healedAfter.every((ms) => ms <= healBudget),
      `healed after ${healedAfter.join(', ')} ms (budget ${healBudget} ms); last answers ${JSON.stringify(answers.slice(-6))}; ${servers.map((s) => s.output().slice(-3000)).join('\n----\n')}`,
    ).toBe(true);
    const unexpected = answers.filter((a) => a.status !== 200 && a.status !== 503);
    expect(unexpected, JSON.stringify(unexpected.slice(0, 5))).toEqual([]);
    const unavailable = answers.filter((a) => a.status === 503);
    expect(unavailable.length).toBeGreaterThan(20);
    for (const a of unavailable) {
      expect(a.retryAfter).toBe('5');
      expect(JSON.parse(a.body)).toEqual({ message: 'api.service_unavailable' });
    }
    for (const s of servers) expect(s.child.exitCode, s.output()).toBeNull();
    const after = await Promise.all(servers.map((s) => fetch(`${s.url}/readyz`)));
    expect(after.map((r) => r.status)).toEqual([200, 200]);
    console.log(
      `[outage] ${answers.length} answers: ${answers.length - unavailable.length} × 200, ${unavailable.length} × 503; healed after ${healedAfter.join(' / ')} ms`,
    );
  }, 90_000);
});
