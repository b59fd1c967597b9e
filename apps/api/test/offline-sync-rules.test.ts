/**
 * The rules of POST /v1/access/sync one by one (issue 43, the mutants `offline-sync.ts` left): a wallet ticket code
 * admits only its own ticket; an event cancelled, a ticket refunded, listed or returned to the exchange queue; a scan
 * at the reveal time exactly; the scan-time bounds at their edges; the order of an answer's conflicts; what a judged
 * item leaves behind (the organiser's `ticket.checked_in` webhook, the check-in log, the metrics, counted once).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { access } from '@tp/contract';
import { signTicketCode } from '@tp/contract/pass-code';
import { SYNC_MAX_AGE_HOURS } from '../src/modules/access/offline-sync.js';
import { bearer, createTestApp, onboardSandboxSeller, rawQuery, type TestApp } from './helper.js';

const KEY = 'door-key-for-tests';
const TOKEN = 'metrics-token-for-tests-0123456789';
let t: TestApp;
let alice: string;
let laneway: number;
/** Alice's Laneway Sessions tickets by ticket type name. */
let a: Record<string, number>;
beforeEach(async () => {
  t = await createTestApp({
    seed: true,
    config: { scannerKey: KEY, qrTtlSeconds: 30, metricsToken: TOKEN, adminKey: 'admin-key-for-tests' },
  });
  alice = (await t.signIn('alice@example.com')).accessToken;
  laneway = Number((await rows(`select id from events where name = 'Laneway Sessions'`))[0].id);
  a = Object.fromEntries(
    (
      await rows(
        `select ut.id, tt.name from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id
          join users u on u.id = ut.holder_id where u.email = 'alice@example.com' and tt.event_id = ${laneway}`,
      )
    ).map((r) => [r.name as string, Number(r.id)]),
  );
});
afterEach(async () => {
  await t.close();
});

type Row = Record<string, unknown>;
const rows = async (sql: string) => (await rawQuery<Row>(t.database.db, sql)).rows;
const userId = async (email: string) => Number((await rows(`select id from users where email = '${email}'`))[0].id);
const passOf = async (email: string) =>
  t.app.services.access.codeFor(await userId(email), Math.floor(t.clock.now().getTime() / 1000 / 30));
const sync = (items: access.SyncItem[]) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/access/sync',
    headers: { 'x-scanner-key': KEY },
    payload: { eventId: laneway, items },
  });
const synced = async (items: access.SyncItem[]) => {
  const r = await sync(items);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<access.SyncResponse>().results;
};
/** A queued item: `code` (default Alice's pass now) scanned at `scannedAt` (default now), admitting `userTicketIds`. */
const item = async (userTicketIds: number[], over: Partial<access.SyncItem> = {}): Promise<access.SyncItem> => ({
  id: randomUUID(),
  code: await passOf('alice@example.com'),
  scannedAt: t.clock.now().toISOString(),
  userTicketIds,
  ...over,
});
const reasons = (r: access.SyncResult) => r.conflicts.map((c) => [c.userTicketId, c.reason]);

