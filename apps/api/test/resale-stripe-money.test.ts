/**
 * Money checks in Stripe mode (issue 14, item 1), through the real `stripe` SDK against the local fake:
 * an idempotency key is bound to the purchase request it was first used for (listing, quantity, amount,
 * currency, buyer) and its reuse with other parameters answers 422; the webhook pays an order only when
 * the session, amount and currency are the order's.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { sql as drizzleSql } from 'drizzle-orm';
import { createStripePayouts } from '../src/providers/payouts/stripe-payouts.js';
import { bearer, createTestApp, type TestApp } from './helper.js';
import { startStripeFake } from './stripe-fake.js';

const WEBHOOK_SECRET = 'whsec_test_money';
let fake: Awaited<ReturnType<typeof startStripeFake>>;
let t: TestApp;
let alice: string;
let bob: string;
let events = 0;

beforeAll(async () => {
  fake = await startStripeFake();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  const payouts = createStripePayouts({
    secretKey: 'sk_test_money',
    webhookSecret: WEBHOOK_SECRET,
    apiUrl: fake.apiUrl,
  });
  t = await createTestApp({ seed: true, payouts, logs: true });
  alice = (await t.signIn('alice@example.com')).accessToken;
  bob = (await t.signIn('bob@example.com')).accessToken;
});
afterEach(async () => {
  await t.close();
});

type Row = Record<string, unknown>;
const sql = async <T extends Row>(query: string): Promise<T[]> => {
  const result: unknown = await t.database.db.execute(drizzleSql.raw(query));
  return (result as { rows: T[] }).rows;
};

const webhook = (type: string, object: object) =>
  signed(JSON.stringify({ id: `evt_money_${++events}`, object: 'event', type, data: { object } }));
/** POST of `payload` to the webhook, signed with the test's secret. */
const signed = (payload: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/resell/stripe/webhook',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    },
    payload,
  });

/** Onboards a seller in Stripe mode: account created through the SDK, verified by a signed account.updated. */
async function verifySeller(token: string, email: string) {
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/resell/stripe-connect',
    headers: bearer(token),
    payload: { accountType: 'custom', country: 'AU' },
  });
  expect(r.statusCode).toBe(200);
  const [{ external_id }] = await sql<{ external_id: string }>(
    `select external_id from payout_accounts a join users u on u.id = a.user_id where u.email = '${email}'`,
  );
  const ok = await webhook('account.updated', {
    id: external_id,
    object: 'account',
    country: 'AU',
    charges_enabled: true,
    payouts_enabled: true,
  });
  expect(ok.statusCode).toBe(200);
}

type Available = { userTicketId: number; ticketName: string; currencyCode: string; currencySymbol: string };
/** Lists `amountCount` tickets of the holder's group whose name contains `name`, at `price` (major units). */
async function listAt(token: string, name: string, price: number, amountCount = 1): Promise<string> {
  const groups = (await t.app.inject({ url: '/v1/resell/tickets/available', headers: bearer(token) })).json<
    Available[]
  >();
  const a = groups.find((g) => g.ticketName.includes(name))!;
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/resell',
    headers: bearer(token),
    payload: { userTicketId: a.userTicketId, amountCount, price, currencyCode: a.currencyCode, currencySymbol: 'A$' },
  });
  expect(r.statusCode).toBe(200);
  return new URL(r.json<{ shareLinkUrl: string }>().shareLinkUrl).pathname;
}

const start = (path: string, p: { quantity: number; key: string; email?: string }) =>
  t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      quantity: String(p.quantity),
      email: p.email ?? 'mallory@example.com',
      idempotencyKey: p.key,
    }).toString(),
  });

const orderOfKey = async (key: string) =>
  (
    await sql<{ id: string; status: string; checkout_session_id: string; total_cents: number; quantity: number }>(
      `select id, status, checkout_session_id, total_cents, quantity from resale_orders where idempotency_key = '${key}'`,
    )
  )[0];
const sessionsFor = (orderId: string) =>
  fake.seen.filter((s) => s.path === '/v1/checkout/sessions' && s.body.get('metadata[orderId]') === orderId);
/** E-mails of the holders of the tickets of an order's listing (null: held by nobody, i.e. sold). */
const listingHolders = async (orderId: string) =>
  (
    await sql<{ email: string | null }>(
      `select u.email from resale_orders o join resale_listing_tickets rlt on rlt.listing_id = o.listing_id
       join user_tickets ut on ut.id = rlt.user_ticket_id left join users u on u.id = ut.holder_id
       where o.id = '${orderId}' order by ut.id`,
    )
  ).map((r) => r.email);
