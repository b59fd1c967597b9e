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
    // The buyer, who never redeemed the code (no account holds the ticket), is told once at the order's e-mail.
    const told = t.mail.sent.filter((m) => m.to === 'carol@example.com' && /refunded/.test(m.subject));
    expect(told).toHaveLength(1);
    expect(told[0].subject).toMatch(/^Your payment for .+ was refunded$/);
    expect(told[0].text).toContain('The resale code you were sent no longer works.');
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

describe('the ticket of a refunded sale goes back to its seller, who is told once (decision 045)', () => {
  let alice: string;
  let carol: string;
  beforeEach(async () => {
    refunds = [];
    nextRefund = 'ok';
    t = await createTestApp({ seed: true, config, payouts: watchedPayouts() });
    alice = (await t.signIn('alice@example.com')).accessToken;
    carol = (await t.signIn('carol@example.com')).accessToken;
  });
  afterEach(async () => {
    await t.close();
  });

  /** The order's ticket: its holder's e-mail, void or not, and its history's kinds. */
  const ticketOf = async (orderId: string) => {
    const [row] = await rows<{ id: number; holder: string | null; revoked: boolean }>(
      `select ut.id, u.email as holder, ut.revoked_at is not null as revoked from resale_order_tickets rot
         join user_tickets ut on ut.id = rot.user_ticket_id left join users u on u.id = ut.holder_id
       where rot.order_id = '${orderId}'`,
    );
    const history = await rows<{ kind: string }>(
      `select kind from ticket_history where user_ticket_id = ${row.id} order by id`,
    );
    return { holder: row.holder, revoked: row.revoked, history: history.map((h) => h.kind) };
  };
  const cancelMails = (to: string) =>
    t.mail.sent.filter((m) => m.to === to && /cancel/i.test(m.subject) && !/code/i.test(m.subject)).length;
  const refundedMails = (to: string) =>
    t.mail.sent.filter((m) => m.to === to && /payment .* refunded/i.test(m.subject));
  /**
   * Holds back every job of `kind` queued from now (a test-only trigger makes it due in ten years), so the other
   * jobs run first whatever the app's own workers do; the function it returns makes them due and drops the trigger.
   */
  const holdBack = async (kind: string) => {
    await rows(`create function hold_back() returns trigger language plpgsql as $$
      begin if new.kind = '${kind}' then new.run_at := now() + interval '10 years'; end if; return new; end $$`);
    await rows(`create trigger hold_back before insert on jobs for each row execute function hold_back()`);
    return async () => {
      await rows(`drop trigger hold_back on jobs`);
      await rows(`drop function hold_back()`);
      await rows(`update jobs set run_at = '2000-01-01' where kind = '${kind}'`);
    };
  };
  /** How many tickets of the order's event `email` holds (each gets its own cancel mail). */
  const heldOfEvent = async (orderId: string, email: string) =>
    Number(
      (
        await rows<{ n: number }>(
          `select count(*)::int as n from user_tickets ut join users u on u.id = ut.holder_id
             join ticket_types tt on tt.id = ut.ticket_type_id
           where u.email = '${email}' and tt.event_id = (select tt2.event_id from resale_order_tickets rot
             join user_tickets t2 on t2.id = rot.user_ticket_id join ticket_types tt2 on tt2.id = t2.ticket_type_id
             where rot.order_id = '${orderId}')`,
        )
      )[0].n,
    );

  it('redeemed, refunded before the cancel run reaches it: back with the seller, whom the run tells; the buyer is told of the refund', async () => {
    const sale = await sellAlicesTicket(alice, 'carol@example.com');
    expect((await post(carol, `/v1/resell/redeem/${sale.code}`, {})).statusCode).toBe(200);
    const runLater = await holdBack('event_cancel');
    await cancelEventOf(sale.orderId);
    await t.app.services.jobs.runDue();
    await t.app.services.jobs.runDue();

    expect(await ticketOf(sale.orderId)).toEqual({
      holder: 'alice@example.com',
      revoked: false,
      history: ['ISSUE', 'RESALE_SOLD', 'RESALE_REDEEMED', 'SALE_REFUNDED'],
    });
    expect(refundedMails('carol@example.com')).toHaveLength(1);
    expect(refundedMails('carol@example.com')[0].text).toContain('went back to whoever sold it');
    // The run has not reached the ticket: the undo leaves the seller to it.
    expect(cancelMails('alice@example.com')).toBe(0);
    await runLater();
    await t.app.services.jobs.runDue();
    await t.app.services.jobs.runDue();
    // One mail per ticket Alice holds of the event, the one back with her among them; none to Carol.
    expect(cancelMails('alice@example.com')).toBe(await heldOfEvent(sale.orderId, 'alice@example.com'));
    expect(cancelMails('carol@example.com')).toBe(0);
    const listed = async (token: string) =>
      JSON.stringify(
        (await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(token) })).json(),
      );
    expect(await listed(alice)).toContain('"eventCancelled"');
    expect(await listed(carol)).not.toContain('"eventCancelled"');
  });

  it("the buyer's pending refund request is withdrawn when the ticket goes back; the seller is shown none and may ask", async () => {
    const sale = await sellAlicesTicket(alice, 'carol@example.com');
    expect((await post(carol, `/v1/resell/redeem/${sale.code}`, {})).statusCode).toBe(200);
    const { id: ticketId } = await rows<{ id: number }>(
      `select user_ticket_id as id from resale_order_tickets where order_id = '${sale.orderId}'`,
    ).then((r) => r[0]);
    await rows(`update events set refund_policy = 'on_cancel'
      where id = (select tt.event_id from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id
                  where ut.id = ${ticketId})`);
    const refundLater = await holdBack('cancel_refund');
    await cancelEventOf(sale.orderId);
    await t.app.services.jobs.runDue();
    // Carol, still holding it, asks the organiser for a refund before her resale payment goes back.
    const asked = await post(carol, `/v1/tickets/${ticketId}/refund-request`, {});
    expect(asked.statusCode, asked.body).toBeLessThan(300);
    const [{ id: requestId }] = await rows<{ id: number }>(
      `select id from refund_requests where user_ticket_id = ${ticketId}`,
    );

    await refundLater();
    await t.app.services.jobs.runDue();
    expect((await ticketOf(sale.orderId)).holder).toBe('alice@example.com');
    expect(await rows(`select status from refund_requests where id = ${requestId}`)).toEqual([{ status: 'withdrawn' }]);
    const [org] = await rows<{ slug: string }>(
      `select o.slug from organisations o join events e on e.organisation_id = o.id where e.external_id = 'to-cancel'`,
    );
    const { apiKey } = (await t.app.services.organisations.admin.addKeyBySlug(org.slug))!;
    const decide = (id: number, what: 'approve' | 'decline', payload: object) =>
      post(apiKey, `/v1/org/refund-requests/${id}/${what}`, payload);
    expect((await decide(requestId, 'approve', { reference: 'R-1' })).json()).toMatchObject({
      message: 'api.org.refund_request_decided',
    });
    // Alice, the holder again, is shown no request of Carol's and may ask herself.
    const refundOf = async () =>
      (await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(alice) }))
        .json<{ userTicketId: number; refund: { requestable: boolean; request: unknown } }[]>()
        .find((x) => x.userTicketId === ticketId)!.refund;
    expect(await refundOf()).toMatchObject({ requestable: true, request: null });
    const own = await post(alice, `/v1/tickets/${ticketId}/refund-request`, {});
    expect(own.statusCode, own.body).toBeLessThan(300);

    // A request whose asker no longer holds the ticket (made stale here by hand): never shown to the holder, not
    // approved (it would void the holder's ticket), declined without telling the holder.
    const [{ id: carolId }] = await rows<{ id: number }>(`select id from users where email = 'carol@example.com'`);
    await rows(
      `update refund_requests set user_id = ${carolId} where user_ticket_id = ${ticketId} and status = 'pending'`,
    );
    const [{ id: stale }] = await rows<{ id: number }>(
      `select id from refund_requests where user_ticket_id = ${ticketId} and status = 'pending'`,
    );
    expect(await refundOf()).toMatchObject({ request: null });
    const approved = await decide(stale, 'approve', { reference: 'R-2' });
    expect(approved.statusCode).toBe(409);
    expect(approved.json()).toMatchObject({ message: 'api.org.ticket_moved' });
    expect((await ticketOf(sale.orderId)).revoked).toBe(false);
    const declinedMails = () => t.mail.sent.filter((m) => /declined|rechaz/i.test(m.subject)).length;
    expect((await decide(stale, 'decline', { reason: 'Not this one.' })).statusCode).toBe(200);
    await t.app.services.jobs.runDue();
    expect(declinedMails()).toBe(0);
  });

  it('after the cancel run told the buyer: the undo tells the seller; Stripe reporting the same refund later changes nothing', async () => {
    const sale = await sellAlicesTicket(alice, 'carol@example.com');
    expect((await post(carol, `/v1/resell/redeem/${sale.code}`, {})).statusCode).toBe(200);
    const refundLater = await holdBack('cancel_refund');
    await cancelEventOf(sale.orderId);
    await t.app.services.jobs.runDue();
    await t.app.services.jobs.runDue();
    expect(cancelMails('carol@example.com')).toBe(1);
    const alicesOthers = await heldOfEvent(sale.orderId, 'alice@example.com');
    expect(cancelMails('alice@example.com')).toBe(alicesOthers);

    await refundLater();
    await t.app.services.jobs.runDue();
    await t.app.services.jobs.runDue();
    expect(refunds).toHaveLength(1);
    expect((await ticketOf(sale.orderId)).holder).toBe('alice@example.com');
    expect(cancelMails('alice@example.com')).toBe(alicesOthers + 1);
    expect(refundedMails('carol@example.com')).toHaveLength(1);

    const reported = await post(config.adminKey, '/v1/admin/sandbox/payment-events', {
      type: 'charge.refunded',
      orderId: sale.orderId,
    });
    expect(reported.json()).toEqual({ outcome: 'done' });
    await t.app.services.jobs.runDue();
    expect(await ticketOf(sale.orderId)).toMatchObject({ holder: 'alice@example.com', revoked: false });
    expect(refundedMails('carol@example.com')).toHaveLength(1);
    expect(cancelMails('alice@example.com')).toBe(alicesOthers + 1);
  });

  it('a refund Stripe reports before the job: the sale is undone by it, and the job refunds nothing more', async () => {
    const sale = await sellAlicesTicket(alice, 'carol@example.com');
    await cancelEventOf(sale.orderId);
    const reported = await post(config.adminKey, '/v1/admin/sandbox/payment-events', {
      type: 'charge.refunded',
      orderId: sale.orderId,
    });
    expect(reported.json()).toEqual({ outcome: 'done' });
    // The code was not redeemed: nobody held the ticket, it goes straight back.
    expect(await ticketOf(sale.orderId)).toEqual({
      holder: 'alice@example.com',
      revoked: false,
      history: ['ISSUE', 'RESALE_SOLD', 'SALE_REFUNDED'],
    });
    await t.app.services.jobs.runDue();
    expect(refunds).toEqual([]);
    expect(await payoutStatuses()).toEqual(['CANCELLED']);
  });

  it('a ticket the buyer gifted on stays with its current holder; a payout already paid leaves the ticket with the buyer', async () => {
    const gifted = await sellAlicesTicket(alice, 'carol@example.com');
    expect((await post(carol, `/v1/resell/redeem/${gifted.code}`, {})).statusCode).toBe(200);
    await rows(
      `update user_tickets set holder_id = (select id from users where email = 'bob@example.com')
       where id in (select user_ticket_id from resale_order_tickets where order_id = '${gifted.orderId}')`,
    );
    await cancelEventOf(gifted.orderId);
    await t.app.services.jobs.runDue();
    expect(refunds).toHaveLength(1);
    expect(await ticketOf(gifted.orderId)).toMatchObject({ holder: 'bob@example.com', revoked: false });
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
    // The returned ticket is its returner's again (decision 045), not void.
    expect(
      await rows(
        `select u.email, ut.revoked_at is null as admits from user_tickets ut join users u on u.id = ut.holder_id
         where ut.external_id = 't1'`,
      ),
    ).toEqual([{ email: 'h@example.com', admits: true }]);
    // A second cancel queues nothing more.
    await call(apiKey, 'POST', '/v1/org/events/evt-1/cancel', {});
    await t.app.services.jobs.runDue();
    expect(refunds).toHaveLength(1);
  });
});