describe('what a synced item may admit', () => {
  it("admits with an Apple Wallet ticket code only that code's ticket: another one it lists is invalid_pass", async () => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const code = await signTicketCode(t.config.passSigningKey, {
      userTicketId: a['VIP'],
      holderId: await userId('alice@example.com'),
      validFrom: now - 3600,
      validUntil: now + 86_400,
    });
    const [result] = await synced([await item([a['VIP'], a['General Admission']], { code })]);
    expect(result.admitted).toEqual([a['VIP']]);
    expect(reasons(result)).toEqual([[a['General Admission'], 'invalid_pass']]);
  });

  it('refuses every ticket of a cancelled event, even one scanned before the cancel', async () => {
    const queued = await item([a['VIP']]);
    await rows(`update events set cancelled_at = now() where id = ${laneway}`);
    const [result] = await synced([queued]);
    expect(result.admitted).toEqual([]);
    expect(reasons(result)).toEqual([[a['VIP'], 'event_cancelled']]);
  });

  it('tells a refunded ticket from a revoked one, and refuses a ticket listed for resale or returned to the exchange', async () => {
    await rows(`update user_tickets set revoked_at = now(), revoked_reason = 'refunded' where id = ${a['VIP']}`);
    const [refunded] = await synced([await item([a['VIP']])]);
    expect(reasons(refunded)).toEqual([[a['VIP'], 'refunded']]);

    const onboarding = await onboardSandboxSeller(t.app, alice);
    expect(onboarding.statusCode, onboarding.body).toBeLessThan(300);
    const listed = await t.app.inject({
      method: 'POST',
      url: '/v1/resell',
      headers: bearer(alice),
      payload: {
        userTicketId: a['General Admission'],
        amountCount: 1,
        price: 80,
        currencyCode: 'AUD',
        currencySymbol: 'A$',
      },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const [onSale] = await synced([await item([a['General Admission']])]);
    expect(onSale.admitted).toEqual([]);
    expect(reasons(onSale)).toEqual([[a['General Admission'], 'listed']]);

    // Bob's Laneway ticket returned to the exchange queue (decision 042): his until sold, but it does not admit.
    const [bobs] = await rows(
      `select ut.id, ut.ticket_type_id, u.id as holder from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id
        join users u on u.id = ut.holder_id where u.email = 'bob@example.com' and tt.event_id = ${laneway} order by ut.id limit 1`,
    );
    await rows(
      `insert into exchange_units (event_id, ticket_type_id, user_ticket_id, seller_user_id, price_cents, currency_code, status, created_at)
        values (${laneway}, ${Number(bobs.ticket_type_id)}, ${Number(bobs.id)}, ${Number(bobs.holder)}, 8000, 'AUD', 'AVAILABLE', now())`,
    );
    const [returned] = await synced([{ ...(await item([Number(bobs.id)])), code: await passOf('bob@example.com') }]);
    expect(returned.admitted).toEqual([]);
    expect(reasons(returned)).toEqual([[Number(bobs.id), 'returned']]);
  });

  it('admits a scan made at the reveal time exactly', async () => {
    const queued = await item([a['VIP']]);
    await rows(`update events set pass_reveal_at = '${queued.scannedAt}' where id = ${laneway}`);
    const [result] = await synced([queued]);
    expect(result).toEqual({ id: queued.id, admitted: [a['VIP']], conflicts: [] });
  });
});

describe('the scan time and the answer', () => {
  it('takes a scan one minute ahead of the clock and one exactly as old as allowed, not a millisecond older', async () => {
    const now = t.clock.now().getTime();
    const at = (ms: number) => new Date(ms).toISOString();
    expect((await sync([await item([a['VIP']], { scannedAt: at(now + 60_000) })])).statusCode).toBe(200);
    const maxAge = SYNC_MAX_AGE_HOURS * 3_600_000;
    expect((await sync([await item([a['VIP']], { scannedAt: at(now - maxAge) })])).statusCode).toBe(200);
    const tooOld = await sync([await item([a['VIP']], { scannedAt: at(now - maxAge - 1) })]);
    expect(tooOld.statusCode).toBe(400);
    expect(tooOld.json()).toEqual({ message: 'api.access.sync_bad_time' });
  });

  it('answers the conflicts in ticket id order, numerically, whatever order the door sent', async () => {
    const forged = `${await passOf('bob@example.com')}x`;
    const [result] = await synced([await item([100, 9, 10, 9], { code: forged })]);
    expect(reasons(result)).toEqual([
      [9, 'invalid_pass'],
      [10, 'invalid_pass'],
      [100, 'invalid_pass'],
    ]);
  });
});

describe('what a judged item leaves behind', () => {
  it("queues the organiser's offline ticket.checked_in, logs admitted and refused, and counts a re-sent item once", async () => {
    const orgKey = (await t.app.services.organisations.admin.addKeyBySlug('demo'))!.apiKey;
    const hook = await t.app.inject({
      method: 'POST',
      url: '/v1/org/webhooks',
      headers: bearer(orgKey),
      payload: { url: 'https://hooks.example.com/x', events: ['ticket.checked_in'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const good = await item([a['VIP']]);
    const bad = await item([a['General Admission']], { code: `${await passOf('alice@example.com')}x` });
    await synced([good, bad]);
    await synced([good]);

    const queued = (await rows(`select event_type, payload from webhook_deliveries order by id`)).map((r) => ({
      type: r.event_type,
      payload: JSON.parse(r.payload as string) as { type: string; data: Row },
    }));
    expect(queued).toHaveLength(1);
    expect(queued[0].type).toBe('ticket.checked_in');
    expect(queued[0].payload.data).toMatchObject({ userTicketId: a['VIP'], eventId: laneway, offline: true });

    const logged = await rows(`select verdict, offline from check_in_log order by id`);
    expect(logged).toEqual([
      { verdict: 'admitted', offline: true },
      { verdict: 'refused', offline: true },
    ]);

    const metrics = await t.app.inject({ url: '/metrics', headers: bearer(TOKEN) });
    const sample = (series: string) =>
      metrics.body
        .split('\n')
        .find((l) => l.startsWith(`${series} `))
        ?.slice(series.length + 1);
    expect(sample('tp_check_ins_total{mode="offline",result="admitted",reason=""}')).toBe('1');
    expect(sample('tp_check_ins_total{mode="offline",result="refused",reason="invalid_pass"}')).toBe('1');
  });
});
