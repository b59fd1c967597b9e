/** The `stripe` payout provider through the real Stripe SDK, pointed at a local fake API. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import Stripe from 'stripe';
import { createStripePayouts } from '../src/providers/payouts/stripe-payouts.js';
import {
  bearer,
  createTestApp,
  type TestApp,
  rawQuery,
  type ClientSecretBody,
  type ResellableTicketBody,
  type ListingBody,
  type CreateResaleBody,
} from './helper.js';
import { startStripeFake, type StripeRequest } from './stripe-fake.js';

const WEBHOOK_SECRET = 'whsec_test_secret';
let fake: Awaited<ReturnType<typeof startStripeFake>>;
let seen: StripeRequest[];
let t: TestApp;
const ADMIN = 'admin-key-for-tests';

// One fake Stripe for the file; a fresh app (database) per test, so that no test depends on another's account.
beforeAll(async () => {
  fake = await startStripeFake();
  seen = fake.seen;
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  seen.length = 0;
  const payouts = createStripePayouts({ secretKey: 'sk_test_123', webhookSecret: WEBHOOK_SECRET, apiUrl: fake.apiUrl });
  t = await createTestApp({ seed: true, payouts, config: { adminKey: ADMIN } });
});
afterEach(async () => {
  await t.close();
});

const sign = (payload: string) => Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
const webhook = (event: object, signature?: string) => {
  const payload = JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url: '/v1/resell/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature ?? sign(payload) },
    payload,
  });
};

/** Alice opens a custom Connect account (NZ) through the panel's call; returns her token and the answer. */
async function connect() {
  const alice = (await t.signIn('alice@example.com')).accessToken;
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/resell/stripe-connect',
    headers: bearer(alice),
    payload: { accountType: 'custom', country: 'NZ' },
  });
  expect(r.statusCode, r.body).toBe(200);
  const accountId = (await rawQuery<{ external_id: string }>(t.database.db, 'select external_id from payout_accounts'))
    .rows[0].external_id;
  return { alice, r, accountId };
}

/** Stripe's signed `account.updated` saying the account may take charges and payouts. */
const accountVerified = (id: string, accountId: string) => ({
  id,
  object: 'event',
  type: 'account.updated',
  data: {
    object: { id: accountId, object: 'account', country: 'NZ', charges_enabled: true, payouts_enabled: true },
  },
});