const completed = (session: { id: string; orderId: string; amount: number; currency: string }) =>
  webhook('checkout.session.completed', {
    id: session.id,
    object: 'checkout.session',
    metadata: { orderId: session.orderId },
    client_reference_id: session.orderId,
    amount_total: session.amount,
    currency: session.currency,
    payment_status: 'paid',
  });

describe('resale purchase in Stripe mode: idempotency keys and the webhook check money', () => {
  it('a key from an A$150 listing reused on an A$0.01 listing answers 422 and pays nothing', async () => {
    await verifySeller(alice, 'alice@example.com');
    await verifySeller(bob, 'bob@example.com');
    const dear = await listAt(alice, 'VIP', 150);
    const cheap = await listAt(bob, 'River Nights', 0.01);
    const key = crypto.randomUUID();

    const first = await start(dear, { quantity: 1, key });
    expect(first.statusCode).toBe(303);
    const order = await orderOfKey(key);
    expect(order).toMatchObject({ status: 'PENDING', total_cents: 16500 });

    const reused = await start(cheap, { quantity: 1, key });
    expect(reused.statusCode).toBe(422);
    expect(reused.body).not.toMatch(/checkout\.example/);
    // No checkout session was ever opened for that order at another price.
    const sessions = sessionsFor(order.id);
    expect(sessions.map((s) => s.body.get('line_items[0][price_data][unit_amount]'))).toEqual(['16500']);

    // Even a signed 1-cent payment of that order's own session does not pay it.
    expect(
      (await completed({ id: order.checkout_session_id, orderId: order.id, amount: 1, currency: 'aud' })).statusCode,
    ).toBe(200);
    expect((await orderOfKey(key)).status).toBe('PENDING');
    expect(await listingHolders(order.id)).toEqual(['alice@example.com']);
    expect(t.mail.sent.some((m) => m.to === 'mallory@example.com')).toBe(false);
  });

  it('a key reused with another quantity answers 422; paying one ticket never buys two', async () => {
    await verifySeller(alice, 'alice@example.com');
    // A second ticket of alice's VIP type, so that a listing of two exists.
    await sql(
      `insert into user_tickets (organisation_id, ticket_type_id, holder_id)
       select ut.organisation_id, ut.ticket_type_id, ut.holder_id from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id
       join users u on u.id = ut.holder_id where u.email = 'alice@example.com' and tt.name = 'VIP'
       and ut.event_access_used_at is null order by ut.id limit 1`,
    );
    const path = await listAt(alice, 'VIP', 150, 2);
    const key = crypto.randomUUID();
    expect((await start(path, { quantity: 2, key })).statusCode).toBe(303);
    const order = await orderOfKey(key);
    expect(order).toMatchObject({ quantity: 2, total_cents: 33000 });

    const reused = await start(path, { quantity: 1, key });
    expect(reused.statusCode).toBe(422);
    expect(sessionsFor(order.id).map((s) => s.body.get('line_items[0][quantity]'))).toEqual(['2']);
    // Another buyer e-mail under the same key is another request too.
    expect((await start(path, { quantity: 2, key, email: 'eve@example.com' })).statusCode).toBe(422);

    // The price of one ticket, on the order's own session, pays nothing.
    await completed({ id: order.checkout_session_id, orderId: order.id, amount: 16500, currency: 'aud' });
    expect((await orderOfKey(key)).status).toBe('PENDING');
    const sales = (await t.app.inject({ url: '/v1/resell/ticket/sales', headers: bearer(alice) })).json<
      { soldQuantity: number }[]
    >();
    expect(sales[0].soldQuantity).toBe(0);
    expect(await listingHolders(order.id)).toEqual(['alice@example.com', 'alice@example.com']);
  });

  it('a double submit reuses the order and its checkout session (same request, same key)', async () => {
    await verifySeller(alice, 'alice@example.com');
    const path = await listAt(alice, 'VIP', 150);
    const key = crypto.randomUUID();
    const [a, b] = await Promise.all([start(path, { quantity: 1, key }), start(path, { quantity: 1, key })]);
    expect([a.statusCode, b.statusCode]).toEqual([303, 303]);
    expect(a.headers.location).toBe(b.headers.location);
    const order = await orderOfKey(key);
    expect(a.headers.location).toContain(order.checkout_session_id);
  });

  it('a Stripe outage on Buy shows the buyer a page that says so, with Retry-After, and the listing stays on sale (issue 39, fifteenth re-run)', async () => {
    await verifySeller(alice, 'alice@example.com');
    const path = await listAt(alice, 'VIP', 150);
    fake.outage.status = 503;
    let r;
    try {
      r = await start(`${path}?lang=es`, { quantity: 1, key: 'outage-key-1' });
    } finally {
      fake.outage.status = null;
    }
    expect(r.statusCode).toBe(503);
    expect(r.headers['retry-after']).toBe('30');
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.body).toContain('El pago no está disponible en este momento');
    expect(r.body).not.toContain('ya no están disponibles');
    // The same key once Stripe is back: the same order, now with its checkout.
    const again = await start(path, { quantity: 1, key: 'outage-key-1' });
    expect(again.statusCode).toBe(303);
    expect((await orderOfKey('outage-key-1')).status).toBe('PENDING');
  });

  it("an answer to Buy that is not Stripe's (a gateway's JSON, an empty object) is an outage too: the page, 503, Retry-After (seventeenth re-run)", async () => {
    await verifySeller(alice, 'alice@example.com');
    const path = await listAt(alice, 'VIP', 150);
    for (const [status, body] of [
      [502, '{"message":"Internal server error"}'],
      [200, '{}'],
      [200, 'null'],
      [200, '"ok"'],
      [200, '\uFEFF\uFEFF\uFEFF"ok"'],
      [502, '{"error":"bad_gateway"}'],
    ] as const) {
      fake.outage.status = status;
      fake.outage.body = body;
      let r;
      try {
        r = await start(path, { quantity: 1, key: `not-stripe-${status}-${body}` });
      } finally {
        fake.outage.status = null;
        fake.outage.body = null;
      }
      expect(r.statusCode, r.body).toBe(503);
      expect(r.headers['retry-after']).toBe('30');
      expect(r.body).toContain('Payment is unavailable for a moment');
      expect((await orderOfKey(`not-stripe-${status}-${body}`)).checkout_session_id).toBeNull();
    }
  });

  it('the webhook pays only the session, amount and currency of the order', async () => {
    await verifySeller(alice, 'alice@example.com');
    const path = await listAt(alice, 'VIP', 150);
    const key = crypto.randomUUID();
    expect((await start(path, { quantity: 1, key, email: 'zed@example.com' })).statusCode).toBe(303);
    const order = await orderOfKey(key);
    const genuine = { id: order.checkout_session_id, orderId: order.id, amount: 16500, currency: 'aud' };
    const forged = [
      { f: { ...genuine, amount: 1 }, reason: 'amount' },
      { f: { ...genuine, currency: 'nzd' }, reason: 'currency' },
      { f: { ...genuine, id: 'cs_test_someone_elses' }, reason: 'session' },
    ];
    const reported = () => t.logs.filter((l) => l.msg === 'resale payment does not match its order: not paid');
    for (const { f, reason } of forged) {
      const res = await completed(f);
      expect(res.statusCode).toBe(200);
      expect((await orderOfKey(key)).status).toBe('PENDING');
      // Reported for someone to look at, on the line of the webhook's request (its id), with what did not match.
      expect(reported().at(-1)).toMatchObject({ reqId: res.headers['x-request-id'], orderId: order.id, reason });
    }
    const unpaid = await webhook('checkout.session.completed', {
      id: genuine.id,
      object: 'checkout.session',
      metadata: { orderId: order.id },
      amount_total: 16500,
      currency: 'aud',
      payment_status: 'unpaid',
    });
    expect(unpaid.statusCode).toBe(200);
    expect((await orderOfKey(key)).status).toBe('PENDING');

    expect(reported()).toHaveLength(4); // the three forged and the unpaid one
    // A session of no order of ours (not a UUID, as another app on the account would make): 200, ignored, said once;
    // it answered 500, which Stripe retries for days (issue 39, twenty-second re-run).
    for (const orderId of ['order-123', '42']) {
      const res = await completed({ ...genuine, orderId });
      expect(res.statusCode, res.body).toBe(200);
    }
    // A session naming no order at all (a payment link of the account, say): not ours either, and nothing to say.
    const bare = await webhook('checkout.session.completed', {
      id: 'cs_no_order',
      object: 'checkout.session',
      amount_total: genuine.amount,
      currency: genuine.currency,
      payment_status: 'paid',
    });
    expect(bare.statusCode).toBe(200);
    // What the operator reads: which event and which session (issue 43: the mutants that emptied the line lived).
    const ignored = t.logs.filter((l) => l.msg === 'checkout session of no order of ours: ignored');
    expect(ignored.map((l) => [typeof l.eventId, l.sessionId])).toEqual([
      ['string', genuine.id],
      ['string', genuine.id],
    ]);
    // Signed, but not as Stripe shapes them (twenty-third re-run): an order id that is an array holding the order's id,
    // an event without an id or with one of 300 KB, a payload that is not an object. Each twice, as Stripe retries:
    // 200 and nothing paid, never a 500.
    const arrayId = JSON.stringify({
      id: 'evt_array_order',
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: genuine.id,
          object: 'checkout.session',
          client_reference_id: [genuine.orderId],
          metadata: { orderId: [genuine.orderId] },
          amount_total: genuine.amount,
          currency: genuine.currency,
          payment_status: 'paid',
        },
      },
    });
    // The order's own id with a currency that is not text and an amount that is not a number (400 before).
    const oddFields = arrayId
      .replace(/\[("[^"]+")\]/g, '$1')
      .replace(`"currency":"${genuine.currency}"`, '"currency":{"code":"aud"}')
      .replace(`"amount_total":${genuine.amount}`, `"amount_total":"${genuine.amount}"`);
    expect(oddFields).toContain(`"metadata":{"orderId":"${genuine.orderId}"}`);
    for (const payload of [
      arrayId,
      oddFields.replace('evt_array_order', 'evt_odd_fields'),
      JSON.stringify({ object: 'event', type: 'payment_intent.created', data: { object: {} } }),
      JSON.stringify({
        id: 'e'.repeat(300_000),
        object: 'event',
        type: 'payment_intent.created',
        data: { object: {} },
      }),
      '42',
      '[]',
    ])
      for (const attempt of [1, 2]) {
        const res = await signed(payload);
        expect(res.statusCode, `${payload.slice(0, 40)} #${attempt}: ${res.body}`).toBe(200);
      }
    expect((await orderOfKey(key)).status).toBe('PENDING');
    // The four that are no Stripe event at all (no id, an id of 300 KB, a number, an array), each time: said, ignored.
    expect(t.logs.filter((l) => l.msg === 'signed Stripe event of no known shape: ignored')).toHaveLength(8);
    await completed(genuine);
    expect((await orderOfKey(key)).status).toBe('PAID');
    // The odd-fields event is reported once (its retry is the same event); a payment that matches is not reported.
    expect(reported()).toHaveLength(5);
    // The buyer's mail carries the resale code's PDF and the event's calendar file.
    const bought = t.mail.sent.find((m) => m.to === 'zed@example.com' && m.attachments?.length);
    expect(bought?.attachments?.map((a) => a.contentType)).toEqual([
      'application/pdf',
      expect.stringMatching(/^text\/calendar/),
    ]);
  });
});

