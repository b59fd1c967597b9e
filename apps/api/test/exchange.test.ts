/**
 * The exchange queue (issue 45, decision 042), first slice: the organiser's settings and releases, fans' entries
 * with their true position, holders' returns and withdrawals, and the matching by the group rule: each row of
 * decision 042's case table, offers ending by decline, leave and expiry (the `exchange.expire` job at `expiresAt`),
 * and the limits per account and per address.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { access, exchange, MyTicket } from '@tp/contract';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';
import { createExchangeSchedule, drawOrder } from '../src/modules/exchange/exchange-schedule.js';
import { exchangeNotices } from '../src/modules/exchange/exchange-notices.js';
import { createExchangeCheckout } from '../src/modules/exchange/exchange-checkout.service.js';
import { createSandboxPayouts } from '../src/providers/payouts/payout.provider.js';

const ADMIN = 'admin-key-for-tests';
const DOOR = 'door-key-for-tests';
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const EXCHANGE = '/v1/exchange/acme/evt-1';
let t: TestApp;
afterEach(async () => {
  await t.close();
});

type Entry = exchange.ExchangeEntry;
type Tokens = Record<'h' | 'h2' | 'a' | 'b' | 'c' | 'd', string>;

const call = (token: string | null, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
const iso = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
const settings = { enabled: true, offerMinutes: 20, order: 'first_come', maxQuantity: 4 };
/** The sandbox payout onboarding form of the organisation (releases are paid to its account). */
const SANDBOX_PAYOUT = {
  country: 'AU',
  firstName: 'A',
  lastName: 'B',
  birthdate: '1990-01-02',
  bankAccount: '062-000 12345678',
};

/** Event evt-1's fields, starting 10 days from the test clock's now. */
const harbourLights = () => ({
  name: 'Harbour Lights',
  venue: 'The Domain',
  city: 'Sydney',
  country: 'AU',
  startsAt: iso(10 * DAY),
  endsAt: iso(10 * DAY + 8 * HOUR),
  timeZone: 'Australia/Sydney',
});

/** An organisation with event evt-1 (types ga and vip), four GA tickets of h, one of h2, and six accounts. */
async function setUp(config: Parameters<typeof createTestApp>[0] & { noOrgPayoutAccount?: boolean } = {}) {
  t = await createTestApp({
    ...config,
    // The clock moves by days: tokens and the step-up (issue 47, its own test) last as long.
    config: {
      adminKey: ADMIN,
      scannerKey: DOOR,
      accessTokenTtlSeconds: 30 * 86_400,
      stepUpMaxAgeSeconds: 30 * 86_400,
      ...config.config,
    },
  });
  const org = await call(ADMIN, 'POST', '/v1/admin/organisations', { slug: 'acme', name: 'Acme' });
  const { apiKey } = org.json<{ apiKey: string }>();
  if (!config.noOrgPayoutAccount) {
    const payout = await call(apiKey, 'POST', '/v1/org/payout-account/sandbox-onboarding', SANDBOX_PAYOUT);
    expect(payout.statusCode, payout.body).toBe(204);
  }
  const put = async (path: string, payload: object) => {
    const r = await call(apiKey, 'PUT', `/v1/org/${path}`, payload);
    expect(r.statusCode, r.body).toBeLessThan(300);
  };
  await put('events/evt-1', harbourLights());
  const type = { eventExternalId: 'evt-1', currency: 'AUD', isGiftable: true, isResellable: true, isSwappable: false };
  await put('ticket-types/ga', { ...type, name: 'GA', priceCents: 9000 });
  await put('ticket-types/vip', { ...type, name: 'VIP', priceCents: 20000 });
  for (const n of [1, 2, 3, 4])
    await put(`tickets/t${n}`, { ticketTypeExternalId: 'ga', holderEmail: 'h@example.com' });
  await put('tickets/t5', { ticketTypeExternalId: 'ga', holderEmail: 'h2@example.com' });
  const tokens = {} as Tokens;
  for (const who of ['h', 'h2', 'a', 'b', 'c', 'd'] as const)
    tokens[who] = (await t.signIn(`${who}@example.com`)).accessToken;
  for (const seller of [tokens.h, tokens.h2]) {
    const r = await call(seller, 'POST', '/v1/resell/sandbox-onboarding', {
      country: 'AU',
      firstName: 'A',
      lastName: 'B',
      birthdate: '1990-01-02',
      bankAccount: '062-000 12345678',
    });
    expect(r.statusCode, r.body).toBeLessThan(300);
  }
  return { apiKey, tokens };
}

/** The set-up of the test (in a hook: the first app of a file starts slowly on a busy machine). */
let fixture: Awaited<ReturnType<typeof setUp>>;

const turnOn = async (apiKey: string, body: object = settings) => {
  const r = await call(apiKey, 'PUT', '/v1/org/events/evt-1/exchange', body);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<exchange.ExchangeOverview>();
};
const eventIdOf = async () =>
  Number(
    (await rawQuery<{ id: number }>(t.database.db, `select id from events where external_id = 'evt-1'`)).rows[0].id,
  );
const ticketId = async (externalId: string) =>
  Number(
    (await rawQuery<{ id: number }>(t.database.db, `select id from user_tickets where external_id = '${externalId}'`))
      .rows[0].id,
  );
const join = async (token: string, quantity = 1, ticketTypeExternalId = 'ga') => {
  const r = await call(token, 'POST', `${EXCHANGE}/entries`, { ticketTypeExternalId, quantity });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<Entry>();
};
const giveBack = async (token: string, externalId: string) => {
  const r = await call(token, 'POST', '/v1/exchange/returns', { userTicketId: await ticketId(externalId) });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<exchange.ExchangeReturn>();
};
const release = (apiKey: string, quantity: number, priceCents = 9000) =>
  call(apiKey, 'POST', '/v1/org/events/evt-1/exchange/releases', { ticketTypeExternalId: 'ga', quantity, priceCents });
const mine = async (token: string) => (await call(token, 'GET', '/v1/exchange/entries')).json<Entry[]>();
/** The status and position of the token's entry of the GA type that is newest. */
const state = async (token: string) => {
  const e = (await mine(token)).find((x) => x.ticketType.externalId === 'ga');
  return e ? { status: e.status, position: e.position } : undefined;
};
const unitStatuses = async () =>
  (await rawQuery<{ status: string }>(t.database.db, `select status from exchange_units order by id`)).rows.map(
    (r) => r.status,
  );

