/**
 * Payments that do not match their order (issue 46, "Payments that go back"): a signed `checkout.session.completed`
 * whose amount, currency or session is not its order's, or that pays an exchange offer after it ended, is flagged for
 * the operator (a `payment_mismatches` row, once per event; `tp_payment_mismatches_total{reason}`), listed on
 * `GET /v1/admin/payments/mismatched`, and refunded (through Stripe, here the local fake) or settled by the platform
 * admin, once. The payout provider is the sandbox's (its onboarding and checkout pages, no Stripe account needed)
 * with Stripe's signed webhooks and refunds.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import type { exchange, payments } from '@tp/contract';
import { createSandboxPayouts, type PayoutProvider } from '../src/providers/payouts/payout.provider.js';
import { createStripePayouts } from '../src/providers/payouts/stripe-payouts.js';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';
import { startStripeFake } from './stripe-fake.js';

const ADMIN = 'admin-key-for-tests';
const WEBHOOK_SECRET = 'whsec_test_mismatch';
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const LOG_LINE = 'resale payment does not match its order: not paid';
let fake: Awaited<ReturnType<typeof startStripeFake>>;
let t: TestApp;
let apiKey: string;
let tokens: Record<'h' | 'a', string>;
let events = 0;

type Item = payments.PaymentMismatch;
type Page = payments.PaymentMismatchPage;

const SANDBOX_PAYOUT = {
  country: 'AU',
  firstName: 'A',
  lastName: 'B',
  birthdate: '1990-01-02',
  bankAccount: '062-000 12345678',
};

beforeAll(async () => {
  fake = await startStripeFake();
});
afterAll(async () => {
  await fake.close();
});

const call = (token: string | null, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
const iso = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();

/** Organisation acme with event evt-1 (type ga, A$90, resellable), tickets t1 and t2 of h; h may sell. */
beforeEach(async () => {
  fake.seen.length = 0;
  const stripe = createStripePayouts({
    secretKey: 'sk_test_mismatch',
    webhookSecret: WEBHOOK_SECRET,
    apiUrl: fake.apiUrl,
  });
  const payouts: PayoutProvider = {
    ...createSandboxPayouts('http://panel.test'),
    parseWebhook: (rawBody, signature) => stripe.parseWebhook(rawBody, signature),
    refund: (paymentIntentId, key) => stripe.refund(paymentIntentId, key),
  };
  t = await createTestApp({ payouts, logs: true, config: { adminKey: ADMIN } });
  const org = await call(ADMIN, 'POST', '/v1/admin/organisations', { slug: 'acme', name: 'Acme' });
  apiKey = org.json<{ apiKey: string }>().apiKey;
  expect((await call(apiKey, 'POST', '/v1/org/payout-account/sandbox-onboarding', SANDBOX_PAYOUT)).statusCode).toBe(
    204,
  );
  const put = async (path: string, payload: object) => {
    const r = await call(apiKey, 'PUT', `/v1/org/${path}`, payload);
    expect(r.statusCode, r.body).toBeLessThan(300);
  };
  await put('events/evt-1', {
    name: 'Harbour Lights',
    venue: 'The Domain',
    city: 'Sydney',
    country: 'AU',
    startsAt: iso(10 * DAY),
    endsAt: iso(10 * DAY + 8 * HOUR),
    timeZone: 'Australia/Sydney',
  });
  await put('ticket-types/ga', {
    eventExternalId: 'evt-1',
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
    name: 'GA',
    priceCents: 9000,
  });
  for (const n of [1, 2]) await put(`tickets/t${n}`, { ticketTypeExternalId: 'ga', holderEmail: 'h@example.com' });
  tokens = {
    h: (await t.signIn('h@example.com')).accessToken,
    a: (await t.signIn('a@example.com')).accessToken,
  };
  expect((await call(tokens.h, 'POST', '/v1/resell/sandbox-onboarding', SANDBOX_PAYOUT)).statusCode).toBeLessThan(300);
});
afterEach(async () => {
  await t.close();
});