describe('the checkout session and the events that settle it (issue 43: mutants the money runs let live)', () => {
  /** Bob lists two General Admission tickets at A$40 each (A$44 with the fee) in Stripe mode. */
  async function twoListed(): Promise<string> {
    await verifySeller(bob, 'bob@example.com');
    await sql(
      `insert into user_tickets (organisation_id, ticket_type_id, holder_id)
       select ut.organisation_id, ut.ticket_type_id, ut.holder_id from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id
       join users u on u.id = ut.holder_id join events e on e.id = tt.event_id where u.email = 'bob@example.com'
       and e.name = 'Laneway Sessions' and tt.name = 'General Admission' order by ut.id limit 1`,
    );
    return listAt(bob, 'Laneway Sessions · General Admission', 40, 2);
  }

  it('asks Stripe for one line of two at the price of one ticket, for the buyer, with the return pages and the order', async () => {
    const path = await twoListed();
    const key = crypto.randomUUID();
    const started = await start(`${path}?lang=es`, { quantity: 2, key, email: 'lu@example.com' });
    expect(started.statusCode).toBe(303);
    const order = await orderOfKey(key);
    expect(started.headers.location).toBe(`https://checkout.example/${order.checkout_session_id}`);
    const [session] = sessionsFor(order.id);
    expect(Object.fromEntries(session.body)).toEqual({
      mode: 'payment',
      customer_email: 'lu@example.com',
      success_url: `http://panel.test/resale/done/${order.id}?lang=es`,
      cancel_url: `http://panel.test${path}?lang=es`,
      'metadata[orderId]': order.id,
      // Carried to the payment, so its refund or dispute names the order (issue 46).
      'payment_intent_data[metadata][orderId]': order.id,
      client_reference_id: order.id,
      'line_items[0][quantity]': '2',
      'line_items[0][price_data][currency]': 'aud',
      'line_items[0][price_data][unit_amount]': '4400',
      'line_items[0][price_data][product_data][name]': 'Laneway Sessions - General Admission',
    });
    expect(session.idempotencyKey).toBe(`resale-checkout-${order.id}`);
  });

  it('pays an order a session names only by client_reference_id; a second event for a paid order changes nothing', async () => {
    const path = await twoListed();
    const key = crypto.randomUUID();
    await start(path, { quantity: 2, key, email: 'mo@example.com' });
    const order = await orderOfKey(key);
    const session = {
      id: order.checkout_session_id,
      object: 'checkout.session',
      client_reference_id: order.id,
      amount_total: 8800,
      currency: 'aud',
      payment_status: 'paid',
    };
    expect((await webhook('checkout.session.completed', session)).statusCode).toBe(200);
    expect((await orderOfKey(key)).status).toBe('PAID');
    expect(await listingHolders(order.id)).toEqual([null, null]);
    // Stripe sends the completion again under a new event id (or a second one for the same session).
    expect((await webhook('checkout.session.completed', session)).statusCode).toBe(200);
    expect((await orderOfKey(key)).status).toBe('PAID');
    expect(t.mail.sent.filter((m) => m.to === 'mo@example.com')).toHaveLength(1);
    // One sale owed to the seller, not two.
    const earnings = (await t.app.inject({ url: '/v1/resell/earnings', headers: bearer(bob) })).json<
      { quantity: number; amountCents: number }[]
    >();
    expect(earnings).toEqual([expect.objectContaining({ quantity: 2, amountCents: 8000 })]);
  });

  it('a completed session that does not say its amount or currency pays nothing', async () => {
    const path = await twoListed();
    const key = crypto.randomUUID();
    await start(path, { quantity: 2, key, email: 'ned@example.com' });
    const order = await orderOfKey(key);
    const base = { id: order.checkout_session_id, object: 'checkout.session', metadata: { orderId: order.id } };
    const paid = { payment_status: 'paid' };
    for (const [object, reason] of [
      [{ ...base, ...paid, currency: 'aud' }, 'amount'],
      [{ ...base, ...paid, amount_total: 8800 }, 'currency'],
    ] as const) {
      expect((await webhook('checkout.session.completed', object)).statusCode).toBe(200);
      expect((await orderOfKey(key)).status).toBe('PENDING');
      expect(t.logs.filter((l) => l.msg === 'resale payment does not match its order: not paid').at(-1)).toMatchObject({
        reason,
      });
    }
  });
});