describe('the organiser turns the queue on', () => {
  beforeEach(async () => {
    fixture = await setUp();
  });

  it('PUT validates and answers the settings (closesAt defaults to the start), GET the counts; the audit trail records it', async () => {
    const { apiKey } = fixture;
    expect(
      (await call(apiKey, 'PUT', '/v1/org/events/evt-1/exchange', { ...settings, offerMinutes: 0 })).statusCode,
    ).toBe(400);
    expect(
      (await call(apiKey, 'PUT', '/v1/org/events/evt-1/exchange', { ...settings, order: 'draw' })).statusCode,
    ).toBe(400);
    expect(
      (await call(apiKey, 'PUT', '/v1/org/events/evt-1/exchange', { ...settings, maxQuantity: 7 })).statusCode,
    ).toBe(400);
    expect((await call(apiKey, 'PUT', '/v1/org/events/nope/exchange', settings)).statusCode).toBe(404);
    expect((await call(apiKey, 'GET', '/v1/org/events/evt-1/exchange')).json()).toMatchObject({ settings: null });
    const startsAt = (await call(apiKey, 'GET', '/v1/org/events/evt-1')).json<{ startsAt: string }>().startsAt;
    const overview = await turnOn(apiKey);
    expect(overview.settings).toEqual({
      ...settings,
      drawAt: null,
      closesAt: null,
      effectiveClosesAt: new Date(startsAt).toISOString(),
      closedAt: null,
    });
    expect(overview.types.map((x) => x.ticketTypeExternalId)).toEqual(['ga', 'vip']);
    const audit = await call(apiKey, 'GET', '/v1/org/audit-log?action=exchange.updated');
    expect(audit.json<{ items: { resourceId: string; detail: object }[] }>().items).toMatchObject([
      { resourceId: 'evt-1', detail: settings },
    ]);
  });

  it("releases wait for the organisation's verified payout account, opened as a seller's is", async () => {
    await t.close();
    fixture = await setUp({ noOrgPayoutAccount: true });
    const { apiKey } = fixture;
    await turnOn(apiKey);
    expect((await call(apiKey, 'GET', '/v1/org/payout-account')).json()).toEqual({
      clientSecret: '',
      started: false,
      verified: false,
    });
    const refused = await release(apiKey, 1);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'api.org.exchange.no_payout_account' });
    expect(await unitStatuses()).toEqual([]);
    // The embedded onboarding opens an account (PENDING until verified); a country resale does not pay out in is refused.
    expect((await call(apiKey, 'POST', '/v1/org/payout-account', { country: 'US' })).json()).toMatchObject({
      message: 'api.resell.not_supported_country',
    });
    const opened = await call(apiKey, 'POST', '/v1/org/payout-account', { country: 'AU' });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json<{ clientSecret: string }>().clientSecret).toMatch(/^sandbox_secret_sbx_/);
    expect((await call(apiKey, 'GET', '/v1/org/payout-account')).json()).toMatchObject({
      started: true,
      verified: false,
    });
    expect((await release(apiKey, 1)).statusCode).toBe(403);
    const done = await call(apiKey, 'POST', '/v1/org/payout-account/sandbox-onboarding', SANDBOX_PAYOUT);
    expect(done.statusCode, done.body).toBe(204);
    expect((await call(apiKey, 'GET', '/v1/org/payout-account')).json()).toMatchObject({
      started: true,
      verified: true,
    });
    expect((await release(apiKey, 1)).statusCode).toBe(201);
    // The holders' payout accounts are their own: the organisation's is not a holder's.
    expect((await call(fixture.tokens.a, 'GET', '/v1/resell/stripe')).json()).toMatchObject({ started: false });
  });

  it('a release is at most face value, only into an open queue, recorded, and counted per type', async () => {
    const { apiKey, tokens } = fixture;
    expect((await release(apiKey, 2)).json()).toEqual({
      message: 'api.org.exchange.not_open',
      detail: expect.any(String) as string,
    });
    await turnOn(apiKey);
    expect((await release(apiKey, 1, 9001)).statusCode).toBe(422);
    await join(tokens.a);
    const r = await release(apiKey, 3);
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toEqual({ released: 3, offered: 1 });
    const ga = (await turnOn(apiKey)).types.find((x) => x.ticketTypeExternalId === 'ga');
    expect(ga).toEqual({
      ticketTypeExternalId: 'ga',
      name: 'GA',
      waiting: 0,
      offered: 1,
      returned: 0,
      released: 3,
      sold: 0,
      expired: 0,
    });
    const audit = await call(apiKey, 'GET', '/v1/org/audit-log?action=exchange.released');
    expect(audit.json<{ items: object[] }>().items).toHaveLength(1);
  });
});

describe('fans join', () => {
  beforeEach(async () => {
    fixture = await setUp();
  });

  it('the public view names the types at face value, not before the queue is on, and no fan', async () => {
    const { apiKey, tokens } = fixture;
    expect((await call(null, 'GET', EXCHANGE)).statusCode).toBe(404);
    await turnOn(apiKey);
    await join(tokens.a);
    const r = await call(null, 'GET', EXCHANGE);
    expect(r.statusCode).toBe(200);
    expect(r.json<exchange.ExchangePublic>()).toMatchObject({
      event: { name: 'Harbour Lights', venue: 'The Domain' },
      open: true,
      maxQuantity: 4,
      types: [
        { ticketTypeExternalId: 'ga', name: 'GA', priceCents: 9000, currencyCode: 'AUD' },
        { ticketTypeExternalId: 'vip', name: 'VIP', priceCents: 20000, currencyCode: 'AUD' },
      ],
    });
    expect(r.body).not.toContain('a@example.com');
  });

  it("the public page: the event and each type at face value with a form to the panel's My tickets, both languages; 404 without a queue; closed says so", async () => {
    const { apiKey } = fixture;
    const page = (lang: string) => t.app.inject({ method: 'GET', url: `/exchange/acme/evt-1?lang=${lang}` });
    const none = await page('en');
    expect(none.statusCode).toBe(404);
    expect(none.body).toContain('This event has no exchange queue.');
    await turnOn(apiKey);
    const en = await page('en');
    expect(en.statusCode).toBe(200);
    expect(en.headers['content-type']).toMatch(/^text\/html/);
    expect(en.body).toContain('<h1>Harbour Lights</h1>');
    expect(en.body).toContain('The Domain, Sydney');
    expect(en.body).toMatch(/A\$90\.00<\/span> <span class="muted">face value per ticket/);
    expect(en.body).toContain('<form method="get" action="/en/" aria-label="VIP">');
    for (const [name, value] of [
      ['PANEL_TAB', 'MY_TICKET'],
      ['org', 'acme'],
      ['EXCHANGE_EVENT', 'evt-1'],
      ['EXCHANGE_TYPE', 'ga'],
    ])
      expect(en.body).toContain(`<input type="hidden" name="${name}" value="${value}">`);
    // One to the queue's maxQuantity (4).
    expect(en.body).toContain('<option value="4">4</option></select>');
    expect(en.body).not.toContain('<option value="5">');
    const es = await page('es');
    expect(es.body).toContain('Unirme a la cola');
    expect(es.body).toContain('precio original por entrada');
    expect(es.body).toContain('action="/es/"');
    await call(apiKey, 'PUT', '/v1/org/events/evt-1/exchange', { ...settings, closesAt: iso(HOUR) });
    t.clock.advance(2 * HOUR);
    const closed = await page('en');
    expect(closed.body).toContain('This queue is closed');
    expect(closed.body).not.toContain('<form');
  });

  it('one open entry per account per type; positions are true as entries leave; a fan who left joins at the back', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    expect(await join(tokens.a)).toMatchObject({ status: 'WAITING', position: 1, inDraw: false, offer: null });
    expect(await join(tokens.b, 2)).toMatchObject({ position: 2, quantity: 2 });
    expect(await join(tokens.c)).toMatchObject({ position: 3 });
    expect(await join(tokens.a, 1, 'vip')).toMatchObject({ position: 1 });
    const again = await call(tokens.a, 'POST', `${EXCHANGE}/entries`, { ticketTypeExternalId: 'ga', quantity: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'api.exchange.join.already_in_queue' });
    const many = await call(tokens.d, 'POST', `${EXCHANGE}/entries`, { ticketTypeExternalId: 'ga', quantity: 5 });
    expect(many.json()).toEqual({ message: 'api.exchange.join.quantity_exceeded' });
    const unknown = await call(tokens.d, 'POST', `${EXCHANGE}/entries`, { ticketTypeExternalId: 'x', quantity: 1 });
    expect(unknown.json()).toEqual({ message: 'api.exchange.join.type_not_found' });

    const aGa = (await mine(tokens.a)).find((e) => e.ticketType.externalId === 'ga')!;
    // Another fan can neither leave nor decline it, nor see it.
    expect((await call(tokens.b, 'DELETE', `/v1/exchange/entries/${aGa.id}`)).statusCode).toBe(404);
    expect((await mine(tokens.b)).map((e) => e.id)).not.toContain(aGa.id);
    expect((await call(tokens.a, 'DELETE', `/v1/exchange/entries/${aGa.id}`)).statusCode).toBe(204);
    expect((await call(tokens.a, 'DELETE', `/v1/exchange/entries/${aGa.id}`)).json()).toEqual({
      message: 'api.exchange.leave.not_open',
    });
    expect(await state(tokens.b)).toEqual({ status: 'WAITING', position: 1 });
    expect(await state(tokens.c)).toEqual({ status: 'WAITING', position: 2 });
    expect(await join(tokens.a)).toMatchObject({ position: 3 });
    expect((await mine(tokens.a)).map((e) => e.status)).toEqual(['WAITING', 'WAITING', 'LEFT']);
  });

  it('a closed queue takes no entry', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey, { ...settings, closesAt: iso(HOUR) });
    t.clock.advance(HOUR);
    const r = await call(tokens.a, 'POST', `${EXCHANGE}/entries`, { ticketTypeExternalId: 'ga', quantity: 1 });
    expect(r.json()).toEqual({ message: 'api.exchange.closed' });
    expect((await call(null, 'GET', EXCHANGE)).json()).toMatchObject({ open: false });
  });
});