describe('stripe provider', () => {
  it('has no sandbox onboarding: the form cannot verify a payout account without Stripe (issue 39, fifteenth re-run)', async () => {
    const alice = (await t.signIn('alice@example.com')).accessToken;
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/resell/sandbox-onboarding',
      headers: bearer(alice),
      payload: {
        country: 'AU',
        firstName: 'Alice',
        lastName: 'Smith',
        birthdate: '1990-01-01',
        bankAccount: '062000 12345678',
      },
    });
    expect(r.statusCode, r.body).toBe(404);
    expect(r.json()).toEqual({ message: 'api.not_found' });
    expect(seen).toEqual([]);
    const state = await t.app.inject({ method: 'GET', url: '/v1/resell/stripe', headers: bearer(alice) });
    expect(state.json()).toMatchObject({ started: false, verified: false });
  });

  it('creates a custom Connect account and an AccountSession through the SDK', async () => {
    const { alice, r } = await connect();
    const account = seen.find((s) => s.path === '/v1/accounts')!;
    expect(account.auth).toBe('Bearer sk_test_123');
    expect(account.body.get('type')).toBe('custom');
    expect(account.body.get('country')).toBe('NZ');
    expect(account.body.get('email')).toBe('alice@example.com');
    expect(r.json<ClientSecretBody>().clientSecret).toMatch(/^accs_secret_acct_\d+$/);
    const state = await t.app.inject({ url: '/v1/resell/stripe', headers: bearer(alice) });
    expect(state.headers['cache-control']).toBe('no-store');
    expect(state.json()).toMatchObject({ verified: false });
  });

  it('verifies the account on a signed account.updated webhook, once per event id', async () => {
    const { alice, accountId } = await connect();
    const verified = accountVerified('evt_1', accountId);
    expect((await webhook(verified)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ url: '/v1/resell/stripe', headers: bearer(alice) })).json<ClientSecretBody>().verified,
    ).toBe(true);
    // A replay of the same event id with other content changes nothing.
    const replay = { ...verified, data: { object: { ...verified.data.object, charges_enabled: false } } };
    expect((await webhook(replay)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ url: '/v1/resell/stripe', headers: bearer(alice) })).json<ClientSecretBody>().verified,
    ).toBe(true);
  });

  it("opens an organisation's payout account (issue 45: its releases are paid to it) and verifies it on account.updated", async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/organisations',
      headers: bearer(ADMIN),
      payload: { slug: 'acme', name: 'Acme' },
    });
    const { apiKey } = made.json<{ apiKey: string }>();
    const org = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: bearer(apiKey), ...(payload ? { payload } : {}) });
    const r = await org('POST', '/v1/org/payout-account', { country: 'nz' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json<ClientSecretBody>().clientSecret).toMatch(/^accs_secret_acct_\d+$/);
    const account = seen.find((s) => s.path === '/v1/accounts')!;
    expect(account.body.get('country')).toBe('NZ');
    expect(account.body.get('email')).toBeNull();
    // Stripe's onboarding only: the sandbox form is not there.
    const sandbox = await org('POST', '/v1/org/payout-account/sandbox-onboarding', {
      country: 'NZ',
      firstName: 'A',
      lastName: 'B',
      birthdate: '1990-01-02',
      bankAccount: '062-000 12345678',
    });
    expect(sandbox.statusCode).toBe(404);
    expect((await org('GET', '/v1/org/payout-account')).json()).toMatchObject({ started: true, verified: false });
    const accountId = (
      await rawQuery<{ external_id: string }>(t.database.db, 'select external_id from organisation_payout_accounts')
    ).rows[0].external_id;
    expect((await webhook(accountVerified('evt_org_1', accountId))).statusCode).toBe(200);
    expect((await org('GET', '/v1/org/payout-account')).json()).toMatchObject({ started: true, verified: true });
    // No holder's account was touched.
    expect((await rawQuery(t.database.db, 'select 1 from payout_accounts')).rows).toHaveLength(0);
  });

  it('the payout status read asks Stripe nothing; an account session is made only when onboarding opens (issue 28)', async () => {
    const bob = (await t.signIn('bob@example.com')).accessToken;
    const calls = () => seen.filter((s) => s.path.startsWith('/v1/account')).map((s) => s.path);
    const before = calls().length;
    const status = () => t.app.inject({ url: '/v1/resell/stripe', headers: bearer(bob) });
    expect((await status()).json()).toEqual({ clientSecret: '', started: false, verified: false });
    const connect = await t.app.inject({
      method: 'POST',
      url: '/v1/resell/stripe-connect',
      headers: bearer(bob),
      payload: { accountType: 'custom', country: 'AU' },
    });
    expect(connect.json<ClientSecretBody>().clientSecret).toMatch(/^accs_secret_acct_\d+$/);
    // One connect and five status reads (the payout tab polling): one account, one session.
    for (let i = 0; i < 5; i++) {
      const r = await status();
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ clientSecret: '', started: true, verified: false });
    }
    expect(calls().slice(before)).toEqual(['/v1/accounts', '/v1/account_sessions']);
    // Opening the embedded onboarding again (or its session refresh) makes the next session.
    await t.app.inject({
      method: 'POST',
      url: '/v1/resell/stripe-connect',
      headers: bearer(bob),
      payload: { accountType: 'custom', country: 'AU' },
    });
    expect(calls().slice(before)).toEqual(['/v1/accounts', '/v1/account_sessions', '/v1/account_sessions']);
  });

  it('refuses a webhook with a bad signature', async () => {
    const r = await webhook({ id: 'evt_2', type: 'account.updated', data: { object: {} } }, 't=1,v1=deadbeef');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ message: 'api.resell.webhook_invalid' });
  });

  it('sends the buyer to Stripe Checkout and pays the order on checkout.session.completed', async () => {
    const { alice, accountId } = await connect();
    expect((await webhook(accountVerified('evt_0', accountId))).statusCode).toBe(200);
    const [a] = (await t.app.inject({ url: '/v1/resell/tickets/available', headers: bearer(alice) })).json<
      ResellableTicketBody[]
    >();
    const { shareLinkUrl } = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/resell',
        headers: bearer(alice),
        payload: {
          userTicketId: a.userTicketId,
          amountCount: 1,
          price: 40,
          currencyCode: a.currencyCode,
          currencySymbol: a.currencySymbol,
        },
      })
    ).json<CreateResaleBody>();
    const started = await t.app.inject({
      method: 'POST',
      url: new URL(shareLinkUrl).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'quantity=1&email=zed%40example.com&idempotencyKey=abcdefgh1',
    });
    expect(started.statusCode).toBe(303);
    expect(started.headers.location).toMatch(/^https:\/\/checkout\.example\/cs_test_/);
    const session = seen.find((s) => s.path === '/v1/checkout/sessions')!;
    expect(session.body.get('line_items[0][price_data][unit_amount]')).toBe('4400');
    const orderId = session.body.get('metadata[orderId]')!;
    const sessionId = new URL(started.headers.location as string).pathname.slice(1);
    const done = {
      id: 'evt_3',
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: sessionId,
          object: 'checkout.session',
          metadata: { orderId },
          amount_total: 4400,
          currency: 'aud',
          payment_status: 'paid',
        },
      },
    };
    // The database goes away while the order is settled: 503, and Stripe's retry of the same event pays the order
    // (the event id was recorded before settling, so the retry was taken for a replay and the order stayed PENDING).
    const settle = vi
      .spyOn(t.app.services.resale.orders, 'confirmProviderPayment')
      .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'));
    expect((await webhook(done)).statusCode).toBe(503);
    settle.mockRestore();
    expect(t.mail.sent.filter((m) => m.to === 'zed@example.com' && m.attachments?.length)).toHaveLength(0);
    expect((await webhook(done)).statusCode).toBe(200);
    // The buyer's mail carries the resale code's PDF and the event's calendar file.
    const bought = t.mail.sent.find((m) => m.to === 'zed@example.com' && m.attachments?.length);
    expect(bought?.attachments?.map((a) => a.contentType)).toEqual([
      'application/pdf',
      expect.stringMatching(/^text\/calendar/),
    ]);
    const sold = (await t.app.inject({ url: '/v1/resell/tickets/sold', headers: bearer(alice) })).json<ListingBody[]>();
    expect(sold).toHaveLength(1);
  });
});

