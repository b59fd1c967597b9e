/**
 * Issue 46 "resale and swap payments not yet settled are refunded" (decision 045): cancelling an event queues, in its
 * transaction, one `cancel_refund` job per paid resale order or exchange offer of its tickets whose seller is not paid
 * out yet; the job refunds the buyer in full through the payout provider (the sandbox here, its refund watched) with
 * the idempotency key `cancel-refund-<orderId>`, cancels the seller's payout and makes the order REFUNDED (its code no
 * longer redeems). A job retried after the provider refunded but before the record asks with the same key (the
 * provider answers the first refund); a job run again after the record refunds nothing. A payout already paid out is
 * left alone.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/app-error.js';
import { enqueueJobs } from '../src/providers/jobs/job-queue.js';
import { createSandboxPayouts, type PayoutProvider } from '../src/providers/payouts/payout.provider.js';
import { bearer, createTestApp, rawQuery, type CreateResaleBody, type TestApp } from './helper.js';

const config = { adminKey: 'admin-key-for-tests' };
let t: TestApp;
/** The refunds asked of the provider: [payment, idempotency key]. */
let refunds: [string, string][];
/** What the next refund does before answering: nothing, fail (provider down), or refund then lose the answer. */
let nextRefund: 'ok' | 'down' | 'lost';

type Row = Record<string, unknown>;
const rows = async <T extends Row = Row>(sql: string) => (await rawQuery<T>(t.database.db, sql)).rows;
const post = (token: string | null, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload });
const payoutStatuses = async () =>
  (await rows<{ status: string }>(`select status from payouts order by id`)).map((r) => r.status);
const orderStatus = async (id: string) =>
  (await rows<{ status: string }>(`select status from resale_orders where id = '${id}'`))[0].status;
const refundJobs = async () =>
  rows<{ attempts: number; failed: boolean }>(
    `select attempts, failed_at is not null as failed from jobs where kind = 'cancel_refund'`,
  );

/** The sandbox provider, its refunds recorded and shaped by `nextRefund`. */
function watchedPayouts(): PayoutProvider {
  const sandbox = createSandboxPayouts('http://panel.test');
  return {
    ...sandbox,
    async refund(paymentIntentId, idempotencyKey) {
      const mode = nextRefund;
      nextRefund = 'ok';
      if (mode === 'down') throw new AppError('api.service_unavailable');
      refunds.push([paymentIntentId, idempotencyKey]);
      const answer = await sandbox.refund(paymentIntentId, idempotencyKey);
      if (mode === 'lost') throw new Error('the process died before it recorded the refund');
      return answer;
    },
  };
}

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
    { userTicketId: number; currencyCode: string; currencySymbol: string; eventName: string }[]
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
  return { code: code!, orderId: checkout.split('/').pop()! };
}

/** Cancels the event of the order `orderId`'s listing as its organisation's owner would; what it answered. */
async function cancelEventOf(orderId: string) {
  const [event] = await rows<{ id: number; organisation_id: number; slug: string }>(
    `select e.id, e.organisation_id, o.slug from resale_orders ro
       join resale_listings l on l.id = ro.listing_id join ticket_types tt on tt.id = l.ticket_type_id
       join events e on e.id = tt.event_id join organisations o on o.id = e.organisation_id
     where ro.id = '${orderId}'`,
  );
  await rows(`update events set external_id = 'to-cancel' where id = ${event.id}`);
  const org = {
    id: Number(event.organisation_id),
    slug: event.slug,
    role: 'owner' as const,
    actor: { kind: 'api_key' as const, id: null, ip: null },
  };
  return t.app.services.organisations.org.cancel(org, 'to-cancel', { reason: 'Flooded. Refunds within 14 days.' });
}

describe("a cancelled event's payments not settled with their sellers are refunded, once (issue 46)", () => {
  let alice: string;
  beforeEach(async () => {
    refunds = [];
    nextRefund = 'ok';
    t = await createTestApp({ seed: true, config, payouts: watchedPayouts() });
    alice = (await t.signIn('alice@example.com')).accessToken;
  });
  afterEach(async () => {
    await t.close();
  });

  it('the buyer is refunded in full, the payout cancelled, the unredeemed code stops working; a rerun refunds nothing', async () => {
    const sale = await sellAlicesTicket(alice, 'carol@example.com');
    expect(await payoutStatuses()).toEqual(['PENDING']);

    await cancelEventOf(sale.orderId);
    await t.app.services.jobs.runDue();

    expect(refunds).toEqual([[`sandbox-${sale.orderId}`, `cancel-refund-${sale.orderId}`]]);
    expect(await payoutStatuses()).toEqual(['CANCELLED']);
    expect(await orderStatus(sale.orderId)).toBe('REFUNDED');
    expect(await rows(`select provider_ref, reason from payment_reversals`)).toEqual([
      { provider_ref: `cancel-refund-${sale.orderId}`, reason: 'refunded' },
    ]);
    expect(await refundJobs()).toEqual([]);
    const carol = (await t.signIn('carol@example.com')).accessToken;
    const redeem = await post(carol, `/v1/resell/redeem/${sale.code}`, {});
    expect(redeem.json()).toMatchObject({ message: 'api.resell.redeem.invalid_code' });

    // Delivered again (at least once, decision 030): the record is found, nothing is asked of the provider.
    await enqueueJobs(t.database.db, [{ kind: 'cancel_refund', payload: { orderId: sale.orderId } }]);
    await t.app.services.jobs.runDue();
    expect(refunds).toHaveLength(1);
    expect(await rows(`select count(*)::int as n from payment_reversals`)).toEqual([{ n: 1 }]);
  });

  it('a job retried after the provider was down, then after a refund whose answer was lost, asks with one key', async () => {
    const sale = await sellAlicesTicket(alice, 'carol@example.com');
    nextRefund = 'down';
    await cancelEventOf(sale.orderId);
    await t.app.services.jobs.runDue();
    expect(refunds).toEqual([]);
    expect(await payoutStatuses()).toEqual(['PENDING']);
    expect(await refundJobs()).toEqual([{ attempts: 1, failed: false }]);

    // Refunded, then the process dies before the record: the retry asks again, with the same key.
    nextRefund = 'lost';
    t.clock.advance(3_600_000);
    await t.app.services.jobs.runDue();
    expect(await payoutStatuses()).toEqual(['PENDING']);
    t.clock.advance(3_600_000);
    await t.app.services.jobs.runDue();
    expect(refunds.map(([, key]) => key)).toEqual([`cancel-refund-${sale.orderId}`, `cancel-refund-${sale.orderId}`]);
    expect(await payoutStatuses()).toEqual(['CANCELLED']);
    expect(await refundJobs()).toEqual([]);
  });

  it('a payout already paid out (settled) is not refunded', async () => {
    const sale = await sellAlicesTicket(alice, 'carol@example.com');
    await rows(`update payouts set status = 'PAID'`);
    await cancelEventOf(sale.orderId);
    await t.app.services.jobs.runDue();
    expect(refunds).toEqual([]);
    expect(await orderStatus(sale.orderId)).toBe('PAID');
    expect(await payoutStatuses()).toEqual(['PAID']);
  });
});

