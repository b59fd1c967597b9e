/**
 * Issue 46 "Payments that go back" (decision 044): a refund or a dispute of the payment that bought tickets makes them
 * stop admitting (online and at a syncing offline door, reason `refunded`), holds or cancels the seller's payout, tells
 * the holder and the organisation; a dispute won gives everything back. First through the sandbox's stand-in route
 * (`POST /v1/admin/sandbox/payment-events`), then through signed Stripe events against the local Stripe fake.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import type { access, MyTicket } from '@tp/contract';
import { createStripePayouts } from '../src/providers/payouts/stripe-payouts.js';
import { bearer, createTestApp, rawQuery, type CreateResaleBody, type TestApp } from './helper.js';
import { startStripeFake } from './stripe-fake.js';

const ADMIN = 'admin-key-for-tests';
const DOOR = 'door-key-for-tests';
const config = { adminKey: ADMIN, scannerKey: DOOR, qrTtlSeconds: 30 };
let t: TestApp;

type Row = Record<string, unknown>;
const rows = async <T extends Row = Row>(sql: string) => (await rawQuery<T>(t.database.db, sql)).rows;
const userId = async (email: string) => Number((await rows(`select id from users where email = '${email}'`))[0].id);
const post = (token: string | null, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload });
const upcoming = async (token: string) =>
  (await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(token) }))
    .json<MyTicket[]>()
    .map((x) => x.userTicketId);
const payoutStatuses = async () =>
  (await rows<{ status: string }>(`select status from payouts order by id`)).map((r) => r.status);
const ticketState = async (id: number) =>
  (
    await rows<{ revoked_reason: string | null; revoked: boolean }>(
      `select revoked_reason, revoked_at is not null as revoked from user_tickets where id = ${id}`,
    )
  )[0];
const mailsTo = (email: string) => t.mail.sent.filter((m) => m.to === email).map((m) => m.subject);
/** The organisation's webhook deliveries queued of `type`, with their data. */
const deliveries = async (type: string) =>
  (
    await rows<{ payload: string }>(`select payload from webhook_deliveries where event_type = '${type}' order by id`)
  ).map((r) => (JSON.parse(r.payload) as { data: Record<string, unknown> }).data);
/** Laneway's organisation subscribes a webhook to the three events of a payment going back. */
const subscribe = () =>
  rows(`insert into webhook_endpoints (organisation_id, url, events, secret)
    select organisation_id, 'http://127.0.0.1:9/hook', '["ticket.disputed","ticket.reinstated","ticket.refunded"]'::jsonb, 'whsec_x'
    from events where name = 'Laneway Sessions'`);
/** The holder's pass text now (what their QR shows). */
const passOf = async (email: string) =>
  t.app.services.access.codeFor(await userId(email), Math.floor(t.clock.now().getTime() / 1000 / 30));
const lanewayId = async () => Number((await rows(`select id from events where name = 'Laneway Sessions'`))[0].id);
const scan = async (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/access/check-in',
    headers: { 'x-scanner-key': DOOR },
    payload: { code: await passOf(email), eventId: await lanewayId() },
  });
const syncScan = async (email: string, userTicketIds: number[]) => {
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/access/sync',
    headers: { 'x-scanner-key': DOOR },
    payload: {
      eventId: await lanewayId(),
      items: [{ id: randomUUID(), code: await passOf(email), scannedAt: t.clock.now().toISOString(), userTicketIds }],
    },
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json<access.SyncResponse>().results[0];
};
const sandboxEvent = (payload: object, key: string | null = ADMIN) =>
  post(key, '/v1/admin/sandbox/payment-events', payload);