describe('decision 042 case table', () => {
  beforeEach(async () => {
    fixture = await setUp();
  });

  it('A wants 2, B wants 1; 1 returned: B is offered it, A keeps position 1', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    await join(tokens.a, 2);
    await join(tokens.b, 1);
    expect(await giveBack(tokens.h, 't1')).toMatchObject({ status: 'RESERVED', priceCents: 9000, currencyCode: 'AUD' });
    expect(await state(tokens.b)).toEqual({ status: 'OFFERED', position: 2 });
    expect(await state(tokens.a)).toEqual({ status: 'WAITING', position: 1 });
  });

  it('A wants 2, B wants 1; 1 returned, B done, 1 more returned: it stays AVAILABLE; the next makes two for A', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    await join(tokens.a, 2);
    const b = await join(tokens.b, 1);
    await giveBack(tokens.h, 't1');
    // B's offer ends (the checkout lands in a later slice; leaving frees it as paying will take it).
    await rawQuery(t.database.db, `update exchange_entries set status = 'PURCHASED' where id = ${b.id}`);
    await rawQuery(t.database.db, `update exchange_units set status = 'SOLD' where entry_id = ${b.id}`);
    expect(await giveBack(tokens.h, 't2')).toMatchObject({ status: 'AVAILABLE' });
    expect(await state(tokens.a)).toEqual({ status: 'WAITING', position: 1 });
    await giveBack(tokens.h, 't3');
    expect(await state(tokens.a)).toEqual({ status: 'OFFERED', position: 1 });
    expect(await unitStatuses()).toEqual(['SOLD', 'RESERVED', 'RESERVED']);
  });

  it('A wants 2, B, C, D want 1; 1 returned 3 times: B, then C; the third is HELD for A; the fourth makes A offered', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    await join(tokens.a, 2);
    for (const fan of [tokens.b, tokens.c, tokens.d]) await join(fan, 1);
    await giveBack(tokens.h, 't1');
    await giveBack(tokens.h, 't2');
    expect([await state(tokens.b), await state(tokens.c)]).toEqual([
      { status: 'OFFERED', position: 2 },
      { status: 'OFFERED', position: 3 },
    ]);
    expect(await giveBack(tokens.h, 't3')).toMatchObject({ status: 'HELD' });
    expect(await state(tokens.d)).toEqual({ status: 'WAITING', position: 4 });
    expect(await giveBack(tokens.h2, 't5')).toMatchObject({ status: 'RESERVED' });
    expect(await state(tokens.a)).toEqual({ status: 'OFFERED', position: 1 });
    expect(await state(tokens.d)).toEqual({ status: 'WAITING', position: 4 });
  });

  it('control: without the hold, the third return would have gone to D (the rule is what keeps it for A)', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    await join(tokens.a, 2);
    for (const fan of [tokens.b, tokens.c, tokens.d]) await join(fan, 1);
    await giveBack(tokens.h, 't1');
    await giveBack(tokens.h, 't2');
    // A's count of units given past it, taken away: the third return then goes to D.
    await rawQuery(t.database.db, `update exchange_entries set passed_over = 0 where quantity = 2`);
    expect(await giveBack(tokens.h, 't3')).toMatchObject({ status: 'RESERVED' });
    expect(await state(tokens.d)).toEqual({ status: 'OFFERED', position: 4 });
  });

  it('A wants 1; 2 returned by one holder: A is offered the older, the other stays AVAILABLE for the next', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    await join(tokens.a, 1);
    expect(await giveBack(tokens.h, 't1')).toMatchObject({ status: 'RESERVED' });
    expect(await giveBack(tokens.h, 't2')).toMatchObject({ status: 'AVAILABLE' });
    expect(await unitStatuses()).toEqual(['RESERVED', 'AVAILABLE']);
    expect(await join(tokens.b, 1)).toMatchObject({ status: 'OFFERED' });
  });

  it('A wants 2; 2 released by the organiser: A is offered both', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    await join(tokens.a, 2);
    expect((await release(apiKey, 2)).json()).toEqual({ released: 2, offered: 1 });
    expect(await state(tokens.a)).toEqual({ status: 'OFFERED', position: 1 });
    expect(await unitStatuses()).toEqual(['RESERVED', 'RESERVED']);
  });
});

describe('offers end', () => {
  beforeEach(async () => {
    fixture = await setUp();
  });

  it('declined: the entry ends and the next one that fits is offered at once', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    const a = await join(tokens.a);
    await join(tokens.b);
    await release(apiKey, 1);
    expect((await call(tokens.b, 'POST', `/v1/exchange/entries/${a.id}/decline`)).statusCode).toBe(404);
    expect((await call(tokens.a, 'POST', `/v1/exchange/entries/${a.id}/decline`)).statusCode).toBe(204);
    expect(await state(tokens.a)).toEqual({ status: 'EXPIRED', position: null });
    expect(await state(tokens.b)).toEqual({ status: 'OFFERED', position: 1 });
    expect((await call(tokens.a, 'POST', `/v1/exchange/entries/${a.id}/decline`)).json()).toEqual({
      message: 'api.exchange.decline.not_offered',
    });
  });

  it('left while offered: the tickets go to the next entry', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    const a = await join(tokens.a, 2);
    await join(tokens.b, 2);
    await release(apiKey, 2);
    expect((await call(tokens.a, 'DELETE', `/v1/exchange/entries/${a.id}`)).statusCode).toBe(204);
    expect(await state(tokens.b)).toEqual({ status: 'OFFERED', position: 1 });
  });

  it('expired: the job scheduled at expiresAt ends the offer and offers the next; not a moment before', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    await join(tokens.a);
    await join(tokens.b);
    await release(apiKey, 1);
    const offer = (await mine(tokens.a))[0].offer;
    expect(new Date(offer!.expiresAt).getTime()).toBe(t.clock.now().getTime() + 20 * 60_000);
    t.clock.advance(20 * 60_000 - 1000);
    await t.app.services.jobs.runDue();
    expect(await state(tokens.a)).toEqual({ status: 'OFFERED', position: 1 });
    t.clock.advance(1000);
    await t.app.services.jobs.runDue();
    expect(await state(tokens.a)).toEqual({ status: 'EXPIRED', position: null });
    expect(await state(tokens.b)).toEqual({ status: 'OFFERED', position: 1 });
    const ga = (await turnOn(apiKey)).types.find((x) => x.ticketTypeExternalId === 'ga');
    expect(ga).toMatchObject({ offered: 1, expired: 1, released: 1 });
  });
});

