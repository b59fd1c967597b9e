/** Resale rules, money, races, PDF and redeem (issue: resale end to end). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import type { Earning, MyTicket } from '@tp/contract';
import { resaleRepository } from '../src/modules/resale/resale.repository.js';
import { bearer, createTestApp, type TestApp, rawQuery, type ListingBody, type CreateResaleBody } from './helper.js';

let t: TestApp;
let alice: string;
let bob: string;
beforeEach(async () => {
  t = await createTestApp({ seed: true });
  alice = (await t.signIn('alice@example.com')).accessToken;
  bob = (await t.signIn('bob@example.com')).accessToken;
});
afterEach(async () => {
  await t.close();
});

type Available = {
  userTicketId: number;
  ticketId: number;
  ticketName: string;
  availableTicketCount: number;
  maxTicketPrice: number;
  currencyCode: string;
  currencySymbol: string;
};
const post = (token: string | null, url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...(token ? bearer(token) : {}), ...headers },
    payload: payload as object,
  });
const get = async <T = unknown>(token: string, url: string) =>
  (await t.app.inject({ url, headers: bearer(token) })).json<T>();
const verifyPayouts = async (token: string, country = 'AU') =>
  post(token, '/v1/resell/sandbox-onboarding', {
    country,
    firstName: 'A',
    lastName: 'B',
    birthdate: '1990-01-02',
    bankAccount: '062-000 12345678',
  });
const available = (token: string): Promise<Available[]> => get<Available[]>(token, '/v1/resell/tickets/available');
const list = (token: string, a: Available, price: number, amountCount = 1, headers: Record<string, string> = {}) =>
  post(
    token,
    '/v1/resell',
    {
      userTicketId: a.userTicketId,
      amountCount,
      price,
      currencyCode: a.currencyCode,
      currencySymbol: a.currencySymbol,
    },
    headers,
  );
const holders = async (ids: number[]) =>
  (
    await rawQuery<{ id: number; holder_id: number | null }>(
      t.database.db,
      `select id, holder_id from user_tickets where id in (${ids.join(',')}) order by id`,
    )
  ).rows;

/** Buys through the public pages: share link -> Buy -> sandbox checkout -> pay. Returns the code page. */
async function buy(
  shareLinkUrl: string,
  quantity = 1,
  email = 'buyer@example.com',
  idempotencyKey = crypto.randomUUID(),
) {
  const path = new URL(shareLinkUrl).pathname;
  const started = await t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ quantity: String(quantity), email, idempotencyKey }).toString(),
  });
  if (started.statusCode !== 303)
    return {
      status: started.statusCode,
      body: started.body,
      code: null as string | null,
      orderId: null as string | null,
    };
  const checkout = new URL(started.headers.location as string).pathname;
  const paid = await t.app.inject({
    method: 'POST',
    url: checkout,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  const code = /data-testid="resale-code">([^<]+)</.exec(paid.body)?.[1] ?? null;
  return { status: paid.statusCode, body: paid.body, code, orderId: checkout.split('/').pop()! };
}

describe('listing', () => {
  it('needs a verified payout account (no_stripe)', async () => {
    const [a] = await available(bob);
    const r = await list(bob, a, 50);
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual({ message: 'api.resell.create.no_stripe' });
  });

  it('offers only unused, resellable tickets of events not over, grouped by type', async () => {
    const rows = await available(alice);
    const names = rows.map((x) => x.ticketName);
    expect(rows.reduce((n, x) => n + x.availableTicketCount, 0)).toBe(4); // live one is used; past ones are over
    expect(names).toEqual([
      'Laneway Sessions · General Admission',
      'Laneway Sessions · VIP',
      'Aotearoa Sound · General Admission',
      'River Nights · VIP',
    ]);
    expect(rows[0]).toMatchObject({ currencyCode: 'AUD', currencySymbol: 'A$', maxTicketPrice: 141.9 });
  });

  it('price cap compared in cents: the cap passes, the cap plus one cent does not', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const over = await list(alice, a, a.maxTicketPrice + 0.01);
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ message: 'invalid_prices' });
    const calcOver = await post(alice, '/v1/resell/ticket/calculation', {
      selectedPrice: a.maxTicketPrice + 0.01,
      quantity: 1,
      ticketId: a.ticketId,
    });
    expect(calcOver.json()).toEqual({ message: 'invalid_prices' });
    const ok = await list(alice, a, a.maxTicketPrice);
    expect(ok.statusCode).toBe(200);
    expect(ok.json<CreateResaleBody>().shareLinkUrl).toMatch(/^http:\/\/panel\.test\/r\/[\w-]{16}$/);
  });

  it('computes the fee in cents (10 %, rounded) and the totals', async () => {
    const [a] = await available(alice);
    const r = await post(alice, '/v1/resell/ticket/calculation', {
      selectedPrice: 99.95,
      quantity: 3,
      ticketId: a.ticketId,
    });
    // 9995 cents -> fee 999.5 -> 1000 cents each
    expect(r.json()).toEqual({ basePrice: 299.85, serviceFee: 30, totalPrice: 329.85 });
    const missing = await post(alice, '/v1/resell/ticket/calculation', {
      selectedPrice: 1,
      quantity: 1,
      ticketId: 999999,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'api.resell.calculation.ticket_not_found' });
  });

  it('refuses a second listing of a listed ticket, allows re-listing after unlist', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    expect((await list(alice, a, 50)).statusCode).toBe(200);
    const again = await list(alice, a, 60);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'api.resell.create.already_listed' });
    const sales = await get<ListingBody[]>(alice, '/v1/resell/ticket/sales');
    expect(sales).toHaveLength(1);
    expect(sales[0]).toMatchObject({
      userTicketId: a.userTicketId,
      price: 50,
      currencySymbol: 'A$',
      soldDate: null,
      quantity: 1,
      serviceFee: 5,
      total: 55,
    });
    expect((await post(alice, '/v1/resell/unlist', { userTicketId: a.userTicketId })).statusCode).toBe(204);
    expect(await get(alice, '/v1/resell/ticket/sales')).toEqual([]);
    expect((await list(alice, a, 70)).statusCode).toBe(200);
  });

  it('a listed ticket cannot be gifted or swapped', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    await list(alice, a, 50);
    expect((await post(alice, '/v1/mobile/gift/verify', { userTicketId: a.userTicketId })).json()).toEqual({
      extras: { canBeGifted: false },
    });
    const swappable = await get<{ id: number }[]>(alice, '/v1/ticket_swap/tickets');
    expect(swappable.map((x) => x.id)).not.toContain(a.ticketId);
  });

  it('resale only for events in Australia and New Zealand, and payouts only there', async () => {
    await verifyPayouts(alice);
    await t.database.db.execute(`update events set country = 'US' where name = 'Laneway Sessions'`);
    const rows = await available(alice);
    expect(rows.map((x) => x.ticketName)).toEqual(['Aotearoa Sound · General Admission', 'River Nights · VIP']);
    const r = await verifyPayouts(bob, 'US');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ message: 'api.resell.not_supported_country' });
    expect((await post(bob, '/v1/resell/stripe-connect', { accountType: 'custom', country: 'GB' })).json()).toEqual({
      message: 'api.resell.not_supported_country',
    });
  });

  it('honours Idempotency-Key on listing', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const one = await list(alice, a, 50, 1, { 'idempotency-key': 'k-1' });
    const two = await list(alice, a, 50, 1, { 'idempotency-key': 'k-1' });
    expect(two.statusCode).toBe(200);
    expect(two.json()).toEqual(one.json());
    expect(await get(alice, '/v1/resell/ticket/sales')).toHaveLength(1);
    // The key with other parameters is another request: 422, as Stripe's API answers.
    const other = await list(alice, a, 60, 1, { 'idempotency-key': 'k-1' });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ message: 'api.idempotency_key_reused' });
  });

  it('the payout state: not started before onboarding, verified after; a read makes no session', async () => {
    expect(await get(bob, '/v1/resell/stripe')).toEqual({ clientSecret: '', started: false, verified: false });
    await verifyPayouts(bob);
    expect(await get(bob, '/v1/resell/stripe')).toEqual({ clientSecret: '', started: true, verified: true });
  });
});