describe('stripe webhook: events that pay nothing (issue 43)', () => {
  const completed = (id: string, object: Record<string, unknown>) => ({
    id,
    object: 'event',
    type: 'checkout.session.completed',
    data: {
      object: {
        id: 'cs_test_x',
        object: 'checkout.session',
        amount_total: 4400,
        currency: 'aud',
        payment_status: 'paid',
        ...object,
      },
    },
  });

  it('a completed session naming no order, or an order we do not have, is taken (200) and changes nothing', async () => {
    expect((await webhook(completed('evt_10', {}))).statusCode).toBe(200);
    const unknown = await webhook(completed('evt_11', { metadata: { orderId: crypto.randomUUID() } }));
    expect(unknown.statusCode).toBe(200);
    expect((await webhook(completed('evt_12', { client_reference_id: crypto.randomUUID() }))).statusCode).toBe(200);
    expect(
      (await rawQuery<{ n: number }>(t.database.db, 'select count(*)::int as n from resale_orders')).rows[0].n,
    ).toBe(0);
    expect(t.mail.sent).toEqual([]);
    // Each event id is recorded once, whatever it did.
    const ids = await rawQuery<{ id: string }>(t.database.db, 'select id from webhook_events order by id');
    expect(ids.rows.map((r) => r.id)).toEqual(['evt_10', 'evt_11', 'evt_12']);
  });

  it('an event of another type is recorded and ignored', async () => {
    const r = await webhook({ id: 'evt_20', object: 'event', type: 'payment_intent.created', data: { object: {} } });
    expect(r.statusCode).toBe(200);
    expect(t.mail.sent).toEqual([]);
  });
});