describe('holders return tickets', () => {
  beforeEach(async () => {
    fixture = await setUp();
  });

  it('needs a verified payout account, a ticket of mine, not listed for resale, once; withdrawn unless reserved', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    const t1 = await ticketId('t1');
    const noPayout = await call(tokens.a, 'POST', '/v1/exchange/returns', { userTicketId: t1 });
    expect(noPayout.json()).toEqual({ message: 'api.exchange.return.no_payout_account' });
    const notMine = await call(tokens.h2, 'POST', '/v1/exchange/returns', { userTicketId: t1 });
    expect(notMine.json()).toEqual({ message: 'api.exchange.return.not_returnable' });
    const listed = await call(tokens.h, 'POST', '/v1/resell', {
      userTicketId: await ticketId('t4'),
      amountCount: 1,
      price: 90,
      currencyCode: 'AUD',
      currencySymbol: '$',
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const both = await call(tokens.h, 'POST', '/v1/exchange/returns', { userTicketId: await ticketId('t4') });
    expect(both.json()).toEqual({ message: 'api.exchange.return.listed' });

    expect(await giveBack(tokens.h, 't1')).toMatchObject({ status: 'AVAILABLE' });
    const twice = await call(tokens.h, 'POST', '/v1/exchange/returns', { userTicketId: t1 });
    expect(twice.json()).toEqual({ message: 'api.exchange.return.already_returned' });
    expect((await call(tokens.h2, 'DELETE', `/v1/exchange/returns/${t1}`)).statusCode).toBe(404);
    expect((await call(tokens.h, 'DELETE', `/v1/exchange/returns/${t1}`)).statusCode).toBe(204);
    expect(await unitStatuses()).toEqual(['WITHDRAWN']);

    await join(tokens.a);
    expect(await giveBack(tokens.h, 't1')).toMatchObject({ status: 'RESERVED' });
    const reserved = await call(tokens.h, 'DELETE', `/v1/exchange/returns/${t1}`);
    expect(reserved.json()).toEqual({ message: 'api.exchange.withdraw.reserved' });
    const ga = (await turnOn(apiKey)).types.find((x) => x.ticketTypeExternalId === 'ga');
    expect(ga).toMatchObject({ returned: 2, offered: 1 });
  });

  it("the ticket page's question, GET /exchange/returns/{userTicketId}: returnable only while the queue is open and the ticket free; its state once returned", async () => {
    const { apiKey, tokens } = fixture;
    const t1 = await ticketId('t1');
    const stateOf = async (token: string, id = t1) => {
      const r = await call(token, 'GET', `/v1/exchange/returns/${id}`);
      return { status: r.statusCode, body: r.json<exchange.ExchangeReturnState | { message: string }>() };
    };
    const base = { userTicketId: t1, priceCents: 9000, currencyCode: 'AUD' };
    expect(await stateOf(tokens.h)).toEqual({
      status: 200,
      body: { ...base, returnable: false, status: null, closesAt: null },
    });
    expect(await stateOf(tokens.h2)).toEqual({
      status: 404,
      body: { message: 'api.exchange.return.ticket_not_found' },
    });
    // The event's start: no transfer cut-off and no closesAt set.
    const closesAt = (await turnOn(apiKey)).settings!.effectiveClosesAt;
    expect((await stateOf(tokens.h)).body).toEqual({ ...base, returnable: true, status: null, closesAt });
    await giveBack(tokens.h, 't1');
    expect((await stateOf(tokens.h)).body).toEqual({ ...base, returnable: false, status: 'AVAILABLE', closesAt });
    await join(tokens.a);
    expect((await stateOf(tokens.h)).body).toMatchObject({ returnable: false, status: 'RESERVED' });
    // Listed for resale: not returnable (one sale at a time).
    const t4 = await ticketId('t4');
    const listed = await call(tokens.h, 'POST', '/v1/resell', {
      userTicketId: t4,
      amountCount: 1,
      price: 90,
      currencyCode: 'AUD',
      currencySymbol: '$',
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect((await stateOf(tokens.h, t4)).body).toMatchObject({ returnable: false, status: null });
    // Closed: nothing is returnable; the answer still says when it closed.
    t.clock.advance(10 * DAY);
    expect((await stateOf(tokens.h, await ticketId('t2'))).body).toMatchObject({ returnable: false, closesAt });
  });
});

describe('one sale at a time', () => {
  beforeEach(async () => {
    fixture = await setUp();
  });

  it('a returned ticket is neither gifted nor listed for resale; withdrawn, it is (the control)', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    const t1 = await ticketId('t1');
    const gift = () =>
      call(tokens.h, 'POST', '/v1/mobile/giftTicket', { userTicketId: t1, username: 'friend@example.com' });
    const resell = () =>
      call(tokens.h, 'POST', '/v1/resell', {
        userTicketId: t1,
        amountCount: 1,
        price: 90,
        currencyCode: 'AUD',
        currencySymbol: '$',
      });
    await giveBack(tokens.h, 't1');
    expect((await gift()).statusCode).toBe(409);
    expect((await resell()).json()).toEqual({ message: 'api.resell.create.already_listed' });
    expect((await call(tokens.h, 'DELETE', `/v1/exchange/returns/${t1}`)).statusCode).toBe(204);
    expect((await resell()).statusCode).toBe(200);
  });
});

describe('the ticket listing is true about a returned ticket', () => {
  beforeEach(async () => {
    fixture = await setUp();
  });

  it('shows no move and says it is returned, at once on an instance that kept the row; withdrawn, the moves are back', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    const t1 = await ticketId('t1');
    const flags = async () => {
      const r = await call(tokens.h, 'GET', '/v1/list/ticket_listing?status=UPCOMING');
      expect(r.statusCode, r.body).toBe(200);
      const item = r.json<MyTicket[]>().find((x) => x.userTicketId === t1)!;
      const one = (await call(tokens.h, 'GET', `/v1/list/ticket_listing/${t1}`)).json<MyTicket>();
      expect(one).toEqual(item);
      return { gift: item.isGiftable, resell: item.isResellable, returned: item.isReturnedToExchange };
    };
    // The first listing keeps the rows (decision 036); the next ones reuse them while their version holds.
    expect(await flags()).toEqual({ gift: true, resell: true, returned: false });
    await giveBack(tokens.h, 't1');
    expect(await flags()).toEqual({ gift: false, resell: false, returned: true });
    // Offered to a fan (the unit RESERVED): still returned.
    await join(tokens.a);
    expect(await unitStatuses()).toEqual(['RESERVED']);
    expect(await flags()).toEqual({ gift: false, resell: false, returned: true });
    await rawQuery(t.database.db, `update exchange_units set status = 'AVAILABLE', entry_id = null`);
    expect((await call(tokens.h, 'DELETE', `/v1/exchange/returns/${t1}`)).statusCode).toBe(204);
    expect(await flags()).toEqual({ gift: true, resell: true, returned: false });
  });
});

describe('a returned ticket does not admit (decision 042)', () => {
  beforeEach(async () => {
    fixture = await setUp();
  });

  const one = async (sql: string) => Number((await rawQuery<{ id: number }>(t.database.db, sql)).rows[0].id);
  const eventId = () => one(`select id from events where external_id = 'evt-1'`);
  /** The pass the holder's QR shows now. */
  const passOf = async (email: string) =>
    t.app.services.access.codeFor(
      await one(`select id from users where email = '${email}'`),
      Math.floor(t.clock.now().getTime() / 1000 / 30),
    );
  const scan = async (email: string) => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/access/check-in',
      headers: { 'x-scanner-key': DOOR },
      payload: { code: await passOf(email), eventId: await eventId() },
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json<access.CheckInResponse>();
  };
  const ids = (list: { userTicketId: number }[] | undefined) => (list ?? []).map((x) => x.userTicketId);
  const withdraw = async (token: string, externalId: string) => {
    const r = await call(token, 'DELETE', `/v1/exchange/returns/${await ticketId(externalId)}`);
    expect(r.statusCode, r.body).toBe(204);
  };

  it('online: the door refuses it as `returned` and admits the rest; withdrawn, it admits', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    const [t1, t2, t3, t4, t5] = await Promise.all(['t1', 't2', 't3', 't4', 't5'].map(ticketId));
    await giveBack(tokens.h, 't1');
    const first = await scan('h@example.com');
    expect(ids(first.admitted)).toEqual([t2, t3, t4]);
    expect(first.returned).toEqual([{ userTicketId: t1, ticketName: 'GA' }]);
    expect(first.listedForResale).toEqual([]);
    // A holder whose only ticket is returned is named (they hold it) and admitted to nothing.
    await giveBack(tokens.h2, 't5');
    const only = await scan('h2@example.com');
    expect(only).toMatchObject({ admitted: [], alreadyUsed: [], returned: [{ userTicketId: t5 }] });
    expect(only.holderName).not.toBe('');
    const verdicts = await rawQuery<{ verdict: string }>(t.database.db, `select verdict from check_in_log order by id`);
    expect(verdicts.rows.map((r) => r.verdict)).toEqual(['admitted', 'returned']);
    const used = await rawQuery<{ id: number }>(
      t.database.db,
      `select id from user_tickets where event_access_used_at is not null order by id`,
    );
    expect(used.rows.map((r) => Number(r.id))).toEqual([t2, t3, t4]);

    // The control: withdrawn, the same ticket admits on the same pass.
    await withdraw(tokens.h, 't1');
    const again = await scan('h@example.com');
    expect(ids(again.admitted)).toEqual([t1]);
    expect(again.returned).toBeUndefined();
    expect(ids((await scan('h2@example.com')).returned)).toEqual([t5]);
  });

  it('offline: the admissions snapshot leaves it out; withdrawn, it is back', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    const snapshot = async () => {
      const r = await t.app.inject({
        url: `/v1/access/events/${await eventId()}/admissions`,
        headers: { 'x-scanner-key': DOOR },
      });
      expect(r.statusCode, r.body).toBe(200);
      return r.json<access.AdmissionsPage>().holders.map((h) => h.tickets.map((x) => x.userTicketId));
    };
    const [t1, t2, t3, t4, t5] = await Promise.all(['t1', 't2', 't3', 't4', 't5'].map(ticketId));
    expect(await snapshot()).toEqual([[t1, t2, t3, t4], [t5]]);
    await giveBack(tokens.h, 't1');
    await giveBack(tokens.h2, 't5');
    // h2's only ticket is returned: h2 is not in the snapshot at all.
    expect(await snapshot()).toEqual([[t2, t3, t4]]);
    await withdraw(tokens.h, 't1');
    await withdraw(tokens.h2, 't5');
    expect(await snapshot()).toEqual([[t1, t2, t3, t4], [t5]]);
  });

  it('offline: a scan synced after the return is a `returned` conflict; withdrawn, the next is admitted', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    const [t1, t2] = await Promise.all(['t1', 't2'].map(ticketId));
    const sync = async (userTicketIds: number[]) => {
      const item = {
        id: randomUUID(),
        code: await passOf('h@example.com'),
        scannedAt: t.clock.now().toISOString(),
        userTicketIds,
      };
      const r = await t.app.inject({
        method: 'POST',
        url: '/v1/access/sync',
        headers: { 'x-scanner-key': DOOR },
        payload: { eventId: await eventId(), items: [item] },
      });
      expect(r.statusCode, r.body).toBe(200);
      return r.json<access.SyncResponse>().results[0];
    };
    // The door's snapshot was taken before the return: it admitted t1 and t2 offline.
    await giveBack(tokens.h, 't1');
    expect(await sync([t1, t2])).toMatchObject({
      admitted: [t2],
      conflicts: [{ userTicketId: t1, reason: 'returned' }],
    });
    await withdraw(tokens.h, 't1');
    expect(await sync([t1])).toMatchObject({ admitted: [t1], conflicts: [] });
  });
});