describe('buying and redeeming', () => {
  it('sells through the share link: tickets leave the seller, a payout is owed, the PDF holds the code, redeem moves them', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const { shareLinkUrl } = (await list(alice, a, 80)).json<CreateResaleBody>();
    const page = await t.app.inject({ url: new URL(shareLinkUrl).pathname });
    expect(page.body).toContain('A$88.00');
    const bought = await buy(shareLinkUrl, 1, 'carol@example.com');
    expect(bought.status).toBe(200);
    expect(bought.code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect((await holders([a.userTicketId]))[0].holder_id).toBeNull();
    expect((await t.app.services.resale.orders.payoutsOf(1))[0]).toMatchObject({
      amountCents: 8000,
      currencyCode: 'AUD',
    });
    const sold = await get<ListingBody[]>(alice, '/v1/resell/tickets/sold');
    expect(sold[0].soldDate).not.toBeNull();
    // The e-mailed PDF holds the code.
    const mail = t.mail.sent.find((m) => m.to === 'carol@example.com' && m.attachments?.length)!;
    const pdf = await getDocumentProxy(new Uint8Array(mail.attachments![0].content));
    const { text } = await extractText(pdf, { mergePages: true });
    expect(text).toContain(bought.code!);
    // The confirmation page's PDF download works with the code only.
    const dl = await post(null, `/v1/resell/${bought.orderId}`, { code: bought.code });
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect((await post(null, `/v1/resell/${bought.orderId}`, { code: 'WRONG' })).statusCode).toBe(404);
    // Carol redeems.
    const carol = (await t.signIn('carol@example.com')).accessToken;
    const redeemed = await post(carol, `/v1/resell/redeem/${bought.code!.toLowerCase()}`, {});
    expect(redeemed.statusCode).toBe(200);
    expect(redeemed.json()).toMatchObject({ name: 'Laneway Sessions · General Admission' });
    const mine = await get<MyTicket[]>(carol, '/v1/list/ticket_listing?status=UPCOMING');
    expect(mine.map((x) => x.userTicketId)).toEqual([a.userTicketId]);
    const twice = await post(carol, `/v1/resell/redeem/${bought.code}`, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ message: 'api.resell.redeem.already_redeemed' });
    const unknown = await post(carol, '/v1/resell/redeem/AAAA-BBBB-CCCC-DDDD', {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'api.resell.redeem.invalid_code' });
  });

  it('two buyers for the last ticket: one purchase; the other is told and charged nothing', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const { shareLinkUrl } = (await list(alice, a, 50)).json<CreateResaleBody>();
    const path = new URL(shareLinkUrl).pathname;
    const start = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ quantity: '1', email, idempotencyKey: crypto.randomUUID() }).toString(),
      });
    const [s1, s2] = await Promise.all([start('x@example.com'), start('y@example.com')]);
    const pay = (r: typeof s1) =>
      t.app.inject({
        method: 'POST',
        url: new URL(r.headers.location as string).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
    const [p1, p2] = await Promise.all([pay(s1), pay(s2)]);
    expect([p1.statusCode, p2.statusCode].sort()).toEqual([200, 409]);
    const counts = await rawQuery<{ n: number }>(
      t.database.db,
      `select count(*)::int as n from resale_order_tickets where user_ticket_id = ${a.userTicketId}`,
    );
    expect(counts.rows[0].n).toBe(1);
    expect(await t.app.services.resale.orders.payoutsOf(1)).toHaveLength(1);
  });

  it("answers a buyer's mistake on the public pages with that page's message and the error's status, never a 500", async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const { shareLinkUrl } = (await list(alice, a, 50)).json<CreateResaleBody>();
    const path = new URL(shareLinkUrl).pathname;
    const submit = (url: string, quantity: number, idempotencyKey = crypto.randomUUID()) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          quantity: String(quantity),
          email: 'erin@example.com',
          idempotencyKey,
        }).toString(),
      });
    const page = (r: Awaited<ReturnType<typeof submit>>) => ({
      status: r.statusCode,
      type: r.headers['content-type'],
      heading: /<h1>([^<]*)<\/h1>/.exec(r.body)?.[1],
      message: /<p role="alert">([^<]*)<\/p>/.exec(r.body)?.[1],
    });
    const html = 'text/html; charset=utf-8';
    const key = crypto.randomUUID();
    expect((await submit(path, 1, key)).statusCode).toBe(303);
    expect(page(await submit(path, 2, key))).toEqual({
      status: 422,
      type: html,
      heading: 'Resale ticket',
      message: 'This purchase form was already used for another purchase. Reload the page and try again.',
    });
    expect(page(await submit('/r/no-such-listing', 1))).toEqual({
      status: 404,
      type: html,
      heading: 'Resale ticket',
      message: 'This listing does not exist.',
    });
    expect(page(await submit(path, 5))).toMatchObject({
      type: html,
      heading: 'Resale ticket',
      message: 'These tickets are no longer available.',
    });
    const noOrder = await t.app.inject({ method: 'POST', url: `/resale/checkout/${crypto.randomUUID()}`, payload: '' });
    expect(page(noOrder)).toEqual({
      status: 404,
      type: html,
      heading: 'Sandbox checkout',
      message: 'This listing does not exist.',
    });
  });

  it('honours the idempotency key of a purchase: a double submit makes one order, a replay after payment shows the done page', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const { shareLinkUrl } = (await list(alice, a, 50)).json<CreateResaleBody>();
    const path = new URL(shareLinkUrl).pathname;
    const key = crypto.randomUUID();
    const start = () =>
      t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ quantity: '1', email: 'dave@example.com', idempotencyKey: key }).toString(),
      });
    const [s1, s2] = await Promise.all([start(), start()]);
    expect([s1.statusCode, s2.statusCode]).toEqual([303, 303]);
    const orderOf = (r: typeof s1) => new URL(r.headers.location as string).pathname.split('/').pop();
    expect(orderOf(s1)).toBe(orderOf(s2));
    const orders = await rawQuery<{ n: number }>(
      t.database.db,
      `select count(*)::int as n from resale_orders where idempotency_key = '${key}'`,
    );
    expect(orders.rows[0].n).toBe(1);
    const paid = await t.app.inject({
      method: 'POST',
      url: new URL(s1.headers.location as string).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(paid.statusCode).toBe(200);
    const replay = await start();
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toContain(`/resale/done/${orderOf(s1)}`);
    expect(await t.app.services.resale.orders.payoutsOf(1)).toHaveLength(1);
  });

  it('the same code redeemed twice in parallel: one redemption', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const bought = await buy((await list(alice, a, 50)).json<CreateResaleBody>().shareLinkUrl);
    const r = await Promise.all([
      post(bob, `/v1/resell/redeem/${bought.code}`, {}),
      post(bob, `/v1/resell/redeem/${bought.code}`, {}),
      post(alice, `/v1/resell/redeem/${bought.code}`, {}),
    ]);
    expect(r.map((x) => x.statusCode).sort()).toEqual([200, 409, 409]);
    const [row] = await holders([a.userTicketId]);
    expect(row.holder_id).not.toBeNull();
  });

  it('the same ticket listed twice in parallel: one listing', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const r = await Promise.all(Array.from({ length: 6 }, () => list(alice, a, 50)));
    expect(r.filter((x) => x.statusCode === 200)).toHaveLength(1);
    expect(r.filter((x) => x.statusCode === 409)).toHaveLength(5);
    const n = await rawQuery<{ n: number }>(
      t.database.db,
      `select count(*)::int as n from resale_listing_tickets where user_ticket_id = ${a.userTicketId} and status = 'LISTED'`,
    );
    expect(n.rows[0].n).toBe(1);
  });

  it('partial sales: a listing of two sells one, stays listed with one left', async () => {
    await verifyPayouts(alice);
    await verifyPayouts(bob);
    const bobs = await available(bob);
    const ga = bobs[0];
    // Give bob a second ticket of the same type.
    await t.database.db.execute(
      `insert into user_tickets (organisation_id, ticket_type_id, holder_id) select organisation_id, ticket_type_id, holder_id from user_tickets where id = ${ga.userTicketId}` as never,
    );
    const twoAvail = (await available(bob))[0];
    expect(twoAvail.availableTicketCount).toBe(2);
    const { shareLinkUrl } = (await list(bob, twoAvail, 40, 2)).json<CreateResaleBody>();
    expect((await buy(shareLinkUrl, 1)).status).toBe(200);
    const sales = await get<ListingBody[]>(bob, '/v1/resell/ticket/sales');
    expect(sales[0]).toMatchObject({ quantity: 2, soldQuantity: 1 });
    expect(await get(bob, '/v1/resell/tickets/sold')).toHaveLength(1);
    const tooMany = await buy(shareLinkUrl, 2);
    expect(tooMany.status).toBe(409);
  });

  it('the ticket the user came from becomes the userTicketId of its group; listings are named "Event · Type"', async () => {
    await verifyPayouts(bob);
    const ga = (await available(bob))[0];
    const inserted = await rawQuery<{ id: number }>(
      t.database.db,
      `insert into user_tickets (organisation_id, ticket_type_id, holder_id) select organisation_id, ticket_type_id, holder_id from user_tickets where id = ${ga.userTicketId} returning id`,
    );
    const second = inserted.rows[0].id;
    expect((await available(bob))[0]).toMatchObject({ userTicketId: ga.userTicketId, availableTicketCount: 2 });
    const preferred = await get<Available[]>(bob, `/v1/resell/tickets/available?userTicketId=${second}`);
    expect(preferred[0]).toMatchObject({ userTicketId: second, ticketId: ga.ticketId, availableTicketCount: 2 });
    expect(preferred.slice(1)).toEqual((await available(bob)).slice(1));
    // A ticket that is not the caller's changes nothing.
    const alices = await available(alice);
    expect(await get(bob, `/v1/resell/tickets/available?userTicketId=${alices[0].userTicketId}`)).toEqual(
      await available(bob),
    );
    expect(
      (await t.app.inject({ url: '/v1/resell/tickets/available?userTicketId=abc', headers: bearer(bob) })).statusCode,
    ).toBe(400);
    // Listing from the preferred entry lists that very ticket; the listing carries the event's name.
    expect((await list(bob, preferred[0], 40, 1)).statusCode).toBe(200);
    const sales = await get<ListingBody[]>(bob, '/v1/resell/ticket/sales');
    expect(sales[0]).toMatchObject({ userTicketId: second, name: ga.ticketName, quantity: 1 });
    expect(ga.ticketName).toBe('Laneway Sessions · General Admission');
  });

  it("limits purchases started per address (issue 39): past the bound the page's own message, 429 and Retry-After; another address buys", async () => {
    await t.close();
    t = await createTestApp({ seed: true, config: { resaleBuysPerIpPerMinute: 3 } });
    alice = (await t.signIn('alice@example.com')).accessToken;
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const path = new URL((await list(alice, a, 50)).json<CreateResaleBody>().shareLinkUrl).pathname;
    const start = (remoteAddress: string, lang = 'en') =>
      t.app.inject({
        method: 'POST',
        url: `${path}?lang=${lang}`,
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          quantity: '1',
          email: 'loop@example.com',
          idempotencyKey: crypto.randomUUID(),
        }).toString(),
      });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await start('10.2.2.2')).statusCode);
    const over = await start('10.2.2.2');
    const overEs = await start('10.2.2.2', 'es');
    expect(statuses).toEqual([303, 303, 303]);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(over.body).toContain('Too many purchase attempts from your connection. Wait a minute and try again.');
    expect(overEs.statusCode).toBe(429);
    expect(overEs.body).toContain('Demasiados intentos de compra desde tu conexión.');
    // Refused before the order: the three started orders are all there are.
    const orders = await rawQuery<{ n: number }>(t.database.db, 'select count(*)::int as n from resale_orders');
    expect(orders.rows[0].n).toBe(3);
    expect((await start('10.2.2.3')).statusCode).toBe(303);
  });

  it('rate-limits redeem attempts', async () => {
    const statuses = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (
          await t.app.inject({
            method: 'POST',
            url: `/v1/resell/redeem/NOPE-${i}`,
            headers: bearer(bob),
            remoteAddress: '10.1.1.1',
          })
        ).statusCode,
      );
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe('the code PDF (issue 43: mutants the purchase test let live)', () => {
  it('is a paid order’s, for its code as typed (case and spaces ignored); no other order, id or status yields one', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const { shareLinkUrl } = (await list(alice, a, 30)).json<CreateResaleBody>();
    const bought = await buy(shareLinkUrl, 1, 'dana@example.com');
    const typed = `  ${bought.code!.toLowerCase()}  `;
    const dl = await post(null, `/v1/resell/${bought.orderId}`, { code: typed });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toMatch(/^attachment; filename=".+\.pdf"$/);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(dl.rawPayload)), { mergePages: true });
    expect(text).toContain(bought.code!); // the code as issued, upper case
    const invalid = { message: 'api.resell.redeem.invalid_code' };
    for (const orderId of ['not-a-uuid', crypto.randomUUID()]) {
      const r = await post(null, `/v1/resell/${orderId}`, { code: bought.code });
      expect([r.statusCode, r.json()]).toEqual([404, invalid]);
    }
    // The order no longer PAID (an operator's refund marks it FAILED): its code gives no PDF, though it still hashes.
    await rawQuery(t.database.db, `update resale_orders set status = 'FAILED' where id = '${bought.orderId}'`);
    const refunded = await post(null, `/v1/resell/${bought.orderId}`, { code: bought.code });
    expect([refunded.statusCode, refunded.json()]).toEqual([404, invalid]);
  });
});