/** Alice lists her first resellable ticket; `buyer` buys it through the sandbox checkout. The code and order id. */
async function sellAlicesTicket(alice: string, buyer: string) {
  await post(alice, '/v1/resell/sandbox-onboarding', {
    country: 'AU',
    firstName: 'A',
    lastName: 'B',
    birthdate: '1990-01-02',
    bankAccount: '062-000 12345678',
  });
  const [a] = (await t.app.inject({ url: '/v1/resell/tickets/available', headers: bearer(alice) })).json<
    { userTicketId: number; currencyCode: string; currencySymbol: string }[]
  >();
  const listed = await post(alice, '/v1/resell', {
    userTicketId: a.userTicketId,
    amountCount: 1,
    price: 80,
    currencyCode: a.currencyCode,
    currencySymbol: a.currencySymbol,
  });
  const { shareLinkUrl } = listed.json<CreateResaleBody>();
  const started = await t.app.inject({
    method: 'POST',
    url: new URL(shareLinkUrl).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ quantity: '1', email: buyer, idempotencyKey: randomUUID() }).toString(),
  });
  const checkout = new URL(started.headers.location as string).pathname;
  const paid = await t.app.inject({
    method: 'POST',
    url: checkout,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  const code = /data-testid="resale-code">([^<]+)</.exec(paid.body)?.[1];
  expect(code).toBeTruthy();
  return { code: code!, orderId: checkout.split('/').pop()!, userTicketId: a.userTicketId };
}

describe('payments that go back, through the sandbox stand-in (issue 46)', () => {
  let alice: string;
  beforeEach(async () => {
    t = await createTestApp({ seed: true, config });
    alice = (await t.signIn('alice@example.com')).accessToken;
  });
  afterEach(async () => {
    await t.close();
  });

  it('a dispute holds the ticket and the payout, won gives both back; a refund ends them, once', async () => {
    const sale = await sellAlicesTicket(alice, 'carol@example.com');
    const carol = (await t.signIn('carol@example.com')).accessToken;
    expect((await post(carol, `/v1/resell/redeem/${sale.code}`, {})).statusCode).toBe(200);
    expect(await upcoming(carol)).toEqual([sale.userTicketId]);
    expect(await payoutStatuses()).toEqual(['PENDING']);
    await subscribe();

    // Dispute opened: the ticket leaves carol's list, the door refuses it with the reason, the payout is held.
    const opened = await sandboxEvent({ type: 'charge.dispute.created', orderId: sale.orderId });
    expect(opened.json()).toEqual({ outcome: 'done' });
    expect(await upcoming(carol)).toEqual([]);
    expect(await ticketState(sale.userTicketId)).toEqual({ revoked_reason: 'disputed', revoked: true });
    expect(await payoutStatuses()).toEqual(['HELD']);
    const refused = (await scan('carol@example.com')).json<access.CheckInResponse>();
    expect(refused.admitted).toEqual([]);
    expect(refused.movedAway).toEqual([
      expect.objectContaining({ userTicketId: sale.userTicketId, reason: 'refunded' }),
    ]);
    expect(mailsTo('carol@example.com')).toContain('Your ticket for Laneway Sessions is on hold');
    expect(await deliveries('ticket.disputed')).toEqual([
      expect.objectContaining({ userTicketId: sale.userTicketId, orderId: sale.orderId }),
    ]);
    // The seller still sees the sale as owed (HELD reads as pending to a holder).
    const earnings = (await t.app.inject({ url: '/v1/resell/earnings', headers: bearer(alice) })).json<
      { payoutStatus: string }[]
    >();
    expect(earnings.map((e) => e.payoutStatus)).toEqual(['PENDING']);

    // Won: the ticket admits again and is carol's; the payout goes ahead; carol is told.
    const won = await sandboxEvent({ type: 'charge.dispute.closed', orderId: sale.orderId, status: 'won' });
    expect(won.json()).toEqual({ outcome: 'done' });
    expect(await upcoming(carol)).toEqual([sale.userTicketId]);
    expect(await ticketState(sale.userTicketId)).toEqual({ revoked_reason: null, revoked: false });
    expect(await payoutStatuses()).toEqual(['PENDING']);
    expect(mailsTo('carol@example.com')).toContain('Your ticket for Laneway Sessions admits again');
    expect(await deliveries('ticket.reinstated')).toEqual([
      expect.objectContaining({ userTicketId: sale.userTicketId, orderId: sale.orderId }),
    ]);

    // Refunded: for good. A second report of the same refund changes and mails nothing.
    const sent = t.mail.sent.length;
    expect((await sandboxEvent({ type: 'charge.refunded', orderId: sale.orderId })).json()).toEqual({
      outcome: 'done',
    });
    expect(await ticketState(sale.userTicketId)).toEqual({ revoked_reason: 'refunded', revoked: true });
    expect(await payoutStatuses()).toEqual(['CANCELLED']);
    expect(mailsTo('carol@example.com')).toContain('Your ticket for Laneway Sessions no longer admits');
    expect(await deliveries('ticket.refunded')).toEqual([
      expect.objectContaining({ userTicketId: sale.userTicketId, orderId: sale.orderId, dispute: false }),
    ]);
    const earningsAfter = (await t.app.inject({ url: '/v1/resell/earnings', headers: bearer(alice) })).json<
      unknown[]
    >();
    expect(earningsAfter).toEqual([]);
    const mailed = t.mail.sent.length;
    expect(mailed).toBeGreaterThan(sent);
    expect((await sandboxEvent({ type: 'charge.refunded', orderId: sale.orderId })).json()).toEqual({
      outcome: 'already',
    });
    expect(t.mail.sent.length).toBe(mailed);
    // An offline door that admitted her before it synced hears why.
    expect(await syncScan('carol@example.com', [sale.userTicketId])).toMatchObject({
      admitted: [],
      conflicts: [{ userTicketId: sale.userTicketId, reason: 'refunded' }],
    });
  });

  it('refunded before its code was redeemed: the code neither redeems nor downloads', async () => {
    const sale = await sellAlicesTicket(alice, 'dave@example.com');
    expect((await sandboxEvent({ type: 'charge.refunded', orderId: sale.orderId })).json()).toEqual({
      outcome: 'done',
    });
    const dave = (await t.signIn('dave@example.com')).accessToken;
    const redeem = await post(dave, `/v1/resell/redeem/${sale.code}`, {});
    expect(redeem.statusCode).toBe(404);
    expect(redeem.json()).toEqual({ message: 'api.resell.redeem.invalid_code' });
    expect((await post(null, `/v1/resell/${sale.orderId}`, { code: sale.code })).statusCode).toBe(404);
    expect(await upcoming(dave)).toEqual([]);
    expect(await ticketState(sale.userTicketId)).toEqual({ revoked_reason: 'refunded', revoked: true });
  });

  it('the same refund reported 20 times at once is handled once: every answer 200, one e-mail, one reversal', async () => {
    const sale = await sellAlicesTicket(alice, 'carol@example.com');
    const carol = (await t.signIn('carol@example.com')).accessToken;
    expect((await post(carol, `/v1/resell/redeem/${sale.code}`, {})).statusCode).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => sandboxEvent({ type: 'charge.refunded', orderId: sale.orderId })),
    );
    // Without the order's row lock, on PostgreSQL the copies race to the reversal's unique id and some answer 500.
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.json<{ outcome: string }>().outcome === 'done')).toHaveLength(1);
    expect(mailsTo('carol@example.com').filter((m) => m.includes('no longer admits'))).toHaveLength(1);
    expect(await rows(`select count(*)::int as n from payment_reversals`)).toEqual([{ n: 1 }]);
  });

  it('a dispute lost is a refund; the stand-in needs the admin key and knows only paid orders', async () => {
    const sale = await sellAlicesTicket(alice, 'carol@example.com');
    expect((await sandboxEvent({ type: 'charge.dispute.created', orderId: sale.orderId }, 'wrong')).statusCode).toBe(
      401,
    );
    expect((await sandboxEvent({ type: 'charge.dispute.created', orderId: randomUUID() })).json()).toEqual({
      outcome: 'unknown',
    });
    expect((await sandboxEvent({ type: 'charge.refunded', orderId: 'not-a-uuid' })).statusCode).toBe(400);
    expect(await payoutStatuses()).toEqual(['PENDING']);
    await sandboxEvent({ type: 'charge.dispute.created', orderId: sale.orderId });
    await sandboxEvent({ type: 'charge.dispute.closed', orderId: sale.orderId, status: 'lost' });
    expect(await ticketState(sale.userTicketId)).toEqual({ revoked_reason: 'refunded', revoked: true });
    expect(await payoutStatuses()).toEqual(['CANCELLED']);
    // Closed twice: nothing more.
    const mails = t.mail.sent.length;
    await sandboxEvent({ type: 'charge.dispute.closed', orderId: sale.orderId, status: 'won' });
    expect(await ticketState(sale.userTicketId)).toEqual({ revoked_reason: 'refunded', revoked: true });
    expect(t.mail.sent.length).toBe(mails);
  });
});