describe('the queue closes (exchange.close)', () => {
  beforeEach(async () => {
    fixture = await setUp();
  });

  const entryStatuses = async () =>
    (await rawQuery<{ status: string }>(t.database.db, `select status from exchange_entries order by id`)).rows.map(
      (r) => r.status,
    );

  it('at closesAt: waiting and offered entries CLOSED, held, reserved and available units WITHDRAWN; returned tickets admit again', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey, { ...settings, offerMinutes: 120, closesAt: iso(HOUR) });
    // The case table's third row: B and C offered (RESERVED), the third return HELD for A, D waiting.
    await join(tokens.a, 2);
    for (const fan of [tokens.b, tokens.c, tokens.d]) await join(fan, 1);
    for (const ticket of ['t1', 't2', 't3']) await giveBack(tokens.h, ticket);
    // A VIP release no entry wants stays AVAILABLE; an entry left before the close stays LEFT.
    const vip = await call(apiKey, 'POST', '/v1/org/events/evt-1/exchange/releases', {
      ticketTypeExternalId: 'vip',
      quantity: 1,
      priceCents: 20000,
    });
    expect(vip.json()).toEqual({ released: 1, offered: 0 });
    const left = await join(tokens.h2, 1, 'vip');
    expect(left.status).toBe('OFFERED');
    expect((await call(tokens.h2, 'DELETE', `/v1/exchange/entries/${left.id}`)).statusCode).toBe(204);
    expect(await entryStatuses()).toEqual(['WAITING', 'OFFERED', 'OFFERED', 'WAITING', 'LEFT']);
    expect(await unitStatuses()).toEqual(['RESERVED', 'RESERVED', 'HELD', 'AVAILABLE']);

    t.clock.advance(HOUR - 1000);
    await t.app.services.jobs.runDue();
    expect(await entryStatuses()).toEqual(['WAITING', 'OFFERED', 'OFFERED', 'WAITING', 'LEFT']);
    t.clock.advance(1000);
    await t.app.services.jobs.runDue();
    expect(await entryStatuses()).toEqual(['CLOSED', 'CLOSED', 'CLOSED', 'CLOSED', 'LEFT']);
    expect(await unitStatuses()).toEqual(['WITHDRAWN', 'WITHDRAWN', 'WITHDRAWN', 'WITHDRAWN']);
    const overview = (await call(apiKey, 'GET', '/v1/org/events/evt-1/exchange')).json<exchange.ExchangeOverview>();
    expect(overview.settings?.closedAt).toBe(t.clock.now().toISOString());
    expect(await state(tokens.b)).toEqual({ status: 'CLOSED', position: null });
    const items = (await call(tokens.h, 'GET', '/v1/list/ticket_listing?status=UPCOMING')).json<MyTicket[]>();
    expect(items.map((x) => [x.isReturnedToExchange, x.isGiftable])).toEqual([
      [false, true],
      [false, true],
      [false, true],
      [false, true],
    ]);
    // The offers' expiry jobs find them closed and do nothing.
    t.clock.advance(120 * 60_000);
    await t.app.services.jobs.runDue();
    expect(await entryStatuses()).toEqual(['CLOSED', 'CLOSED', 'CLOSED', 'CLOSED', 'LEFT']);
  });

  it('moving closesAt later makes the first job do nothing; the default (the event’s start here) closes it', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey, { ...settings, closesAt: iso(HOUR) });
    await join(tokens.a);
    // Moved to the default: no transfer cut-off, so the event's start, 10 days on.
    await turnOn(apiKey);
    t.clock.advance(HOUR);
    await t.app.services.jobs.runDue();
    expect(await entryStatuses()).toEqual(['WAITING']);
    expect(await join(tokens.b)).toMatchObject({ status: 'WAITING', position: 2 });
    t.clock.advance(10 * DAY - HOUR);
    await t.app.services.jobs.runDue();
    expect(await entryStatuses()).toEqual(['CLOSED', 'CLOSED']);
  });

  it("the default close follows the event's transfer cut-off when the organiser changes it; the returned ticket admits again", async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    await join(tokens.a, 1, 'vip');
    await giveBack(tokens.h, 't1');
    const event = (transfersCloseAt: string) =>
      call(apiKey, 'PUT', '/v1/org/events/evt-1', { ...harbourLights(), transfersCloseAt });
    // The cut-off set at 1 day, then moved to 2 days: the first close does nothing, the second closes.
    expect((await event(iso(DAY))).statusCode).toBe(200);
    expect((await event(iso(2 * DAY))).statusCode).toBe(200);
    await t.app.services.jobs.runDue();
    t.clock.advance(DAY);
    await t.app.services.jobs.runDue();
    expect(await entryStatuses()).toEqual(['WAITING']);
    expect(await unitStatuses()).toEqual(['AVAILABLE']);
    t.clock.advance(DAY);
    await t.app.services.jobs.runDue();
    expect(await entryStatuses()).toEqual(['CLOSED']);
    expect(await unitStatuses()).toEqual(['WITHDRAWN']);
    const [mine] = (await call(tokens.h, 'GET', '/v1/list/ticket_listing?status=UPCOMING')).json<MyTicket[]>();
    expect(mine.isReturnedToExchange).toBe(false);

    // The cut-off put back in the future opens the queue again: a new entry waits; the closed one stays closed.
    expect((await event(iso(DAY))).statusCode).toBe(200);
    await t.app.services.jobs.runDue();
    expect(await join(tokens.b, 1, 'vip')).toMatchObject({ status: 'WAITING' });
    expect(await entryStatuses()).toEqual(['CLOSED', 'WAITING']);
    t.clock.advance(DAY);
    await t.app.services.jobs.runDue();
    expect(await entryStatuses()).toEqual(['CLOSED', 'CLOSED']);

    // The same through the settings: a closing time typed in the past closes at once; put right, it opens again.
    await turnOn(apiKey, { ...settings, closesAt: iso(HOUR) });
    await join(tokens.c, 1, 'vip');
    await turnOn(apiKey, { ...settings, closesAt: iso(-HOUR) });
    await t.app.services.jobs.runDue();
    expect(await entryStatuses()).toEqual(['CLOSED', 'CLOSED', 'CLOSED']);
    await turnOn(apiKey, { ...settings, closesAt: iso(HOUR) });
    expect(await join(tokens.d, 1, 'vip')).toMatchObject({ status: 'WAITING' });
  });
});

