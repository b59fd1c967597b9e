/**
 * Several instances on one PostgreSQL database and one Redis (issue 11): two `buildApp`s with their own pools,
 * sharing REDIS_URL, secrets and scanner key, as two processes behind a load balancer. PostgreSQL project only;
 * skipped without Debian's redis-server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { MyTicket } from '@tp/contract';
import { hasRedisServer, startRedis, type RunningRedis } from '../../../scripts/redis.js';
import { bearer, createTestApps, onPostgres } from './helper.js';

type Apps = Awaited<ReturnType<typeof createTestApps>>;
let redis: RunningRedis;
let t: Apps;

// Under CI (.ci/run installs redis-server) a missing redis-server fails the run instead of skipping.
const run = onPostgres() && (hasRedisServer() || Boolean(process.env.CI));
if (!run && onPostgres()) console.warn('[instances.test] redis-server not found: skipped');

describe.skipIf(!run)('two instances on one PostgreSQL and one Redis', () => {
  beforeAll(async () => {
    redis = await startRedis();
    t = await createTestApps(2, {
      seed: true,
      config: { redisUrl: redis.url, otpRequestsPerIpPerMinute: 20, otpVerifiesPerIpPerMinute: 30 },
    });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  const requestCode = (on: number, email: string, remoteAddress: string) =>
    t.apps[on].inject({
      method: 'POST',
      url: '/v1/auth/signInOrRegisterAndSignIn',
      payload: { email },
      remoteAddress,
    });

  /** Sends 20 code requests from one IP alternating between the instances, then one more to each. */
  async function exhaust(ip: string) {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await requestCode(i % 2, `p${i}.${ip}@example.com`, ip)).statusCode);
    const over = [await requestCode(0, `x0.${ip}@example.com`, ip), await requestCode(1, `x1.${ip}@example.com`, ip)];
    return { statuses, over };
  }

  it('counts a per-IP limit across both instances: 20 code requests a minute in all, not 20 each', async () => {
    const { statuses, over } = await exhaust('198.51.100.7');
    expect(statuses).toEqual(Array<number>(20).fill(200));
    for (const r of over) {
      expect(r.statusCode).toBe(429);
      expect(r.json()).toEqual({ message: 'api.too_many_requests' });
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another client is not affected.
    expect((await requestCode(1, 'other@example.com', '198.51.100.8')).statusCode).toBe(200);
  });

  it('a refresh on one instance and a replay of the old token on the other revoke the sign-in', async () => {
    const { accessToken, refreshToken } = await t.signIn('alice@example.com', 0);
    const rotated = await t.apps[0].inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refreshToken } });
    expect(rotated.statusCode).toBe(200);
    const next = rotated.json<{ accessToken: string; refreshToken: string }>();
    t.clock.advance(11_000); // past the 10 s grace of a just-rotated token
    const replay = await t.apps[1].inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refreshToken } });
    expect(replay.statusCode).toBe(401);
    for (const app of t.apps) {
      const again = await app.inject({
        method: 'POST',
        url: '/v1/auth/refresh',
        payload: { refreshToken: next.refreshToken },
      });
      expect(again.statusCode).toBe(401);
      for (const token of [accessToken, next.accessToken]) {
        expect((await app.inject({ url: '/v1/auth/me', headers: bearer(token) })).statusCode).toBe(401);
      }
    }
  });

  it("admits at one instance's door the pass rendered by the other", async () => {
    const { accessToken } = await t.signIn('bob@example.com', 1);
    const qr = await t.apps[0].inject({ url: '/v1/auth/access/qr', headers: bearer(accessToken) });
    expect(qr.statusCode).toBe(200);
    const result = await t.databases[0].db.execute(
      sql`select u.id as user_id, e.id as event_id from users u join user_tickets ut on ut.holder_id = u.id
       join ticket_types tt on tt.id = ut.ticket_type_id join events e on e.id = tt.event_id
       where u.email = 'bob@example.com' and ut.event_access_used_at is null order by e.starts_at limit 1`,
    );
    const { rows } = result as { rows: { user_id: number; event_id: number }[] };
    const step = Math.floor(t.clock.now().getTime() / 1000 / t.config.qrTtlSeconds);
    const pass = await t.apps[0].services.access.codeFor(Number(rows[0].user_id), step);
    const scan = await t.apps[1].inject({
      method: 'POST',
      url: '/v1/access/check-in',
      headers: { 'x-scanner-key': t.config.scannerKey },
      payload: { code: pass, eventId: Number(rows[0].event_id) },
    });
    expect(scan.statusCode, scan.body).toBe(200);
    expect(scan.json<{ admitted: unknown[] }>().admitted.length).toBeGreaterThan(0);
  });

  it('20 parallel gifts of one ticket split across both instances: exactly one winner, one holder after', async () => {
    const { accessToken } = await t.signIn('alice@example.com', 1);
    const list = (
      await t.apps[0].inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(accessToken) })
    ).json<MyTicket[]>();
    const tk = list.find((x) => x.eventName === 'Aotearoa Sound')!;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.apps[i % 2].inject({
          method: 'POST',
          url: '/v1/mobile/giftTicket',
          headers: bearer(accessToken),
          payload: { userTicketId: tk.userTicketId, username: `friend${i}@example.com` },
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode !== 200).map((r) => r.statusCode)).toEqual(Array<number>(19).fill(403));
    expect((await t.apps[1].services.gift.history(tk.userTicketId)).map((h) => h.kind)).toEqual(['ISSUE', 'GIFT']);
  });

  it('keeps limiting while Redis is down (each instance counts alone) and shares again when it returns', async () => {
    await redis.stop();
    expect((await t.apps[0].inject({ url: '/readyz' })).json()).toEqual({ status: 'ok', rateLimits: 'local' });
    const ip = '198.51.100.20';
    const alone: number[] = [];
    for (let i = 0; i < 21; i++) alone.push((await requestCode(0, `r${i}@example.com`, ip)).statusCode);
    expect(alone).toEqual([...Array<number>(20).fill(200), 429]);

    await redis.restart();
    for (const app of t.apps) {
      await expect
        .poll(async () => (await app.inject({ url: '/readyz' })).json<{ rateLimits: string }>().rateLimits, {
          timeout: 10_000,
        })
        .toBe('shared');
    }
    const { statuses, over } = await exhaust('198.51.100.22');
    expect(statuses).toEqual(Array<number>(20).fill(200));
    expect(over.map((r) => r.statusCode)).toEqual([429, 429]);
  });
});