describe('settling an order (issue 43: mutants the money runs let live)', () => {
  /** Gives bob a second ticket of his first resellable type and lists both at A$40 each; returns the share link. */
  async function listTwo(): Promise<string> {
    await verifyPayouts(bob);
    const [ga] = await available(bob);
    await rawQuery(
      t.database.db,
      `insert into user_tickets (organisation_id, ticket_type_id, holder_id) select organisation_id, ticket_type_id, holder_id from user_tickets where id = ${ga.userTicketId}`,
    );
    return (await list(bob, (await available(bob))[0], 40, 2)).json<CreateResaleBody>().shareLinkUrl;
  }
  const orderRow = async (orderId: string) =>
    (
      await rawQuery<{ status: string; quantity: number; total_cents: number; fee_cents: number; locale: string }>(
        t.database.db,
        `select status, quantity, total_cents, fee_cents, locale from resale_orders where id = '${orderId}'`,
      )
    ).rows[0];

  it('two tickets in one order: total, fee and payout are for both; both mails say two, with the amount owed', async () => {
    const shareLinkUrl = await listTwo();
    const bought = await buy(shareLinkUrl, 2, 'Fay@Example.com');
    expect(bought.status).toBe(200);
    // A$40 + A$4 fee per ticket; the seller is owed the price of both, not the fee.
    expect(await orderRow(bought.orderId!)).toEqual({
      status: 'PAID',
      quantity: 2,
      total_cents: 8800,
      fee_cents: 800,
      locale: 'en',
    });
    expect((await get<Earning[]>(bob, '/v1/resell/earnings'))[0]).toMatchObject({ quantity: 2, amountCents: 8000 });
    const notice = t.mail.sent.find((m) => m.to === 'bob@example.com' && m.subject.startsWith('You sold'))!;
    expect(notice.subject).toBe('You sold 2 tickets for Laneway Sessions');
    expect(notice.text).toContain('2 tickets "General Admission" for Laneway Sessions you listed for resale sold.');
    expect(notice.text).toContain('You will receive A$80.00 in your payout account.');
    // The notice links to the panel's payout tab, where the seller sees the account the money goes to.
    expect(notice.text).toMatch(/\/en\/\?org=[a-z-]+&PANEL_TAB=SETTINGS&SETTINGS_TAB=ACCOUNT_VERIFICATION/);
    const code = t.mail.sent.find((m) => m.to === 'fay@example.com')!;
    expect(code.subject).toBe('Your tickets for Laneway Sessions');
    expect(code.text).toContain('You bought 2 resale tickets for Laneway Sessions.');
    expect(code.attachments?.[0].filename).toMatch(/\.pdf$/);
    // The calendar entry is the order's own (its UID names the order).
    expect(code.attachments?.[1].content.toString()).toContain(`UID:order-${bought.orderId}@`);
    // Redeeming the code moves both tickets.
    const fay = (await t.signIn('fay@example.com')).accessToken;
    expect((await post(fay, `/v1/resell/redeem/${bought.code}`, {})).statusCode).toBe(200);
    expect(await get<MyTicket[]>(fay, '/v1/list/ticket_listing?status=UPCOMING')).toHaveLength(2);
  });

  it('paying a paid order again shows "already paid" and changes nothing: no second code, mail or payout', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const bought = await buy((await list(alice, a, 50)).json<CreateResaleBody>().shareLinkUrl, 1, 'gus@example.com');
    expect(bought.status).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: `/resale/checkout/${bought.orderId}`, payload: '' });
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('This order is already paid. Your code was e-mailed to you.');
    expect(again.body).not.toContain('data-testid="resale-code"');
    expect((await orderRow(bought.orderId!)).status).toBe('PAID');
    expect(t.mail.sent.filter((m) => m.to === 'gus@example.com')).toHaveLength(1);
    expect(await t.app.services.resale.orders.payoutsOf(1)).toHaveLength(1);
  });

  it('the seller unlists while the buyer is at the checkout: paying answers 409, the order FAILED, the seller keeps the ticket', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const path = new URL((await list(alice, a, 50)).json<CreateResaleBody>().shareLinkUrl).pathname;
    const started = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        quantity: '1',
        email: 'hal@example.com',
        idempotencyKey: crypto.randomUUID(),
      }).toString(),
    });
    const checkout = new URL(started.headers.location as string).pathname;
    expect((await post(alice, '/v1/resell/unlist', { userTicketId: a.userTicketId })).statusCode).toBe(204);
    const paid = await t.app.inject({ method: 'POST', url: checkout, payload: '' });
    expect(paid.statusCode).toBe(409);
    expect(paid.body).toContain('The tickets were sold to someone else before your payment went through.');
    expect((await orderRow(checkout.split('/').pop()!)).status).toBe('FAILED');
    expect((await holders([a.userTicketId]))[0].holder_id).not.toBeNull();
    expect(t.mail.sent.filter((m) => m.to === 'hal@example.com')).toHaveLength(0);
  });
});