describe('the draw (exchange.draw)', () => {
  beforeEach(async () => {
    fixture = await setUp();
  });

  it('drawOrder: the same seed gives the same order, another seed another, every item once', () => {
    const ids = Array.from({ length: 12 }, (_, i) => i + 1);
    const first = drawOrder(ids, 'a1b2c3');
    expect(drawOrder(ids, 'a1b2c3')).toEqual(first);
    expect([...first].sort((x, y) => x - y)).toEqual(ids);
    expect(drawOrder(ids, 'ffee00')).not.toEqual(first);
    expect(first).not.toEqual(ids);
  });

  it('entries before drawAt wait in the draw; at drawAt they are ordered by the seeded shuffle, a later one after them, then matched', async () => {
    const { apiKey, tokens } = fixture;
    const drawAt = iso(HOUR);
    await turnOn(apiKey, { ...settings, order: 'draw', drawAt });
    const fans = [tokens.a, tokens.b, tokens.c, tokens.d];
    const entries: Entry[] = [];
    for (const fan of fans) entries.push(await join(fan));
    expect(entries.map((e) => [e.position, e.inDraw])).toEqual(fans.map(() => [null, true]));
    // Supply before the draw waits for it: no entry has a place yet.
    expect((await release(apiKey, 1)).json()).toEqual({ released: 1, offered: 0 });

    // Joined after drawAt, before the job ran: it waits too, and comes after every drawn entry. The job is held back
    // while the late fan joins (the app's own worker, woken by the test's earlier requests, would otherwise run it
    // as soon as the clock passes drawAt: it did, on a loaded machine), then put back and run.
    await rawQuery(t.database.db, `update jobs set run_at = run_at + interval '1 day' where kind = 'exchange.draw'`);
    t.clock.advance(HOUR);
    const late = await join(tokens.h2);
    expect(late).toMatchObject({ position: null, inDraw: true });
    await rawQuery(t.database.db, `update jobs set run_at = run_at - interval '1 day' where kind = 'exchange.draw'`);
    await t.app.services.jobs.runDue();

    const seed = (await rawQuery<{ draw_seed: string }>(t.database.db, `select draw_seed from exchange_settings`))
      .rows[0].draw_seed;
    expect(seed).toMatch(/^[0-9a-f]{32}$/);
    const expected = drawOrder(
      entries.map((e) => e.id),
      seed,
    );
    const positions = async () => {
      const all = await Promise.all([...fans, tokens.h2].map(async (fan) => (await mine(fan))[0]));
      return all.sort((x, y) => x.position! - y.position!).map((e) => e.id);
    };
    expect(await positions()).toEqual([...expected, late.id]);
    // Then matched: the released ticket went to the first drawn.
    const first = (await Promise.all(fans.map(async (fan) => (await mine(fan))[0]))).find((e) => e.position === 1)!;
    expect(first).toMatchObject({ id: expected[0], status: 'OFFERED', inDraw: false });

    // Run again from scratch (the order, the offer and drawnAt taken away): the same order, the same offer.
    await rawQuery(
      t.database.db,
      `update exchange_entries set seq = null, status = 'WAITING', offered_at = null, expires_at = null`,
    );
    await rawQuery(t.database.db, `update exchange_units set status = 'AVAILABLE', entry_id = null`);
    await rawQuery(t.database.db, `update exchange_settings set drawn_at = null`);
    const payload = { eventId: await eventIdOf(), at: new Date(drawAt).toISOString() };
    await createExchangeSchedule({
      database: t.database,
      now: t.clock.now,
      notices: exchangeNotices(t.config.publicUrl),
    }).draw(payload);
    expect(await positions()).toEqual([...expected, late.id]);
    expect((await mine(fans[entries.findIndex((e) => e.id === expected[0])]))[0].status).toBe('OFFERED');
    // A second run of the job itself changes nothing once drawn.
    const seqs = async () =>
      (await rawQuery<{ seq: string }>(t.database.db, `select seq::text from exchange_entries order by id`)).rows;
    const before = await seqs();
    await createExchangeSchedule({
      database: t.database,
      now: t.clock.now,
      notices: exchangeNotices(t.config.publicUrl),
    }).draw(payload);
    expect(await seqs()).toEqual(before);
  });
});

describe('a draw called off', () => {
  it('entries waiting for a draw take their places by join order when the queue turns first come', async () => {
    const { apiKey, tokens } = await setUp();
    await turnOn(apiKey, { ...settings, order: 'draw', drawAt: iso(HOUR) });
    await join(tokens.a);
    await join(tokens.b);
    expect(await state(tokens.a)).toEqual({ status: 'WAITING', position: null });
    await turnOn(apiKey, { ...settings, offerMinutes: 120 });
    expect([await state(tokens.a), await state(tokens.b)]).toEqual([
      { status: 'WAITING', position: 1 },
      { status: 'WAITING', position: 2 },
    ]);
    await release(apiKey, 1);
    expect(await state(tokens.a)).toEqual({ status: 'OFFERED', position: 1 });
    // The draw job at the old drawAt finds no draw to run.
    t.clock.advance(HOUR);
    await t.app.services.jobs.runDue();
    expect(await state(tokens.b)).toEqual({ status: 'WAITING', position: 2 });
  });
});

describe('limits', () => {
  it('changes are limited per account; the control, another account from the same address, still joins', async () => {
    const { apiKey, tokens } = await setUp({ config: { exchangePerUserPerMinute: 2, exchangePerIpPerMinute: 100 } });
    await turnOn(apiKey);
    const a = await join(tokens.a);
    expect((await call(tokens.a, 'DELETE', `/v1/exchange/entries/${a.id}`)).statusCode).toBe(204);
    const third = await call(tokens.a, 'POST', `${EXCHANGE}/entries`, { ticketTypeExternalId: 'ga', quantity: 1 });
    expect(third.statusCode).toBe(429);
    await join(tokens.b);
  });

  it('and per address: the fourth account from one address is refused, each having made one change', async () => {
    const { apiKey, tokens } = await setUp({ config: { exchangePerUserPerMinute: 100, exchangePerIpPerMinute: 3 } });
    await turnOn(apiKey);
    for (const fan of [tokens.a, tokens.b, tokens.c]) await join(fan);
    const fourth = await call(tokens.d, 'POST', `${EXCHANGE}/entries`, { ticketTypeExternalId: 'ga', quantity: 1 });
    expect(fourth.statusCode).toBe(429);
  });
});