describe('a Stripe that is down (issue 39, fifteenth re-run)', () => {
  const connectAs = async (app: TestApp, email: string) =>
    app.app.inject({
      method: 'POST',
      url: '/v1/resell/stripe-connect',
      headers: bearer((await app.signIn(email)).accessToken),
      payload: { accountType: 'custom', country: 'NZ' },
    });

  it("a 5xx from Stripe, JSON or a proxy's HTML page, or an answer that is not Stripe's, answers 503 with Retry-After, not 500, and leaves no account", async () => {
    let n = 0;
    for (const [status, html, body] of [
      [500, false, null],
      [503, false, null],
      [502, true, null],
      // A gateway's JSON and an empty object: the SDK takes JSON without `error` for success (seventeenth re-run).
      [502, false, '{"message":"Internal server error"}'],
      [200, false, '{}'],
      // Bare JSON values: the SDK failed outside the call, and the process stopped (eighteenth re-run).
      [200, false, 'null'],
      [200, false, '123'],
      [200, false, '"ok"'],
      [200, false, 'true'],
      // Byte order marks before a bare value (undici drops two), and an `error` that is not Stripe's object: the
      // process stopped, or a 500 (nineteenth re-run).
      [200, false, '\uFEFF\uFEFF\uFEFF123'],
      [200, false, '\uFEFF\uFEFF\uFEFFnull'],
      [200, false, '{"error":123}'],
      [502, false, '{"error":"bad_gateway"}'],
      // Stripe's own refusals of our key or request: a 401 signed the holder out, a 404 read as a route not found.
      [401, false, '{"error":{"type":"authentication_error","message":"Invalid API Key provided"}}'],
      [404, false, '{"error":{"type":"invalid_request_error","message":"No such account"}}'],
      [400, false, '{"error":{"type":"invalid_request_error","message":"Invalid country"}}'],
      // An error whose message is not text: the SDK's own TypeError, or our log's, answered 500 (twentieth re-run).
      [200, false, '{"error":{"message":{"toString":1}}}'],
      [402, false, '{"error":{"type":"card_error","message":123}}'],
    ] as const) {
      fake.outage.status = status;
      fake.outage.html = html;
      fake.outage.body = body;
      try {
        const r = await connectAs(t, `down${status}-${++n}@example.com`);
        expect(r.statusCode, r.body).toBe(503);
        expect(r.json()).toEqual({ message: 'api.service_unavailable' });
        expect(r.headers['retry-after']).toBe('30');
      } finally {
        fake.outage.status = null;
        fake.outage.html = false;
        fake.outage.body = null;
      }
    }
    expect(await rawQuery(t.database.db, 'select 1 from payout_accounts')).toMatchObject({ rows: [] });
  });

  it('an answer past 1 MB once inflated (a gzip bomb) is Stripe unavailable, read no further; control: the same answer, small, gzipped, opens the account', async () => {
    const payouts = createStripePayouts({
      secretKey: 'sk_test_123',
      webhookSecret: WEBHOOK_SECRET,
      apiUrl: fake.apiUrl,
    });
    const account = (pad: number) => JSON.stringify({ id: 'acct_gz', object: 'account', pad: 'x'.repeat(pad) });
    fake.outage.status = 200;
    fake.outage.gzip = true;
    try {
      fake.outage.body = account(10);
      expect(await payouts.createAccount({ email: 'gz@example.com', country: 'NZ' })).toEqual({
        externalId: 'acct_gz',
      });
      fake.outage.body = account(2_000_000);
      const err = await payouts.createAccount({ email: 'gz@example.com', country: 'NZ' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ message: 'api.service_unavailable' });
    } finally {
      fake.outage.status = null;
      fake.outage.gzip = false;
      fake.outage.body = null;
    }
  });

  it('calls past STRIPE_MAX_IN_FLIGHT answer 503 at once while Stripe holds the others, and other holders are served; control: a bound of 3 sends the third to Stripe', async () => {
    for (const maxInFlight of [2, 3]) {
      const payouts = createStripePayouts({
        secretKey: 'sk_test_123',
        webhookSecret: WEBHOOK_SECRET,
        apiUrl: fake.apiUrl,
        maxInFlight,
      });
      const app = await createTestApp({ seed: true, payouts });
      seen.length = 0;
      fake.outage.hold = true;
      const waiting: ReturnType<typeof connectAs>[] = [];
      try {
        waiting.push(connectAs(app, 'held1@example.com'), connectAs(app, 'held2@example.com'));
        await vi.waitFor(() => expect(seen).toHaveLength(2), { timeout: 60_000, interval: 20 });
        const third = connectAs(app, 'third@example.com');
        if (maxInFlight === 2) {
          const r = await third;
          expect(r.statusCode, r.body).toBe(503);
          expect(r.headers['retry-after']).toBe('30');
          expect(seen).toHaveLength(2);
        } else {
          await vi.waitFor(() => expect(seen).toHaveLength(3), { timeout: 60_000, interval: 20 });
          waiting.push(third);
        }
        const me = await app.app.inject({
          url: '/v1/auth/me',
          headers: bearer((await app.signIn('other@example.com')).accessToken),
        });
        expect(me.statusCode).toBe(200);
        fake.release();
        for (const r of await Promise.all(waiting)) expect(r.statusCode).toBe(503);
      } finally {
        fake.release();
        await Promise.allSettled(waiting);
        await app.close();
      }
    }
  });

  it('one holder opens the onboarding at most PAYOUT_CONNECTS_PER_USER_PER_MINUTE times a minute', async () => {
    const app = await createTestApp({
      seed: true,
      payouts: createStripePayouts({ secretKey: 'sk_test_123', webhookSecret: WEBHOOK_SECRET, apiUrl: fake.apiUrl }),
      config: { payoutConnectsPerMinute: 2 },
    });
    try {
      const token = (await app.signIn('eager@example.com')).accessToken;
      const connect = () =>
        app.app.inject({
          method: 'POST',
          url: '/v1/resell/stripe-connect',
          headers: bearer(token),
          payload: { accountType: 'custom', country: 'NZ' },
        });
      expect((await connect()).statusCode).toBe(200);
      expect((await connect()).statusCode).toBe(200);
      const third = await connect();
      expect(third.statusCode).toBe(429);
      expect(third.json()).toEqual({ message: 'api.too_many_requests' });
      const other = await connectAs(app, 'patient@example.com');
      expect(other.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