describe('an exchange offer paid for a cancelled event (issue 46)', () => {
  const ONBOARD = {
    country: 'AU',
    firstName: 'A',
    lastName: 'B',
    birthdate: '1990-01-02',
    bankAccount: '062-000 12345678',
  };
  const call = (key: string, method: 'PUT' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
  beforeEach(async () => {
    refunds = [];
    nextRefund = 'ok';
    t = await createTestApp({ config, payouts: watchedPayouts() });
  });
  afterEach(async () => {
    await t.close();
  });

  it("the fan is refunded and the returner's payout cancelled, once, through the API's cancel", async () => {
    const org = await call(config.adminKey, 'POST', '/v1/admin/organisations', { slug: 'acme', name: 'Acme' });
    const { apiKey } = org.json<{ apiKey: string }>();
    const start = t.clock.now().getTime() + 10 * 86_400_000;
    await call(apiKey, 'PUT', '/v1/org/events/evt-1', {
      name: 'Harbour Lights',
      venue: 'The Domain',
      city: 'Sydney',
      country: 'AU',
      startsAt: new Date(start).toISOString(),
      endsAt: new Date(start + 8 * 3_600_000).toISOString(),
      timeZone: 'Australia/Sydney',
    });
    await call(apiKey, 'PUT', '/v1/org/ticket-types/ga', {
      eventExternalId: 'evt-1',
      name: 'GA',
      priceCents: 9000,
      currency: 'AUD',
      isGiftable: true,
      isResellable: true,
      isSwappable: false,
    });
    await call(apiKey, 'PUT', '/v1/org/tickets/t1', { ticketTypeExternalId: 'ga', holderEmail: 'h@example.com' });
    const h = (await t.signIn('h@example.com')).accessToken;
    const fan = (await t.signIn('a@example.com')).accessToken;
    expect((await call(h, 'POST', '/v1/resell/sandbox-onboarding', ONBOARD)).statusCode).toBeLessThan(300);
    const on = await call(apiKey, 'PUT', '/v1/org/events/evt-1/exchange', {
      enabled: true,
      offerMinutes: 20,
      order: 'first_come',
      maxQuantity: 4,
    });
    expect(on.statusCode, on.body).toBe(200);
    const entry = await call(fan, 'POST', '/v1/exchange/acme/evt-1/entries', {
      ticketTypeExternalId: 'ga',
      quantity: 1,
    });
    expect(entry.statusCode, entry.body).toBe(201);
    const [ticket] = await rows<{ id: number }>(`select id from user_tickets where external_id = 't1'`);
    expect((await call(h, 'POST', '/v1/exchange/returns', { userTicketId: Number(ticket.id) })).statusCode).toBe(201);
    const offer = await call(fan, 'POST', `/v1/exchange/entries/${entry.json<{ id: number }>().id}/checkout`);
    const orderId = new URL(offer.json<{ checkoutUrl: string }>().checkoutUrl).pathname.split('/').at(-1)!;
    expect((await t.app.inject({ method: 'POST', url: `/exchange/checkout/${orderId}` })).statusCode).toBe(303);
    expect(await payoutStatuses()).toEqual(['PENDING']);

    const cancelled = await call(apiKey, 'POST', '/v1/org/events/evt-1/cancel', { reason: 'Flooded.' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await t.app.services.jobs.runDue();
    expect(refunds).toEqual([[`sandbox-${orderId}`, `cancel-refund-${orderId}`]]);
    expect(await payoutStatuses()).toEqual(['CANCELLED']);
    // A second cancel queues nothing more.
    await call(apiKey, 'POST', '/v1/org/events/evt-1/cancel', {});
    await t.app.services.jobs.runDue();
    expect(refunds).toHaveLength(1);
  });
});