describe('payments that go back, as Stripe reports them (signed events, issue 46)', () => {
  const SECRET = 'whsec_test_reversal';
  let fake: Awaited<ReturnType<typeof startStripeFake>>;
  let n = 0;
  beforeAll(async () => {
    fake = await startStripeFake();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(async () => {
    const payouts = createStripePayouts({ secretKey: 'sk_test_reversal', webhookSecret: SECRET, apiUrl: fake.apiUrl });
    t = await createTestApp({ seed: true, payouts, config, logs: true });
  });
  afterEach(async () => {
    await t.close();
  });

  const webhook = (type: string, object: object) => {
    const payload = JSON.stringify({ id: `evt_rev_${++n}`, object: 'event', type, data: { object } });
    return t.app.inject({
      method: 'POST',
      url: '/v1/resell/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
      },
      payload,
    });
  };

  /** Alice's ticket sold to mallory, paid by a signed completed session naming the payment `pi` (null: none). */
  async function paidOrder(pi: string | null) {
    const alice = (await t.signIn('alice@example.com')).accessToken;
    const [{ external_id }] = await rows<{ external_id: string }>(
      `insert into payout_accounts (user_id, provider, external_id, status, verified_at)
       values (${await userId('alice@example.com')}, 'stripe', 'acct_alice', 'VERIFIED', now()) returning external_id`,
    );
    expect(external_id).toBe('acct_alice');
    const [a] = (await t.app.inject({ url: '/v1/resell/tickets/available', headers: bearer(alice) })).json<
      { userTicketId: number; currencyCode: string }[]
    >();
    const listed = await post(alice, '/v1/resell', {
      userTicketId: a.userTicketId,
      amountCount: 1,
      price: 80,
      currencyCode: a.currencyCode,
      currencySymbol: 'A$',
    });
    const { shareLinkUrl } = listed.json<CreateResaleBody>();
    const key = randomUUID();
    const started = await t.app.inject({
      method: 'POST',
      url: new URL(shareLinkUrl).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ quantity: '1', email: 'mallory@example.com', idempotencyKey: key }).toString(),
    });
    expect(started.statusCode).toBe(303);
    const [order] = await rows<{ id: string; checkout_session_id: string; total_cents: number }>(
      `select id, checkout_session_id, total_cents from resale_orders where idempotency_key = '${key}'`,
    );
    // The checkout carries the order id to the payment, so a refund names it.
    const session = fake.seen.find((s) => s.body.get('metadata[orderId]') === order.id)!;
    expect(session.body.get('payment_intent_data[metadata][orderId]')).toBe(order.id);
    const done = await webhook('checkout.session.completed', {
      id: order.checkout_session_id,
      object: 'checkout.session',
      metadata: { orderId: order.id },
      amount_total: order.total_cents,
      currency: 'aud',
      payment_status: 'paid',
      payment_intent: pi,
    });
    expect(done.statusCode).toBe(200);
    expect((await rows(`select payment_intent_id from resale_orders where id = '${order.id}'`))[0]).toEqual({
      payment_intent_id: pi,
    });
    return { orderId: order.id, userTicketId: a.userTicketId, totalCents: order.total_cents };
  }

  it('a dispute found by its payment holds the payout; lost, the ticket is refunded for good', async () => {
    const order = await paidOrder('pi_disputed');
    const dispute = { id: 'dp_1', object: 'dispute', charge: 'ch_1', payment_intent: 'pi_disputed', amount: 8800 };
    expect((await webhook('charge.dispute.created', { ...dispute, status: 'needs_response' })).statusCode).toBe(200);
    expect(await ticketState(order.userTicketId)).toEqual({ revoked_reason: 'disputed', revoked: true });
    expect(await payoutStatuses()).toEqual(['HELD']);
    expect((await webhook('charge.dispute.closed', { ...dispute, status: 'lost' })).statusCode).toBe(200);
    expect(await ticketState(order.userTicketId)).toEqual({ revoked_reason: 'refunded', revoked: true });
    expect(await payoutStatuses()).toEqual(['CANCELLED']);
    expect((await rows(`select status from resale_orders where id = '${order.orderId}'`))[0]).toEqual({
      status: 'REFUNDED',
    });
  });

  it('a dispute closed with a status Stripe does not document changes nothing; warning_closed and won give the ticket and payout back', async () => {
    const order = await paidOrder('pi_won');
    const disputed = { revoked_reason: 'disputed', revoked: true };
    const back = { revoked_reason: null, revoked: false };
    const dispute = { id: 'dp_w', object: 'dispute', charge: 'ch_w', payment_intent: 'pi_won', amount: 8800 };
    expect((await webhook('charge.dispute.created', { ...dispute, status: 'needs_response' })).statusCode).toBe(200);
    expect(await ticketState(order.userTicketId)).toEqual(disputed);
    expect((await webhook('charge.dispute.closed', { ...dispute, status: 'closed_somehow' })).statusCode).toBe(200);
    expect(await ticketState(order.userTicketId)).toEqual(disputed);
    // Said to the operator, with the status that was not understood.
    expect(t.logs.filter((l) => l.msg === 'dispute closed with an unknown status: nothing changed')).toEqual([
      expect.objectContaining({ type: 'charge.dispute.closed', paymentIntentId: 'pi_won', status: 'closed_somehow' }),
    ]);
    expect(await payoutStatuses()).toEqual(['HELD']);
    // An inquiry closed without a chargeback: as won.
    expect((await webhook('charge.dispute.closed', { ...dispute, status: 'warning_closed' })).statusCode).toBe(200);
    expect(await ticketState(order.userTicketId)).toEqual(back);
    expect(await payoutStatuses()).toEqual(['PENDING']);
    // A second dispute of the same payment, won.
    const second = { ...dispute, id: 'dp_w2' };
    expect((await webhook('charge.dispute.created', { ...second, status: 'needs_response' })).statusCode).toBe(200);
    expect(await ticketState(order.userTicketId)).toEqual(disputed);
    expect((await webhook('charge.dispute.closed', { ...second, status: 'won' })).statusCode).toBe(200);
    expect(await ticketState(order.userTicketId)).toEqual(back);
    expect(await payoutStatuses()).toEqual(['PENDING']);
  });

  it("a paid order takes the payment id only of its own session's completion, retried or not; another checkout's payment is not its", async () => {
    const order = await paidOrder(null);
    const [{ checkout_session_id: session }] = await rows<{ checkout_session_id: string }>(
      `select checkout_session_id from resale_orders where id = '${order.orderId}'`,
    );
    const completed = (id: string, pi: string) =>
      webhook('checkout.session.completed', {
        id,
        object: 'checkout.session',
        metadata: { orderId: order.orderId },
        amount_total: order.totalCents,
        currency: 'aud',
        payment_status: 'paid',
        payment_intent: pi,
      });
    const recorded = async () =>
      (
        await rows<{ payment_intent_id: string | null }>(
          `select payment_intent_id from resale_orders where id = '${order.orderId}'`,
        )
      )[0].payment_intent_id;
    // A second tab's checkout paid the same order: flagged, and its payment is not the order's.
    expect((await completed('cs_second_tab', 'pi_second_tab')).statusCode).toBe(200);
    expect(await recorded()).toBeNull();
    // Stripe's retry of the order's own completion, now naming its payment: recorded for a later refund or dispute.
    expect((await completed(session, 'pi_late')).statusCode).toBe(200);
    expect(await recorded()).toBe('pi_late');
  });

  it('a partial refund keeps the ticket; a full one voids it; a refund of no payment of ours changes nothing', async () => {
    const order = await paidOrder('pi_refund');
    const charge = {
      id: 'ch_r',
      object: 'charge',
      payment_intent: 'pi_refund',
      amount: order.totalCents,
      currency: 'aud',
    };
    await webhook('charge.refunded', { ...charge, amount_refunded: 800, refunded: false });
    expect(await ticketState(order.userTicketId)).toEqual({ revoked_reason: null, revoked: false });
    expect(await payoutStatuses()).toEqual(['PENDING']);
    // What the operator reads: the payment, and how much of it went back (issue 43: mutants that emptied it lived).
    expect(t.logs.filter((l) => l.msg === 'partial refund of a payment: tickets kept')).toEqual([
      expect.objectContaining({
        type: 'charge.refunded',
        paymentIntentId: 'pi_refund',
        amountCents: order.totalCents,
        amountRefundedCents: 800,
        eventId: expect.any(String) as string,
      }),
    ]);
    const stranger = await webhook('charge.refunded', {
      ...charge,
      id: 'ch_other',
      payment_intent: 'pi_not_ours',
      amount_refunded: order.totalCents,
      refunded: true,
    });
    expect(stranger.statusCode).toBe(200);
    expect(await payoutStatuses()).toEqual(['PENDING']);
    // Flagged for the operator, once however often Stripe sends it.
    expect(
      await rows(`select reason, payment_intent_id, kind from payment_mismatches where reason = 'unknown_payment'`),
    ).toEqual([{ reason: 'unknown_payment', payment_intent_id: 'pi_not_ours', kind: null }]);
    expect(t.logs.filter((l) => l.msg === 'refund or dispute of no paid order of ours: nothing changed')).toEqual([
      expect.objectContaining({ type: 'charge.refunded', paymentIntentId: 'pi_not_ours', orderId: null }),
    ]);
    // Found by the order id the payment's metadata carries even with no payment id recorded.
    await rows(`update resale_orders set payment_intent_id = null`);
    await webhook('charge.refunded', {
      ...charge,
      payment_intent: 'pi_unrecorded',
      metadata: { orderId: order.orderId },
      amount_refunded: order.totalCents,
      refunded: true,
    });
    expect(await ticketState(order.userTicketId)).toEqual({ revoked_reason: 'refunded', revoked: true });
    expect(await payoutStatuses()).toEqual(['CANCELLED']);
  });
  it('a refund naming an order id that is not one of ours (not a UUID) is no payment of ours: 200, flagged without it', async () => {
    const order = await paidOrder('pi_kept');
    for (const orderId of ['order-123', `${order.orderId}x`]) {
      const res = await webhook('charge.refunded', {
        id: `ch_${orderId}`,
        object: 'charge',
        payment_intent: `pi_other_${orderId}`,
        metadata: { orderId },
        amount: 500,
        amount_refunded: 500,
        refunded: true,
        currency: 'aud',
      });
      // Taken as an order id, it reached a uuid query: a 500 that Stripe retries for days.
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await ticketState(order.userTicketId)).toEqual({ revoked_reason: null, revoked: false });
    expect(await rows(`select order_id, reason from payment_mismatches order by id`)).toEqual([
      { order_id: null, reason: 'unknown_payment' },
      { order_id: null, reason: 'unknown_payment' },
    ]);
  });
});