describe('what the queue tells people: e-mails and webhooks (decision 042 "Offers end")', () => {
  /** Mails sent before the test's own steps (the set-up's sign-in codes). */
  let setUpMails = 0;
  beforeEach(async () => {
    fixture = await setUp();
    setUpMails = t.mail.sent.length;
  });

  /** A webhook endpoint of the organisation subscribed to the exchange's events. */
  const subscribe = async (apiKey: string) => {
    const r = await call(apiKey, 'POST', '/v1/org/webhooks', {
      url: 'https://hooks.example.com/exchange',
      events: ['exchange.offered', 'exchange.expired', 'exchange.closed'],
    });
    expect(r.statusCode, r.body).toBe(201);
  };
  /** The exchange events queued for the organisation, in order, as their `{ type, data }`. */
  const hooks = async () =>
    (
      await rawQuery<{ payload: string }>(
        t.database.db,
        `select payload from webhook_deliveries where event_type like 'exchange.%' order by id`,
      )
    ).rows.map((r) => {
      const { type, data } = JSON.parse(r.payload) as { type: string; data: Record<string, unknown> };
      return { type, data };
    });
  const mailsTo = (who: string) => t.mail.sent.slice(setUpMails).filter((m) => m.to === `${who}@example.com`);
  const setLocale = (who: string, locale: string) =>
    rawQuery(t.database.db, `update users set locale = '${locale}' where email = '${who}@example.com'`);

  it("an offer mails the fan in their language (date, venue, total, held until) and is exchange.offered, with no fan's data", async () => {
    const { apiKey, tokens } = fixture;
    await subscribe(apiKey);
    await setLocale('a', 'es');
    await turnOn(apiKey);
    const a = await join(tokens.a, 2);
    await giveBack(tokens.h, 't1');
    expect(mailsTo('a')).toHaveLength(0);
    expect(await hooks()).toEqual([]);
    await giveBack(tokens.h, 't2');
    // Queued by the return's own transaction and sent by the next run of the jobs (after each request here).
    const [mail] = mailsTo('a');
    expect(mail.subject).toBe('Tienes 2 entradas reservadas para Harbour Lights');
    const expiresAt = (await mine(tokens.a))[0].offer!.expiresAt;
    expect(mail.text).toContain(
      'Te ha llegado el turno en la cola de intercambio: tienes 2 entradas «GA» para Harbour Lights',
    );
    expect(mail.text).toContain('Total a precio original: 180,00');
    expect(mail.text).toContain('The Domain');
    expect(mail.text).toContain('PANEL_TAB=MY_TICKET');
    expect(mail.text).toContain('org=acme');
    expect(mail.text).not.toContain('h@example.com');
    expect(await hooks()).toEqual([
      {
        type: 'exchange.offered',
        data: {
          eventExternalId: 'evt-1',
          ticketTypeExternalId: 'ga',
          entryId: a.id,
          quantity: 2,
          expiresAt,
          amountCents: 18000,
          currencyCode: 'AUD',
        },
      },
    ]);
    const payloads = (await rawQuery<{ payload: string }>(t.database.db, 'select payload from webhook_deliveries'))
      .rows;
    expect(JSON.stringify(payloads)).not.toMatch(/@example\.com/);
  });

  it('declined and left: exchange.expired with that reason and no mail; expired by the job: the fan is mailed too', async () => {
    const { apiKey, tokens } = fixture;
    await subscribe(apiKey);
    await turnOn(apiKey);
    const a = await join(tokens.a);
    const b = await join(tokens.b);
    const c = await join(tokens.c);
    await release(apiKey, 1);
    expect((await call(tokens.a, 'POST', `/v1/exchange/entries/${a.id}/decline`)).statusCode).toBe(204);
    t.clock.advance(20 * 60_000);
    await t.app.services.jobs.runDue();
    expect((await call(tokens.c, 'DELETE', `/v1/exchange/entries/${c.id}`)).statusCode).toBe(204);
    const ended = (await hooks()).filter((h) => h.type === 'exchange.expired').map((h) => h.data);
    expect(ended).toEqual([
      { eventExternalId: 'evt-1', ticketTypeExternalId: 'ga', entryId: a.id, quantity: 1, reason: 'declined' },
      { eventExternalId: 'evt-1', ticketTypeExternalId: 'ga', entryId: b.id, quantity: 1, reason: 'expired' },
      { eventExternalId: 'evt-1', ticketTypeExternalId: 'ga', entryId: c.id, quantity: 1, reason: 'left' },
    ]);
    expect((await hooks()).filter((h) => h.type === 'exchange.offered').map((h) => h.data.entryId)).toEqual([
      a.id,
      b.id,
      c.id,
    ]);
    // Each fan had the offer's mail; only b, whose offer ran out, is told it went on.
    const subjects = (who: string) => mailsTo(who).map((m) => m.subject);
    expect(subjects('a')).toEqual(['A ticket for Harbour Lights is held for you']);
    expect(subjects('b')).toEqual([
      'A ticket for Harbour Lights is held for you',
      'Your held tickets for Harbour Lights went to the next fan',
    ]);
    expect(mailsTo('b')[1].text).toContain('You were not charged.');
    expect(subjects('c')).toEqual(['A ticket for Harbour Lights is held for you']);
    // A waiting entry that leaves had no offer: nothing is said (two wanted, one free: d waits).
    const d = await join(tokens.d, 2);
    expect(d.status).toBe('WAITING');
    expect((await call(tokens.d, 'DELETE', `/v1/exchange/entries/${d.id}`)).statusCode).toBe(204);
    expect((await hooks()).filter((h) => h.type === 'exchange.expired')).toHaveLength(3);
  });

  it('at closesAt each waiting or offered fan is told in their language and the organisation gets exchange.closed', async () => {
    const { apiKey, tokens } = fixture;
    await subscribe(apiKey);
    await setLocale('b', 'es');
    await turnOn(apiKey, { ...settings, offerMinutes: 120, closesAt: iso(HOUR) });
    await join(tokens.a);
    await join(tokens.b, 2);
    await giveBack(tokens.h, 't1');
    const left = await join(tokens.c);
    expect((await call(tokens.c, 'DELETE', `/v1/exchange/entries/${left.id}`)).statusCode).toBe(204);
    t.clock.advance(HOUR);
    // The close job, then the mails it queued: each lane claims once per run, the lanes side by side, so on
    // PostgreSQL the mail lane may have claimed before the close committed.
    await t.app.services.jobs.runDue();
    await t.app.services.jobs.runDue();
    expect(mailsTo('a').map((m) => m.subject)).toEqual([
      'A ticket for Harbour Lights is held for you',
      'The exchange queue for Harbour Lights has closed',
    ]);
    expect(mailsTo('b').map((m) => m.subject)).toEqual(['La cola de intercambio de Harbour Lights se ha cerrado']);
    expect(mailsTo('c')).toHaveLength(0);
    expect((await hooks()).at(-1)).toEqual({
      type: 'exchange.closed',
      data: { eventExternalId: 'evt-1', entriesClosed: 2, ticketsWithdrawn: 1 },
    });
  });
});