describe('account.updated (issue 43: mutants the money runs let live)', () => {
  const externalId = async (email: string) =>
    (
      await sql<{ external_id: string; status: string; country: string | null; verified: boolean }>(
        `select external_id, status, country, verified_at is not null as verified from payout_accounts a join users u on u.id = a.user_id where u.email = '${email}'`,
      )
    )[0];
  const state = async () =>
    (await t.app.inject({ url: '/v1/resell/stripe', headers: bearer(alice) })).json<{ verified: boolean }>().verified;

  it('verifies an account only when Stripe allows both charges and payouts, in a country resale supports', async () => {
    const opened = await t.app.inject({
      method: 'POST',
      url: '/v1/resell/stripe-connect',
      headers: bearer(alice),
      payload: { accountType: 'custom' },
    });
    expect(opened.statusCode).toBe(200);
    // No country asked for: an Australian account.
    expect(
      fake.seen
        .filter((s) => s.path === '/v1/accounts')
        .at(-1)
        ?.body.get('country'),
    ).toBe('AU');
    const { external_id: id } = await externalId('alice@example.com');
    const updated = (object: object) => webhook('account.updated', { id, object: 'account', country: 'AU', ...object });
    await updated({ charges_enabled: true, payouts_enabled: false });
    expect(await state()).toBe(false);
    await updated({ charges_enabled: false, payouts_enabled: true });
    expect(await state()).toBe(false);
    await updated({ charges_enabled: true, payouts_enabled: true, country: 'US' });
    expect(await state()).toBe(false);
    expect(await externalId('alice@example.com')).toMatchObject({ status: 'PENDING', country: 'US', verified: false });
    // Stripe did not say the country: verified, country unknown.
    await updated({ charges_enabled: true, payouts_enabled: true, country: undefined });
    expect(await state()).toBe(true);
    expect(await externalId('alice@example.com')).toMatchObject({ status: 'VERIFIED', country: null, verified: true });
    await updated({ charges_enabled: true, payouts_enabled: true, country: 'NZ' });
    expect(await externalId('alice@example.com')).toMatchObject({ status: 'VERIFIED', country: 'NZ' });
  });
});