describe('starting a purchase (issue 43: mutants the money runs let live)', () => {
  const start = (path: string, quantity: number, email: string, idempotencyKey: string, lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url: `${path}?lang=${lang}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ quantity: String(quantity), email, idempotencyKey }).toString(),
    });

  it('the same key and buyer e-mail in other letter case is the same purchase; the order keeps the page language', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const path = new URL((await list(alice, a, 50)).json<CreateResaleBody>().shareLinkUrl).pathname;
    const key = crypto.randomUUID();
    const first = await start(path, 1, 'ivy@example.com', key, 'es');
    expect(first.statusCode).toBe(303);
    const again = await start(path, 1, 'IVY@Example.COM', key, 'es');
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(first.headers.location);
    const orders = await rawQuery<{ locale: string }>(
      t.database.db,
      `select locale from resale_orders where idempotency_key = '${key}'`,
    );
    expect(orders.rows).toEqual([{ locale: 'es' }]);
  });

  /** Gives alice a second ticket of her first resellable type; answers the first one's availability. */
  async function twoOfOneType() {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    await rawQuery(
      t.database.db,
      `insert into user_tickets (organisation_id, ticket_type_id, holder_id) select organisation_id, ticket_type_id, holder_id from user_tickets where id = ${a.userTicketId}`,
    );
    return a;
  }
  const keyed = async (key: string) =>
    (
      await rawQuery<{ listing_id: number }>(
        t.database.db,
        `select listing_id from resale_orders where idempotency_key = '${key}'`,
      )
    ).rows;

  it('a key used on one listing and reused on another of the same price, quantity and buyer answers 422', async () => {
    const a = await twoOfOneType();
    const first = (await list(alice, a, 50)).json<CreateResaleBody>();
    const second = (await list(alice, (await available(alice))[0], 50)).json<CreateResaleBody>();
    expect(second.shareLinkUrl).not.toBe(first.shareLinkUrl);
    const key = crypto.randomUUID();
    expect((await start(new URL(first.shareLinkUrl).pathname, 1, 'lou@example.com', key)).statusCode).toBe(303);
    // Same total, currency, quantity and e-mail: only the listing differs, and the buyer must not be sent to pay
    // for the first one.
    const reused = await start(new URL(second.shareLinkUrl).pathname, 1, 'lou@example.com', key);
    expect(reused.statusCode).toBe(422);
    expect(await keyed(key)).toHaveLength(1);
  });

  it('an unlisted listing sells nothing: Buy answers 409 and makes no order', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const path = new URL((await list(alice, a, 50)).json<CreateResaleBody>().shareLinkUrl).pathname;
    expect((await post(alice, '/v1/resell/unlist', { userTicketId: a.userTicketId })).statusCode).toBe(204);
    const key = crypto.randomUUID();
    expect((await start(path, 1, 'mia@example.com', key)).statusCode).toBe(409);
    expect(await keyed(key)).toEqual([]);
  });

  it('a listing of two with one sold takes a purchase of one, not of two', async () => {
    const a = await twoOfOneType();
    const shareLinkUrl = (await list(alice, a, 40, 2)).json<CreateResaleBody>().shareLinkUrl;
    expect((await buy(shareLinkUrl, 1, 'ned@example.com')).status).toBe(200);
    const path = new URL(shareLinkUrl).pathname;
    const two = crypto.randomUUID();
    expect((await start(path, 2, 'ola@example.com', two)).statusCode).toBe(409);
    expect(await keyed(two)).toEqual([]);
    expect((await start(path, 1, 'ola@example.com', crypto.randomUUID())).statusCode).toBe(303);
  });

  it('a key another request took between the lookup and the insert, with other parameters, answers 422', async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const path = new URL((await list(alice, a, 50)).json<CreateResaleBody>().shareLinkUrl).pathname;
    const key = crypto.randomUUID();
    expect((await start(path, 1, 'jo@example.com', key)).statusCode).toBe(303);
    // The race: this request's lookup ran before the other request's insert, so it finds no order under the key
    // (the lookup's type, inferred from a destructured select, leaves out the `undefined` it answers then).
    const lookup = vi.spyOn(resaleRepository, 'orderByIdempotencyKey').mockResolvedValueOnce(undefined as never);
    const late = await start(path, 1, 'kim@example.com', key);
    lookup.mockRestore();
    expect(late.statusCode).toBe(422);
    const orders = await rawQuery<{ buyer_email: string }>(
      t.database.db,
      `select buyer_email from resale_orders where idempotency_key = '${key}'`,
    );
    expect(orders.rows).toEqual([{ buyer_email: 'jo@example.com' }]);
  });
});

describe('redeeming (issue 43: what session VI’s Stryker run let live)', () => {
  it("answers the tickets' title and logo: the type's own logo before the event's", async () => {
    await verifyPayouts(alice);
    const [a] = await available(alice);
    const bought = await buy((await list(alice, a, 50)).json<CreateResaleBody>().shareLinkUrl, 1, 'pia@example.com');
    // The seed gives Laneway Sessions' types a logo of their own; the event gets another.
    await rawQuery(
      t.database.db,
      `update events set logo = 'https://brand.example/event.png' where name = 'Laneway Sessions'`,
    );
    const pia = (await t.signIn('pia@example.com')).accessToken;
    const redeemed = await post(pia, `/v1/resell/redeem/${bought.code}`, {});
    expect(redeemed.json()).toEqual({
      name: 'Laneway Sessions · General Admission',
      logo: '/public/images/laneway-sessions-logo.svg',
    });
  });
});