/** Stripe's signed POST of `payload` to the webhook. */
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
/** A `checkout.session.completed` event's payload (paid unless said), with a new event id unless `id` is given. */
const completedEvent = (s: {
  sessionId: string;
  orderId: string;
  amount: number;
  currency?: string;
  paymentIntent?: string | null;
  id?: string;
}) =>
  JSON.stringify({
    id: s.id ?? `evt_mismatch_${++events}`,
    object: 'event',
    type: 'checkout.session.completed',
    data: {
      object: {
        id: s.sessionId,
        object: 'checkout.session',
        metadata: { orderId: s.orderId },
        amount_total: s.amount,
        currency: s.currency ?? 'aud',
        payment_status: 'paid',
        ...(s.paymentIntent === null ? {} : { payment_intent: s.paymentIntent ?? `pi_${events}` }),
      },
    },
  });

const admin = (method: 'GET' | 'POST', url: string) => call(ADMIN, method, `/v1/admin/payments/mismatched${url}`);
const listed = async (query = '') => {
  const r = await admin('GET', query);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<Page>();
};
const counted = async (reason: string) => {
  const line = (await t.app.metrics.registry.metrics())
    .split('\n')
    .find((l) => l.startsWith(`tp_payment_mismatches_total{reason="${reason}"} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
};
const rows = async () =>
  (await rawQuery<{ id: number }>(t.database.db, 'select id from payment_mismatches order by id')).rows;

/** h lists t1 (A$90) and `email` starts buying it: the resale order, PENDING, with its sandbox session. */
async function resaleOrder(email = 'buyer@example.com') {
  const groups = (await call(tokens.h, 'GET', '/v1/resell/tickets/available')).json<
    { userTicketId: number; currencyCode: string; currencySymbol: string }[]
  >();
  const listing = await call(tokens.h, 'POST', '/v1/resell', {
    userTicketId: groups[0].userTicketId,
    amountCount: 1,
    price: 90,
    currencyCode: groups[0].currencyCode,
    currencySymbol: groups[0].currencySymbol,
  });
  expect(listing.statusCode, listing.body).toBe(200);
  const started = await t.app.inject({
    method: 'POST',
    url: new URL(listing.json<{ shareLinkUrl: string }>().shareLinkUrl).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ quantity: '1', email, idempotencyKey: crypto.randomUUID() }).toString(),
  });
  expect(started.statusCode, started.body).toBe(303);
  const orderId = new URL(started.headers.location as string).pathname.split('/').pop()!;
  const [order] = (
    await rawQuery<{ checkout_session_id: string; total_cents: number }>(
      t.database.db,
      `select checkout_session_id, total_cents from resale_orders where id = '${orderId}'`,
    )
  ).rows;
  return { orderId, sessionId: order.checkout_session_id, totalCents: Number(order.total_cents) };
}
const orderStatus = async (orderId: string) =>
  (await rawQuery<{ status: string }>(t.database.db, `select status from resale_orders where id = '${orderId}'`))
    .rows[0].status;
const refunds = () => fake.seen.filter((s) => s.path === '/v1/refunds');
const auditOf = async (action: string) =>
  (await call(apiKey, 'GET', `/v1/org/audit-log?action=${action}`)).json<{
    items: { actor: { kind: string }; resourceType: string; resourceId: string; detail: Record<string, unknown> }[];
  }>().items;

describe('a payment that does not match its order is flagged for the operator', () => {
  it('is recorded once per event with what the provider said, counted by reason, and still logged', async () => {
    const order = await resaleOrder();
    const wrong = completedEvent({ ...order, amount: 1, paymentIntent: 'pi_wrong_amount' });
    const res = await signed(wrong);
    expect(res.statusCode, res.body).toBe(200);
    expect(await orderStatus(order.orderId)).toBe('PENDING');
    expect(t.logs.filter((l) => l.msg === LOG_LINE).at(-1)).toMatchObject({ orderId: order.orderId, reason: 'amount' });
    const page = await listed();
    expect(page).toEqual({
      items: [
        {
          id: expect.any(Number) as number,
          kind: 'resale',
          orderId: order.orderId,
          sessionId: order.sessionId,
          paymentIntentId: 'pi_wrong_amount',
          amountCents: 1,
          currencyCode: 'AUD',
          reason: 'amount',
          createdAt: t.clock.now().toISOString(),
          resolvedAt: null,
          resolution: null,
        },
      ],
      nextCursor: null,
    });
    expect(await counted('amount')).toBe(1);

    // Stripe delivers it again: once as a replay of a handled event, once after a failure that came between the
    // flag and the event's record (its webhook_events row gone): one row, counted once.
    expect((await signed(wrong)).statusCode).toBe(200);
    await rawQuery(t.database.db, `delete from webhook_events`);
    const again = await signed(wrong);
    expect(again.statusCode, again.body).toBe(200);
    expect(t.logs.filter((l) => l.msg === LOG_LINE)).toHaveLength(2);
    expect(await rows()).toHaveLength(1);
    expect(await counted('amount')).toBe(1);

    // Each reason of its own; an amount no integer column holds is kept as unknown, not a 500 Stripe retries for days.
    for (const [payload, reason] of [
      [completedEvent({ ...order, amount: order.totalCents, currency: 'nzd' }), 'currency'],
      [completedEvent({ ...order, sessionId: 'cs_someone_elses', amount: order.totalCents }), 'session'],
      [completedEvent({ ...order, amount: 1e12 }), 'amount'],
    ] as const) {
      const r = await signed(payload);
      expect(r.statusCode, r.body).toBe(200);
      expect((await listed()).items[0]).toMatchObject({ reason });
    }
    expect((await listed()).items[0]).toMatchObject({ amountCents: null, currencyCode: 'AUD' });
    expect(await counted('amount')).toBe(2);
    expect(await counted('currency')).toBe(1);
    expect(await counted('session')).toBe(1);
    // A payment that matches is not flagged.
    expect((await signed(completedEvent({ ...order, amount: order.totalCents }))).statusCode).toBe(200);
    expect(await orderStatus(order.orderId)).toBe('PAID');
    expect(await rows()).toHaveLength(4);
  });

  it('a second checkout paying a paid order, and a payment whose tickets went to another buyer, are flagged', async () => {
    const order = await resaleOrder('zed@example.com');
    const paid = { ...order, amount: order.totalCents };
    expect((await signed(completedEvent({ ...paid, paymentIntent: 'pi_first' }))).statusCode).toBe(200);
    expect(await orderStatus(order.orderId)).toBe('PAID');
    // The order's own session reported again: nothing to flag.
    expect((await signed(completedEvent({ ...paid, paymentIntent: 'pi_first' }))).statusCode).toBe(200);
    expect(await rows()).toEqual([]);
    // The buyer's older tab paid too: charged twice. Without the session check it answered `already`, unflagged.
    expect(
      (await signed(completedEvent({ ...paid, sessionId: 'cs_older_tab', paymentIntent: 'pi_again' }))).statusCode,
    ).toBe(200);
    expect((await listed()).items).toMatchObject([
      { orderId: order.orderId, reason: 'session', paymentIntentId: 'pi_again' },
    ]);
    expect(await orderStatus(order.orderId)).toBe('PAID');

    // Two buyers open orders of h's other ticket; both pay; the second order FAILED: its payment is owed back.
    const groups = (await call(tokens.h, 'GET', '/v1/resell/tickets/available')).json<
      { userTicketId: number; currencyCode: string; currencySymbol: string }[]
    >();
    const listing = await call(tokens.h, 'POST', '/v1/resell', {
      userTicketId: groups[0].userTicketId,
      amountCount: 1,
      price: 90,
      currencyCode: groups[0].currencyCode,
      currencySymbol: groups[0].currencySymbol,
    });
    const start = async (email: string) => {
      const started = await t.app.inject({
        method: 'POST',
        url: new URL(listing.json<{ shareLinkUrl: string }>().shareLinkUrl).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ quantity: '1', email, idempotencyKey: crypto.randomUUID() }).toString(),
      });
      const orderId = new URL(started.headers.location as string).pathname.split('/').pop()!;
      const [o] = (
        await rawQuery<{ checkout_session_id: string }>(
          t.database.db,
          `select checkout_session_id from resale_orders where id = '${orderId}'`,
        )
      ).rows;
      return { orderId, sessionId: o.checkout_session_id, amount: order.totalCents };
    };
    const [first, second] = [await start('ann@example.com'), await start('bob@example.com')];
    expect((await signed(completedEvent({ ...first, paymentIntent: 'pi_ann' }))).statusCode).toBe(200);
    expect((await signed(completedEvent({ ...second, paymentIntent: 'pi_bob' }))).statusCode).toBe(200);
    expect([await orderStatus(first.orderId), await orderStatus(second.orderId)]).toEqual(['PAID', 'FAILED']);
    // The operator's log line names the order and its session (issue 43: a mutant that emptied it lived).
    expect(
      t.logs.filter((l) => l.msg === 'resale order paid after its tickets went to another buyer: failed, to refund'),
    ).toEqual([expect.objectContaining({ orderId: second.orderId, sessionId: second.sessionId })]);
    // Without the flag: the FAILED order's payment was neither listed nor counted.
    expect((await listed()).items[0]).toMatchObject({
      kind: 'resale',
      orderId: second.orderId,
      reason: 'ended',
      paymentIntentId: 'pi_bob',
    });
    expect(await counted('ended')).toBe(1);
    const settle = await admin('POST', `/${(await listed()).items[0].id}/settle`);
    expect(settle.json()).toMatchObject({ message: 'api.admin.payment_mismatch_not_payable' });
  });

  it('lists only to the platform key, newest first, by pages of at most 100; resolved=true lists the resolved', async () => {
    const order = await resaleOrder();
    for (const amount of [1, 2, 3]) await signed(completedEvent({ ...order, amount }));
    expect((await call(null, 'GET', '/v1/admin/payments/mismatched')).statusCode).toBe(401);
    expect((await call(apiKey, 'GET', '/v1/admin/payments/mismatched')).statusCode).toBe(401);
    const first = await listed('?limit=2');
    expect(first.items.map((i) => i.amountCents)).toEqual([3, 2]);
    const second = await listed(`?limit=2&cursor=${first.nextCursor}`);
    expect(second).toMatchObject({ items: [{ amountCents: 1 }], nextCursor: null });
    expect((await admin('GET', '?limit=101')).statusCode).toBe(400);
    expect((await admin('GET', '?cursor=not-ours')).json()).toMatchObject({ message: 'api.org.invalid_cursor' });
    expect(await listed('?resolved=true')).toEqual({ items: [], nextCursor: null });

    const refunded = await admin('POST', `/${first.items[0].id}/refund`);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect((await listed()).items.map((i) => i.amountCents)).toEqual([2, 1]);
    expect((await listed('?resolved=true')).items).toMatchObject([
      { amountCents: 3, resolution: 'refunded', resolvedAt: t.clock.now().toISOString() },
    ]);
  });
});

describe('the operator refunds or settles a flagged payment, once', () => {
  it('refund: Stripe refunds the payment under the key refund-mismatch-<id>; the row is resolved and audited', async () => {
    const order = await resaleOrder();
    await signed(completedEvent({ ...order, amount: 1, paymentIntent: 'pi_to_refund' }));
    const [{ id }] = (await listed()).items;
    expect((await admin('POST', '/999999/refund')).json()).toMatchObject({
      message: 'api.admin.payment_mismatch_not_found',
    });
    expect((await call(apiKey, 'POST', `/v1/admin/payments/mismatched/${id}/refund`)).statusCode).toBe(401);

    // Stripe down: 503, nothing resolved; the operator tries again later.
    fake.outage.status = 500;
    let down;
    try {
      down = await admin('POST', `/${id}/refund`);
    } finally {
      fake.outage.status = null;
    }
    expect(down.statusCode).toBe(503);
    expect((await listed()).items).toMatchObject([{ id, resolvedAt: null }]);

    const r = await admin('POST', `/${id}/refund`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ id, resolution: 'refunded', resolvedAt: t.clock.now().toISOString() });
    expect(refunds().map((s) => [s.body.get('payment_intent'), s.idempotencyKey])).toEqual([
      ['pi_to_refund', `refund-mismatch-${id}`],
      ['pi_to_refund', `refund-mismatch-${id}`],
    ]);
    for (const again of ['refund', 'settle']) {
      const second = await admin('POST', `/${id}/${again}`);
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({ message: 'api.admin.payment_mismatch_resolved' });
    }
    expect(refunds()).toHaveLength(2);
    expect(await orderStatus(order.orderId)).toBe('PENDING');
    expect(await auditOf('payment.refunded')).toMatchObject([
      {
        actor: { kind: 'platform_admin' },
        resourceType: 'order',
        resourceId: order.orderId,
        detail: {
          mismatchId: id,
          reason: 'amount',
          amountCents: 1,
          currencyCode: 'AUD',
          refundId: expect.stringMatching(/^re_test_\d+$/) as string,
        },
      },
    ]);
  });

  it('refund of a payment the provider did not name: 409 no_payment, the row stays open', async () => {
    const order = await resaleOrder();
    await signed(completedEvent({ ...order, amount: 1, paymentIntent: null }));
    const [{ id, paymentIntentId }] = (await listed()).items;
    expect(paymentIntentId).toBeNull();
    const r = await admin('POST', `/${id}/refund`);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ message: 'api.admin.payment_mismatch_no_payment' });
    expect(refunds()).toEqual([]);
    expect((await listed()).items).toMatchObject([{ id, resolvedAt: null }]);
  });

  it('settle: the resale order is paid as if the payment matched (the buyer gets the code); a paid order is not payable', async () => {
    const order = await resaleOrder('zed@example.com');
    await signed(completedEvent({ ...order, amount: 1 }));
    await signed(completedEvent({ ...order, sessionId: 'cs_someone_elses', amount: order.totalCents }));
    const [other, first] = (await listed()).items;
    const r = await admin('POST', `/${first.id}/settle`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ id: first.id, resolution: 'settled' });
    expect(await orderStatus(order.orderId)).toBe('PAID');
    expect(t.mail.sent.filter((m) => m.to === 'zed@example.com' && m.attachments?.length)).toHaveLength(1);
    expect(refunds()).toEqual([]);
    expect(await auditOf('payment.settled')).toMatchObject([
      { resourceType: 'order', resourceId: order.orderId, detail: { mismatchId: first.id, kind: 'resale' } },
    ]);
    // The second payment of that order cannot pay it again: 409, still open, to be refunded.
    const paid = await admin('POST', `/${other.id}/settle`);
    expect(paid.statusCode).toBe(409);
    expect(paid.json()).toMatchObject({ message: 'api.admin.payment_mismatch_not_payable' });
    expect((await listed()).items).toMatchObject([{ id: other.id, resolvedAt: null }]);
    expect((await admin('POST', `/${other.id}/refund`)).statusCode).toBe(200);
  });

  it("a settled payment's dispute finds the order: the ticket is held and so is the seller's payout", async () => {
    const order = await resaleOrder('zed@example.com');
    await signed(completedEvent({ ...order, amount: 1, paymentIntent: 'pi_settled' }));
    const [flag] = (await listed()).items;
    expect((await admin('POST', `/${flag.id}/settle`)).statusCode).toBe(200);
    // A dispute names the payment only (Stripe copies no metadata to it).
    const disputed = await signed(
      JSON.stringify({
        id: `evt_mismatch_${++events}`,
        object: 'event',
        type: 'charge.dispute.created',
        data: {
          object: {
            id: 'dp_settled',
            object: 'dispute',
            charge: 'ch_settled',
            payment_intent: 'pi_settled',
            status: 'needs_response',
            amount: 1,
            currency: 'aud',
          },
        },
      }),
    );
    expect(disputed.statusCode).toBe(200);
    // Without the payment recorded at the settlement: PAID, the ticket admits, the payout PENDING, an unknown_payment.
    expect(await orderStatus(order.orderId)).toBe('DISPUTED');
    expect((await rawQuery(t.database.db, `select status from payouts`)).rows).toEqual([{ status: 'HELD' }]);
    expect((await listed()).items).toEqual([]);
  });

  it("refunding a second payment of a paid order leaves the order's tickets and payout alone", async () => {
    const order = await resaleOrder('zed@example.com');
    const paid = { ...order, amount: order.totalCents };
    expect(
      (await signed(completedEvent({ ...paid, sessionId: 'cs_older_tab', paymentIntent: 'pi_dup' }))).statusCode,
    ).toBe(200);
    expect((await signed(completedEvent({ ...paid, paymentIntent: 'pi_good' }))).statusCode).toBe(200);
    expect(await orderStatus(order.orderId)).toBe('PAID');
    const [dup] = (await listed()).items;
    expect(dup).toMatchObject({ reason: 'session', paymentIntentId: 'pi_dup' });
    expect((await admin('POST', `/${dup.id}/refund`)).statusCode).toBe(200);
    // Stripe reports that refund; its charge carries the order id (the checkout's metadata) but not the order's payment.
    const refunded = await signed(
      JSON.stringify({
        id: `evt_mismatch_${++events}`,
        object: 'event',
        type: 'charge.refunded',
        data: {
          object: {
            id: 'ch_dup',
            object: 'charge',
            payment_intent: 'pi_dup',
            metadata: { orderId: order.orderId },
            amount: order.totalCents,
            amount_refunded: order.totalCents,
            refunded: true,
            currency: 'aud',
          },
        },
      }),
    );
    expect(refunded.statusCode).toBe(200);
    // Without the check of the order's recorded payment: REFUNDED, its ticket void, the seller's payout CANCELLED.
    expect(await orderStatus(order.orderId)).toBe('PAID');
    expect(
      (await rawQuery(t.database.db, `select revoked_at, revoked_reason from user_tickets where external_id = 't1'`))
        .rows,
    ).toEqual([{ revoked_at: null, revoked_reason: null }]);
    expect((await rawQuery(t.database.db, `select status from payouts`)).rows).toEqual([{ status: 'PENDING' }]);
  });

  it('two resolutions of one row at once resolve it once (a refund and a settle; two settles)', async () => {
    const order = await resaleOrder('ann@example.com');
    await signed(completedEvent({ ...order, amount: 1 }));
    const [one] = (await listed()).items;
    const pair = await Promise.all([admin('POST', `/${one.id}/refund`), admin('POST', `/${one.id}/settle`)]);
    expect(pair.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(pair.find((r) => r.statusCode === 409)!.json()).toMatchObject({
      message: 'api.admin.payment_mismatch_resolved',
    });
    const won = pair.find((r) => r.statusCode === 200)!.json<Item>();
    // What the winner did, and nothing of what the loser would have.
    expect([refunds().length, await orderStatus(order.orderId)]).toEqual(
      won.resolution === 'refunded' ? [1, 'PENDING'] : [0, 'PAID'],
    );
    expect((await listed('?resolved=true')).items).toMatchObject([{ id: one.id, resolution: won.resolution }]);

    // Two settles of another order's payment: one pays it, the other answers 409; one code mailed.
    const other = await resaleOrder('bea@example.com');
    await signed(completedEvent({ ...other, amount: 2 }));
    const [two] = (await listed()).items;
    const settles = await Promise.all([admin('POST', `/${two.id}/settle`), admin('POST', `/${two.id}/settle`)]);
    expect(settles.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(settles.find((r) => r.statusCode === 409)!.json()).toMatchObject({
      message: 'api.admin.payment_mismatch_resolved',
    });
    expect(await orderStatus(other.orderId)).toBe('PAID');
    expect(t.mail.sent.filter((m) => m.to === 'bea@example.com' && m.attachments?.length)).toHaveLength(1);
    expect((await listed('?resolved=true')).items.map((i) => [i.id, i.resolution])).toEqual([
      [two.id, 'settled'],
      [one.id, won.resolution],
    ]);
  });
});

describe('exchange offers', () => {
  /** a's open offer of t1 (returned by h): its order id and sandbox session. */
  async function offer() {
    const on = await call(apiKey, 'PUT', '/v1/org/events/evt-1/exchange', {
      enabled: true,
      offerMinutes: 20,
      order: 'first_come',
      maxQuantity: 4,
    });
    expect(on.statusCode, on.body).toBe(200);
    const joined = await call(tokens.a, 'POST', '/v1/exchange/acme/evt-1/entries', {
      ticketTypeExternalId: 'ga',
      quantity: 1,
    });
    expect(joined.statusCode, joined.body).toBe(201);
    const t1 = (await rawQuery<{ id: number }>(t.database.db, `select id from user_tickets where external_id = 't1'`))
      .rows[0].id;
    expect((await call(tokens.h, 'POST', '/v1/exchange/returns', { userTicketId: Number(t1) })).statusCode).toBe(201);
    const entry = joined.json<exchange.ExchangeEntry>();
    const checkout = await call(tokens.a, 'POST', `/v1/exchange/entries/${entry.id}/checkout`);
    expect(checkout.statusCode, checkout.body).toBe(200);
    const orderId = new URL(checkout.json<exchange.ExchangeCheckout>().checkoutUrl).pathname.split('/').pop()!;
    return { orderId, sessionId: `sbx_cs_${orderId}` };
  }
  const holderOfT1 = async () =>
    (
      await rawQuery<{ email: string }>(
        t.database.db,
        `select u.email from user_tickets t join users u on u.id = t.holder_id where t.external_id = 't1'`,
      )
    ).rows[0].email;

  it('a wrong amount is flagged (kind exchange); settling it moves the ticket to the fan', async () => {
    const o = await offer();
    expect((await signed(completedEvent({ ...o, amount: 100 }))).statusCode).toBe(200);
    expect(await holderOfT1()).toBe('h@example.com');
    const [item] = (await listed()).items;
    expect(item).toMatchObject({ kind: 'exchange', orderId: o.orderId, reason: 'amount', amountCents: 100 });
    const r = await admin('POST', `/${item.id}/settle`);
    expect(r.statusCode, r.body).toBe(200);
    expect(await holderOfT1()).toBe('a@example.com');
    expect(await auditOf('payment.settled')).toMatchObject([{ resourceId: o.orderId, detail: { kind: 'exchange' } }]);
  });

  it("an offer of the organiser's released stock refunded: the ticket issued to the fan no longer admits", async () => {
    const on = await call(apiKey, 'PUT', '/v1/org/events/evt-1/exchange', {
      enabled: true,
      offerMinutes: 20,
      order: 'first_come',
      maxQuantity: 4,
    });
    expect(on.statusCode, on.body).toBe(200);
    const joined = await call(tokens.a, 'POST', '/v1/exchange/acme/evt-1/entries', {
      ticketTypeExternalId: 'ga',
      quantity: 1,
    });
    expect(joined.statusCode, joined.body).toBe(201);
    const released = await call(apiKey, 'POST', '/v1/org/events/evt-1/exchange/releases', {
      ticketTypeExternalId: 'ga',
      quantity: 1,
      priceCents: 9000,
    });
    expect(released.statusCode, released.body).toBe(201);
    const checkout = await call(
      tokens.a,
      'POST',
      `/v1/exchange/entries/${joined.json<exchange.ExchangeEntry>().id}/checkout`,
    );
    const orderId = new URL(checkout.json<exchange.ExchangeCheckout>().checkoutUrl).pathname.split('/').pop()!;
    const sessionId = `sbx_cs_${orderId}`;
    expect(
      (await signed(completedEvent({ orderId, sessionId, amount: 9000, paymentIntent: 'pi_released' }))).statusCode,
    ).toBe(200);
    const fans = async () =>
      (
        await rawQuery<{ revoked_reason: string | null }>(
          t.database.db,
          `select t.revoked_reason from user_tickets t join users u on u.id = t.holder_id where u.email = 'a@example.com'`,
        )
      ).rows;
    expect(await fans()).toEqual([{ revoked_reason: null }]);
    const refunded = await signed(
      JSON.stringify({
        id: `evt_mismatch_${++events}`,
        object: 'event',
        type: 'charge.refunded',
        data: {
          object: {
            id: 'ch_released',
            object: 'charge',
            payment_intent: 'pi_released',
            amount: 9000,
            amount_refunded: 9000,
            refunded: true,
            currency: 'aud',
          },
        },
      }),
    );
    expect(refunded.statusCode).toBe(200);
    // Without the unit naming the ticket it became: the organisation's payout CANCELLED, the fan's ticket still admits.
    expect((await rawQuery(t.database.db, `select status from payouts`)).rows).toEqual([{ status: 'CANCELLED' }]);
    expect(await fans()).toEqual([{ revoked_reason: 'refunded' }]);
    // The organiser's counts still tell the released unit from the returned ones.
    const counts = await call(apiKey, 'GET', '/v1/org/events/evt-1/exchange');
    expect(counts.body).toContain('"released":1');
  });

  it('one paid after it ended is flagged `ended`: it cannot be settled, it is refunded', async () => {
    const o = await offer();
    t.clock.advance(20 * 60_000);
    await t.app.services.jobs.runDue();
    expect((await signed(completedEvent({ ...o, amount: 9000, paymentIntent: 'pi_late' }))).statusCode).toBe(200);
    expect(t.logs.filter((l) => l.msg === 'exchange offer paid after it ended: not settled, to refund')).toEqual([
      expect.objectContaining({ orderId: o.orderId, sessionId: o.sessionId, eventId: expect.any(String) as string }),
    ]);
    const [item] = (await listed()).items;
    expect(item).toMatchObject({ kind: 'exchange', reason: 'ended', amountCents: 9000, paymentIntentId: 'pi_late' });
    expect(await counted('ended')).toBe(1);
    const settle = await admin('POST', `/${item.id}/settle`);
    expect(settle.json()).toMatchObject({ message: 'api.admin.payment_mismatch_not_payable' });
    expect(await holderOfT1()).toBe('h@example.com');
    expect((await admin('POST', `/${item.id}/refund`)).json()).toMatchObject({ resolution: 'refunded' });
    expect(refunds().map((s) => s.body.get('payment_intent'))).toEqual(['pi_late']);
  });
});

it('the sandbox provider refunds without a call anywhere', async () => {
  expect(await createSandboxPayouts('http://panel.test').refund('pi_x', 'refund-mismatch-1')).toEqual({
    refundId: expect.stringMatching(/^sbx_re_[0-9a-f]{16}$/) as string,
  });
});