describe('an offer is paid (decision 042 "As built (checkout)")', () => {
  let setUpMails = 0;
  beforeEach(async () => {
    fixture = await setUp();
    setUpMails = t.mail.sent.length;
  });
  const checkout = (token: string, id: number) => call(token, 'POST', `/v1/exchange/entries/${id}/checkout`);
  const orderOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;
  const pay = (orderId: string) => t.app.inject({ method: 'POST', url: `/exchange/checkout/${orderId}` });
  const holderOf = async (externalId: string) =>
    (
      await rawQuery<{ email: string }>(
        t.database.db,
        `select u.email from user_tickets t join users u on u.id = t.holder_id where t.external_id = '${externalId}'`,
      )
    ).rows[0]?.email;
  const payoutRows = async () =>
    (
      await rawQuery<{ email: string; amount_cents: number; status: string; unit: number | null }>(
        t.database.db,
        `select u.email, p.amount_cents, p.status, p.exchange_unit_id as unit from payouts p
           join users u on u.id = p.seller_id order by p.id`,
      )
    ).rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents) }));
  const soldHooks = async () =>
    (
      await rawQuery<{ payload: string }>(
        t.database.db,
        `select payload from webhook_deliveries where event_type = 'exchange.sold' order by id`,
      )
    ).rows.map((r) => (JSON.parse(r.payload) as { data: Record<string, unknown> }).data);
  const mailsTo = (who: string) => t.mail.sent.slice(setUpMails).filter((m) => m.to === `${who}@example.com`);

  it("paid: the returned ticket is the fan's, the seller is owed its face value, both are told, exchange.sold; nothing moves twice", async () => {
    const { apiKey, tokens } = fixture;
    const hook = await call(apiKey, 'POST', '/v1/org/webhooks', {
      url: 'https://hooks.example.com/exchange',
      events: ['exchange.sold'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    await turnOn(apiKey);
    const a = await join(tokens.a);
    await giveBack(tokens.h, 't1');
    expect(await state(tokens.a)).toEqual({ status: 'OFFERED', position: 1 });
    // Only the fan's own entry opens a checkout; the same page for a second click.
    expect((await checkout(tokens.b, a.id)).statusCode).toBe(404);
    const first = await checkout(tokens.a, a.id);
    expect(first.statusCode, first.body).toBe(200);
    const { checkoutUrl } = first.json<exchange.ExchangeCheckout>();
    expect(checkoutUrl).toMatch(/^http:\/\/panel\.test\/exchange\/checkout\/[0-9a-f-]{36}$/);
    expect((await checkout(tokens.a, a.id)).json()).toEqual({ checkoutUrl });
    const orderId = orderOf(checkoutUrl);
    const page = await t.app.inject({ method: 'GET', url: `/exchange/checkout/${orderId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Harbour Lights');
    expect(page.body).toContain(`action="/exchange/checkout/${orderId}?lang=en"`);
    expect(page.body).toMatch(/90\.00/);
    expect(await holderOf('t1')).toBe('h@example.com');

    const paid = await pay(orderId);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toContain('PANEL_TAB=MY_TICKET');
    expect(await holderOf('t1')).toBe('a@example.com');
    expect((await mine(tokens.a))[0]).toMatchObject({ status: 'PURCHASED', offer: null, position: null });
    expect(await unitStatuses()).toEqual(['SOLD']);
    expect(await payoutRows()).toEqual([
      { email: 'h@example.com', amount_cents: 9000, status: 'PENDING', unit: expect.any(Number) as number },
    ]);
    const earnings = (await call(tokens.h, 'GET', '/v1/resell/earnings')).json<{ orderId: string }[]>();
    expect(earnings).toMatchObject([{ orderId, name: 'Harbour Lights · GA', quantity: 1, amountCents: 9000 }]);
    // The ticket admits again, now the fan's: no longer returned, it moves by the fan's will only.
    expect((await call(tokens.a, 'GET', `/v1/exchange/returns/${await ticketId('t1')}`)).json()).toMatchObject({
      status: null,
      returnable: true,
    });
    expect(mailsTo('a').map((m) => m.subject)).toEqual([
      'A ticket for Harbour Lights is held for you',
      'Your ticket for Harbour Lights from the exchange queue',
    ]);
    expect(mailsTo('a')[1].text).toContain('You paid A$90.00, the face value.');
    expect(mailsTo('h').map((m) => m.subject)).toEqual(['You sold a ticket for Harbour Lights']);
    expect(mailsTo('h')[0].text).toContain('1 ticket "GA" for Harbour Lights you returned to the exchange queue sold.');
    expect(await soldHooks()).toEqual([
      {
        eventExternalId: 'evt-1',
        ticketTypeExternalId: 'ga',
        entryId: a.id,
        quantity: 1,
        amountCents: 9000,
        currencyCode: 'AUD',
        userTicketIds: [await ticketId('t1')],
        released: 0,
      },
    ]);
    // Paying again, or opening the checkout again, changes nothing.
    expect((await pay(orderId)).statusCode).toBe(303);
    expect((await checkout(tokens.a, a.id)).json()).toEqual({ message: 'api.exchange.checkout.not_offered' });
    expect(await payoutRows()).toHaveLength(1);
    expect(await soldHooks()).toHaveLength(1);
  });

  it('a group of a return and a release: the return moves, the release is issued as a new ticket, one checkout of the total', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    const a = await join(tokens.a, 2);
    await giveBack(tokens.h, 't1');
    expect((await release(apiKey, 1, 8000)).statusCode).toBe(201);
    const r = await checkout(tokens.a, a.id);
    const orderId = orderOf(r.json<exchange.ExchangeCheckout>().checkoutUrl);
    const page = await t.app.inject({ method: 'GET', url: `/exchange/checkout/${orderId}` });
    expect(page.body).toMatch(/170\.00/);
    expect((await pay(orderId)).statusCode).toBe(303);
    const held = (
      await rawQuery<{ external_id: string | null }>(
        t.database.db,
        `select t.external_id from user_tickets t join users u on u.id = t.holder_id
          where u.email = 'a@example.com' order by t.id`,
      )
    ).rows.map((x) => x.external_id);
    expect(held).toEqual(['t1', null]);
    // The holder is owed the return, the organisation the release, each at its own price.
    expect((await payoutRows()).map((p) => [p.email, p.amount_cents])).toEqual([['h@example.com', 9000]]);
    expect(await unitStatuses()).toEqual(['SOLD', 'SOLD']);
    const owed = await call(apiKey, 'GET', '/v1/org/payouts');
    expect(owed.statusCode, owed.body).toBe(200);
    expect(owed.json()).toEqual([
      {
        id: expect.any(Number) as number,
        eventExternalId: 'evt-1',
        ticketTypeExternalId: 'ga',
        amountCents: 8000,
        currencyCode: 'AUD',
        soldAt: t.clock.now().toISOString(),
        status: 'PENDING',
      },
    ]);
    // Paid again, nothing more is owed.
    expect((await pay(orderId)).statusCode).toBe(303);
    expect((await call(apiKey, 'GET', '/v1/org/payouts')).json()).toHaveLength(1);
  });

  it('an offer that ended before the payment came is not settled; the checkout refuses it', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    const a = await join(tokens.a);
    await giveBack(tokens.h, 't1');
    const orderId = orderOf((await checkout(tokens.a, a.id)).json<exchange.ExchangeCheckout>().checkoutUrl);
    t.clock.advance(20 * 60_000);
    await t.app.services.jobs.runDue();
    expect(await state(tokens.a)).toEqual({ status: 'EXPIRED', position: null });
    expect((await pay(orderId)).statusCode).toBe(303);
    expect(await holderOf('t1')).toBe('h@example.com');
    expect(await unitStatuses()).toEqual(['AVAILABLE']);
    expect(await payoutRows()).toEqual([]);
    expect((await checkout(tokens.a, a.id)).json()).toEqual({ message: 'api.exchange.checkout.not_offered' });
  });

  it('the organiser cannot revoke or re-issue a returned ticket; one that changed anyway is not sold (audit 25, item 7)', async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    const a = await join(tokens.a);
    await giveBack(tokens.h, 't1');
    const revoke = await call(apiKey, 'DELETE', '/v1/org/tickets/t1');
    expect(revoke.statusCode).toBe(409);
    expect(revoke.json()).toMatchObject({ message: 'api.org.ticket_in_resale' });
    const reissue = await call(apiKey, 'PUT', '/v1/org/tickets/t1', {
      ticketTypeExternalId: 'ga',
      holderEmail: 'b@example.com',
    });
    expect(reissue.statusCode).toBe(409);
    expect(reissue.json()).toMatchObject({ message: 'api.org.ticket_in_resale' });
    expect(await holderOf('t1')).toBe('h@example.com');
    // A ticket revoked behind the rules' back (a direct write) is not sold: nothing moves, nobody is owed.
    const orderId = orderOf((await checkout(tokens.a, a.id)).json<exchange.ExchangeCheckout>().checkoutUrl);
    await rawQuery(t.database.db, `update user_tickets set revoked_at = now() where external_id = 't1'`);
    expect((await pay(orderId)).statusCode).toBe(303);
    expect(await holderOf('t1')).toBe('h@example.com');
    expect(await payoutRows()).toEqual([]);
    expect((await mine(tokens.a))[0]).toMatchObject({ status: 'OFFERED' });
  });

  it("the provider's report pays only the order's own session, amount and currency", async () => {
    const { apiKey, tokens } = fixture;
    await turnOn(apiKey);
    const a = await join(tokens.a);
    await giveBack(tokens.h, 't1');
    const orderId = orderOf((await checkout(tokens.a, a.id)).json<exchange.ExchangeCheckout>().checkoutUrl);
    const offers = createExchangeCheckout({
      database: t.database,
      now: () => t.clock.now(),
      notices: exchangeNotices('http://panel.test'),
      payouts: createSandboxPayouts('http://panel.test'),
      publicUrl: 'http://panel.test',
    });
    const genuine = { sessionId: `sbx_cs_${orderId}`, amountTotalCents: 9000, currencyCode: 'AUD', paid: true };
    for (const [payment, reason] of [
      [{ ...genuine, paid: false }, 'not_paid'],
      [{ ...genuine, sessionId: 'cs_someone_elses' }, 'session'],
      [{ ...genuine, amountTotalCents: 1 }, 'amount'],
      [{ ...genuine, currencyCode: 'NZD' }, 'currency'],
    ] as const) {
      expect(await offers.settle(orderId, payment)).toEqual({ status: 'mismatch', reason });
      expect(await holderOf('t1')).toBe('h@example.com');
    }
    expect(await offers.settle(randomUUID(), genuine)).toEqual({ status: 'unknown' });
    expect(await offers.settle(orderId, { ...genuine, currencyCode: 'aud' })).toMatchObject({ status: 'paid' });
    expect(await holderOf('t1')).toBe('a@example.com');
    expect(await offers.settle(orderId, genuine)).toEqual({ status: 'already' });
  });
});
