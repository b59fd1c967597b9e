/**
 * Metrics (issue 25, decision 031): never public by default, `GET /metrics` behind METRICS_TOKEN or on a listener of
 * its own (METRICS_PORT); a scrape after a short journey (sign in, QR, an online door check-in, refused ones, an
 * offline sync) counts them with route templates, never raw URLs; rate-limit refusals by limit name; queue levels.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { bearer, createTestApp, rawQuery, type TestApp, onboardSandboxSeller } from './helper.js';

const TOKEN = 'metrics-token-for-tests-0123456789';
const KEY = 'door-key-for-tests';
const ADMIN = 'admin-key-for-tests';
let t: TestApp;
afterEach(async () => {
  // Closing twice is a no-op: the config test builds no app.
  await t?.close();
});

const scrape = async () => {
  const r = await t.app.inject({ url: '/metrics', headers: bearer(TOKEN) });
  expect(r.statusCode, r.body).toBe(200);
  expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return r.body;
};
/** The value of one sample (`name{labels}`, labels in prom-client's order), or undefined when absent. */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
const rows = async (sql: string) => (await rawQuery<Record<string, unknown>>(t.database.db, sql)).rows;
const idOf = async (sql: string) => Number((await rows(sql))[0].id);

describe('METRICS_* variables', () => {
  it('are off by default, and refuse a short token or a port out of range', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tp-metrics-config-'));
    const load = (env: NodeJS.ProcessEnv) =>
      loadConfig(env, { dataDir, jwtSecret: new Uint8Array(32), scannerKey: 'k', adminKey: 'a' });
    try {
      expect(load({})).toMatchObject({ metricsPort: null, metricsHost: '127.0.0.1', metricsToken: null });
      expect(load({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5', METRICS_TOKEN: TOKEN })).toMatchObject({
        metricsPort: 9464,
        metricsHost: '10.0.0.5',
        metricsToken: TOKEN,
      });
      expect(() => load({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
      expect(() => load({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
      expect(() => load({ METRICS_PORT: 'abc' })).toThrow(/METRICS_PORT/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('where the metrics are served', () => {
  it('has no /metrics without METRICS_TOKEN or METRICS_PORT', async () => {
    t = await createTestApp();
    expect(t.config.metricsToken).toBeNull();
    expect(t.config.metricsPort).toBeNull();
    for (const headers of [{}, bearer('anything-at-all-long-enough')]) {
      const r = await t.app.inject({ url: '/metrics', headers });
      expect(r.statusCode).toBe(404);
      expect(r.body).not.toContain('tp_');
    }
    expect(t.app.metricsAddress()).toBeNull();
  });

  it('answers GET /metrics on the main port only to the bearer of METRICS_TOKEN', async () => {
    t = await createTestApp({ config: { metricsToken: TOKEN } });
    for (const headers of [{}, bearer('wrong-token-of-enough-length'), bearer(`${TOKEN}x`), { authorization: TOKEN }]) {
      const r = await t.app.inject({ url: '/metrics', headers });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ message: 'api.unauthorized' });
    }
    const text = await scrape();
    expect(text).toContain('# TYPE tp_http_request_duration_seconds histogram');
    // The refused scrapes above were timed under the route's template.
    expect(
      sample(text, 'tp_http_request_duration_seconds_count{method="GET",route="/metrics",status_code="401"}'),
    ).toBe(4);
  });

  it('limits wrong tokens per IP like wrong API keys: 40 guesses are 10 × 401 then 429, and then the right token is refused too from that address', async () => {
    t = await createTestApp({ config: { metricsToken: TOKEN } });
    expect(t.config.keyFailuresPerMinute).toBe(10);
    const guess = (i: number, remoteAddress = '203.0.113.7') =>
      t.app.inject({ url: '/metrics', remoteAddress, headers: bearer(`wrong-token-guess-${i}-0123456789`) });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await guess(i)).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(30).fill(429));
    const refused = await guess(40);
    expect(refused.json()).toEqual({ message: 'api.too_many_requests' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // No header at all is a wrong guess too.
    expect((await t.app.inject({ url: '/metrics', remoteAddress: '203.0.113.7' })).statusCode).toBe(429);
    // Locked out (issue 39 item 11): the right token gets the same 429, or a 429 would only mean "wrong".
    const locked = await t.app.inject({ url: '/metrics', remoteAddress: '203.0.113.7', headers: bearer(TOKEN) });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // From the scraper's own address the right token is answered.
    const right = await t.app.inject({ url: '/metrics', remoteAddress: '192.0.2.10', headers: bearer(TOKEN) });
    expect(right.statusCode).toBe(200);
    expect(sample(right.body, 'tp_rate_limit_refusals_total{limit="metrics_token_failures"}')).toBe(33);
    // Another address has a bucket of its own.
    expect((await guess(0, '198.51.100.9')).statusCode).toBe(401);
  });

  it('serves the metrics on a listener of its own with METRICS_PORT, on METRICS_HOST', async () => {
    t = await createTestApp({ config: { metricsPort: 0 } });
    const address = t.app.metricsAddress();
    expect(address?.address).toBe('127.0.0.1');
    const base = `http://127.0.0.1:${address!.port}`;
    await t.app.inject({ url: '/healthz' });
    const r = await fetch(`${base}/metrics`);
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(
      sample(text, 'tp_http_request_duration_seconds_count{method="GET",route="/healthz",status_code="200"}'),
    ).toBe(1);
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
    // Not on the main port: the token is not set.
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(404);
  });
});

describe('a scrape after a journey', () => {
  it('counts sign-ins, the QR render, check-ins online and offline by reason, and requests by route template', async () => {
    t = await createTestApp({ seed: true, config: { metricsToken: TOKEN, scannerKey: KEY, adminKey: ADMIN } });
    // A wrong code first, then the right one.
    const asked = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signInOrRegisterAndSignIn',
      payload: { email: 'alice@example.com' },
    });
    const { sessionId } = asked.json<{ sessionId: string }>();
    const code = t.mail.lastCodeFor('alice@example.com');
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/verifyLoginRequest',
      payload: { email: 'alice@example.com', otp: wrong, session: sessionId },
    });
    expect(refused.statusCode).toBe(400);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/verifyLoginRequest',
      payload: { email: 'alice@example.com', otp: code, session: sessionId },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const alice = signedIn.json<{ accessToken: string }>().accessToken;

    const qr = await t.app.inject({ url: '/v1/auth/access/qr', headers: bearer(alice) });
    expect(qr.statusCode, qr.body).toBe(200);

    // A pending webhook delivery: an endpoint no one answers, fed by a ticket the organiser issues.
    const org = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/organisations',
      headers: bearer(ADMIN),
      payload: { slug: 'acme', name: 'Acme Live' },
    });
    const apiKey = org.json<{ apiKey: string }>().apiKey;
    const hook = await t.app.inject({
      method: 'POST',
      url: '/v1/org/webhooks',
      headers: bearer(apiKey),
      payload: { url: 'http://127.0.0.1:9/hook', events: ['ticket.issued'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    await rows(`insert into webhook_deliveries (endpoint_id, message_id, event_type, payload, next_attempt_at, created_at)
      values (${hook.json<{ id: number }>().id}, 'msg_test', 'ticket.issued', '{}', now() + interval '1 hour', '${t.clock.now().toISOString()}')`);
    t.clock.advance(90_000);

    const laneway = await idOf(`select id from events where name = 'Laneway Sessions'`);
    const aliceId = await idOf(`select id from users where email = 'alice@example.com'`);
    const pass = () => t.app.services.access.codeFor(aliceId, Math.floor(t.clock.now().getTime() / 1000 / 30));
    const scan = async (text: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/access/check-in',
        headers: { 'x-scanner-key': KEY },
        payload: { code: text, eventId: laneway },
      });
    expect((await scan(await pass())).statusCode).toBe(200); // admitted
    expect((await scan(await pass())).json()).toMatchObject({ admitted: [] }); // already used
    expect((await scan('TP2.forged')).statusCode).toBe(400); // invalid
    const synced = await t.app.inject({
      method: 'POST',
      url: '/v1/access/sync',
      headers: { 'x-scanner-key': KEY },
      payload: {
        eventId: laneway,
        items: [{ id: randomUUID(), code: await pass(), scannedAt: t.clock.now().toISOString(), userTicketIds: [1] }],
      },
    });
    expect(synced.statusCode, synced.body).toBe(200);
    const notFound = await t.app.inject({ url: '/v1/no-such-route/424242' });
    expect(notFound.statusCode).toBe(404);

    const text = await scrape();
    expect(sample(text, 'tp_sign_ins_total{outcome="code_sent"}')).toBe(1);
    expect(sample(text, 'tp_sign_ins_total{outcome="failed"}')).toBe(1);
    expect(sample(text, 'tp_sign_ins_total{outcome="verified"}')).toBe(1);
    expect(sample(text, 'tp_qr_renders_total')).toBe(1);
    expect(sample(text, 'tp_check_ins_total{mode="online",result="admitted",reason=""}')).toBe(1);
    expect(sample(text, 'tp_check_ins_total{mode="online",result="refused",reason="already_used"}')).toBe(1);
    expect(sample(text, 'tp_check_ins_total{mode="online",result="refused",reason="invalid"}')).toBe(1);
    expect(text).toMatch(/^tp_check_ins_total\{mode="offline",result="refused",reason="(moved|already_used)"\} 1$/m);
    expect(
      sample(
        text,
        'tp_http_request_duration_seconds_count{method="POST",route="/v1/access/check-in",status_code="200"}',
      ),
    ).toBe(2);
    expect(
      sample(text, 'tp_http_request_duration_seconds_count{method="GET",route="/v1/auth/access/qr",status_code="200"}'),
    ).toBe(1);
    expect(
      sample(text, 'tp_http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}'),
    ).toBe(1);
    expect(
      sample(text, 'tp_http_request_duration_seconds_count{method="POST",route="/v1/org/webhooks",status_code="201"}'),
    ).toBe(1);
    // Route templates only: no raw path, id, e-mail or code in any label.
    expect(text).not.toContain('424242');
    expect(text).not.toContain('@example.com');
    expect(text).not.toContain('no-such-route');
    expect(sample(text, 'tp_webhook_queue_depth')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'tp_webhook_queue_oldest_age_seconds')).toBeGreaterThanOrEqual(90);
    expect(sample(text, 'tp_db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'tp_db_pool_in_use')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'tp_db_pool_waiting')).toBe(0);
    expect(sample(text, 'tp_avatar_pool_busy')).toBe(0);
    expect(sample(text, 'tp_avatar_pool_queued')).toBe(0);
  });

  it("counts each online refusal under its own reason and logs its verdict: listed, no ticket, not yet revealed, another organisation's event", async () => {
    t = await createTestApp({ seed: true, config: { metricsToken: TOKEN, scannerKey: KEY } });
    const alice = (await t.signIn('alice@example.com')).accessToken;
    await t.signIn('bob@example.com');
    const laneway = await idOf(`select id from events where name = 'Laneway Sessions'`);
    const aotearoa = await idOf(`select id from events where name = 'Aotearoa Sound'`);
    const pass = async (email: string) =>
      t.app.services.access.codeFor(
        await idOf(`select id from users where email = '${email}'`),
        Math.floor(t.clock.now().getTime() / 1000 / 30),
      );
    const scan = async (code: string, eventId: number, key = KEY) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/access/check-in',
        headers: { 'x-scanner-key': key },
        payload: { code, eventId },
      });
    // Alice puts both her Laneway tickets on sale: her pass admits nothing there, both listed.
    const onboarding = await onboardSandboxSeller(t.app, alice);
    expect(onboarding.statusCode, onboarding.body).toBeLessThan(300);
    const laneways = await rows(
      `select ut.id from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id join users u on u.id = ut.holder_id
        where u.email = 'alice@example.com' and tt.event_id = ${laneway} order by ut.id`,
    );
    expect(laneways).toHaveLength(2);
    for (const { id } of laneways) {
      const listed = await t.app.inject({
        method: 'POST',
        url: '/v1/resell',
        headers: bearer(alice),
        payload: { userTicketId: Number(id), amountCount: 1, price: 80, currencyCode: 'AUD', currencySymbol: 'A$' },
      });
      expect(listed.statusCode, listed.body).toBe(200);
    }
    const onSale = await scan(await pass('alice@example.com'), laneway);
    expect(onSale.json()).toMatchObject({ admitted: [], alreadyUsed: [], listedForResale: [{}, {}] });
    // Bob holds nothing for Aotearoa Sound.
    expect((await scan(await pass('bob@example.com'), aotearoa)).json()).toMatchObject({
      holderName: '',
      admitted: [],
    });
    // Aotearoa Sound shows its passes only tomorrow.
    await rows(`update events set pass_reveal_at = now() + interval '1 day' where id = ${aotearoa}`);
    expect((await scan(await pass('alice@example.com'), aotearoa)).statusCode).toBe(409);
    // Another organisation's door key at Laneway.
    const [other] = await rows(`insert into organisations (slug, name) values ('other-org', 'Other') returning id`);
    const prefix = `tpd_${randomBytes(6).toString('base64url')}`;
    const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
    await rows(
      `insert into door_keys (organisation_id, name, prefix, key_hash)
        values (${Number(other.id)}, 'Gate', '${prefix}', '${createHash('sha256').update(key).digest('hex')}')`,
    );
    const elsewhere = await scan(await pass('alice@example.com'), laneway, key);
    expect(elsewhere.statusCode, elsewhere.body).toBe(403);

    const text = await scrape();
    for (const reason of ['listed', 'no_ticket', 'not_revealed', 'not_for_this_event'])
      expect(sample(text, `tp_check_ins_total{mode="online",result="refused",reason="${reason}"}`), reason).toBe(1);
    expect(text).not.toMatch(
      /^tp_check_ins_total\{mode="online",result="(admitted|refused)",reason="(already_used|)"\}/m,
    );
    expect(
      (await rows(`select verdict, event_id from check_in_log order by id`)).map((r) => [
        r.verdict,
        Number(r.event_id),
      ]),
    ).toEqual([
      ['listed', laneway],
      ['no_ticket', aotearoa],
      ['refused', aotearoa],
      ['not_for_this_event', laneway],
    ]);
  });

  it('reads the mail queue: e-mails waiting, how old the oldest is, and the failed ones', async () => {
    t = await createTestApp({ config: { metricsToken: TOKEN } });
    const empty = await scrape();
    expect(sample(empty, 'tp_mail_queue_depth')).toBe(0);
    expect(sample(empty, 'tp_mail_queue_failed')).toBe(0);
    // Not due for an hour (the worker leaves them), one enqueued two minutes ago; and one whose attempts ran out.
    await rows(
      `insert into jobs (kind, payload, run_at, created_at) values
         ('mail', '{}', now() + interval '1 hour', now() - interval '2 minutes'),
         ('mail', '{}', now() + interval '1 hour', now())`,
    );
    await rows(`insert into jobs (kind, payload, failed_at, last_error) values ('mail', '{}', now(), '550 5.1.1')`);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // past the gauges' one-second read cache
    const text = await scrape();
    expect(sample(text, 'tp_mail_queue_depth')).toBe(2);
    expect(sample(text, 'tp_mail_queue_oldest_age_seconds')).toBeGreaterThanOrEqual(119);
    expect(sample(text, 'tp_mail_queue_failed')).toBe(1);
  });

  it('says when a lane of the job queue runs late: a due job older than JOB_QUEUE_ALERT_SECONDS turns it stalled', async () => {
    t = await createTestApp({ config: { metricsToken: TOKEN, jobQueueAlertSeconds: 60 } });
    const lane = (text: string, name: string, l: string) => sample(text, `tp_job_queue_${name}{lane="${l}"}`);
    const empty = await scrape();
    for (const l of ['mail', 'wallet_apple', 'wallet_google', 'other']) {
      expect(lane(empty, 'oldest_due_seconds', l)).toBe(0);
      expect(lane(empty, 'stalled', l)).toBe(0);
    }
    // A kind no worker runs (lane `other`) due 30 s ago: late, within the bound. A mail not due for an hour.
    await rows(
      `insert into jobs (kind, payload, run_at) values
         ('test.unhandled', '{}', now() - interval '30 seconds'),
         ('mail', '{}', now() + interval '1 hour')`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1100)); // past the gauges' one-second read cache
    const late = await scrape();
    expect(lane(late, 'oldest_due_seconds', 'other')).toBeGreaterThanOrEqual(30);
    expect(lane(late, 'oldest_due_seconds', 'other')).toBeLessThan(60);
    expect(lane(late, 'stalled', 'other')).toBe(0);
    expect(lane(late, 'oldest_due_seconds', 'mail')).toBe(0);
    // One due two minutes ago: past the bound.
    await rows(
      `insert into jobs (kind, payload, run_at) values ('test.unhandled', '{}', now() - interval '2 minutes')`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const stalled = await scrape();
    expect(lane(stalled, 'oldest_due_seconds', 'other')).toBeGreaterThanOrEqual(120);
    expect(lane(stalled, 'stalled', 'other')).toBe(1);
    expect(lane(stalled, 'stalled', 'mail')).toBe(0);
    expect(lane(stalled, 'stalled', 'wallet_apple')).toBe(0);
  });

  it('counts rate-limit refusals by limit name', async () => {
    t = await createTestApp({
      config: { metricsToken: TOKEN, scannerKey: KEY, redeemPerMinute: 1, scannerKeyFailuresPerMinute: 1 },
    });
    const redeem = () => t.app.inject({ method: 'POST', url: '/v1/resell/redeem/2AMS-NOT-A-CODE' });
    await redeem();
    expect((await redeem()).statusCode).toBe(429);
    const wrongKey = () => t.app.inject({ url: '/v1/access/events', headers: { 'x-scanner-key': 'wrong' } });
    expect((await wrongKey()).statusCode).toBe(401);
    expect((await wrongKey()).statusCode).toBe(429);
    const text = await scrape();
    expect(sample(text, 'tp_rate_limit_refusals_total{limit="resale_redeem"}')).toBe(1);
    expect(sample(text, 'tp_rate_limit_refusals_total{limit="scanner_key_failures"}')).toBe(1);
  });

  it('keeps one registry per app: two apps in one process count apart', async () => {
    t = await createTestApp({ config: { metricsToken: TOKEN } });
    const other = await createTestApp({ config: { metricsToken: TOKEN } });
    try {
      await other.app.inject({ url: '/healthz' });
      const text = await scrape();
      expect(
        sample(text, 'tp_http_request_duration_seconds_count{method="GET",route="/healthz",status_code="200"}'),
      ).toBe(undefined);
    } finally {
      await other.close();
    }
  });
});
