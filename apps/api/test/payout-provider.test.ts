/**
 * The payout providers as units (issue 43, the money group): the sandbox's ids and pages, and how the Stripe
 * provider sets up the SDK and reads Stripe's answers and events. The SDK is replaced by a stand-in that records
 * its options and calls, so that what no request to the local fake can show (the production host's retries and
 * timeout, a URL's default port) is checked too; the requests themselves are tested against the fake in
 * stripe.test.ts and resale-stripe-money.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSandboxPayouts, type PayoutProvider } from '../src/providers/payouts/payout.provider.js';
import type * as Provider from '../src/providers/payouts/stripe-payouts.js';

const sdk = {
  options: [] as unknown[],
  created: [] as { what: string; body: unknown; opts?: unknown }[],
  session: { id: 'cs_1', url: null as string | null },
  event: {} as unknown,
};
/** What the stand-in's `createFetchHttpClient` gives: the provider must pass it on (a total bound per request). */
const FETCH_CLIENT = 'the fetch http client';
class FakeStripe {
  static createFetchHttpClient = () => FETCH_CLIENT;
  constructor(_key: string, options: unknown) {
    sdk.options.push(options);
  }
  accounts = { create: (body: unknown) => (sdk.created.push({ what: 'account', body }), { id: 'acct_1' }) };
  accountSessions = {
    create: (body: unknown) => (sdk.created.push({ what: 'session', body }), { client_secret: 'accs_1' }),
  };
  checkout = {
    sessions: {
      create: (body: unknown, opts: unknown) => (sdk.created.push({ what: 'checkout', body, opts }), sdk.session),
    },
  };
  webhooks = { constructEvent: () => sdk.event };
}

let createStripePayouts: typeof Provider.createStripePayouts;
beforeAll(async () => {
  // A copy of the provider module of its own (the query), importing the stand-in: the files that share this worker
  // (\`isolate: false\`) keep the real SDK and the module instances they have.
  vi.doMock('stripe', () => ({ default: FakeStripe }));
  const copy = '../src/providers/payouts/stripe-payouts.js?stand-in';
  ({ createStripePayouts } = (await import(copy)) as typeof Provider);
});
afterAll(() => {
  vi.doUnmock('stripe');
});

const stripe = (apiUrl: string | null, timeoutMs?: number): PayoutProvider =>
  createStripePayouts({ secretKey: 'sk', webhookSecret: 'whsec', apiUrl, timeoutMs });

describe('the sandbox payout provider', () => {
  it('makes its own account ids and secrets, and its checkout is the sandbox page of the order', async () => {
    const p = createSandboxPayouts('http://panel.test');
    expect(p.kind).toBe('sandbox');
    const { externalId } = await p.createAccount({ email: 'a@example.com', country: 'AU' });
    expect(externalId).toMatch(/^sbx_[0-9a-f]{16}$/);
    expect((await p.createAccount({ email: 'a@example.com', country: 'AU' })).externalId).not.toBe(externalId);
    expect(await p.createAccountSession(externalId)).toBe(`sandbox_secret_${externalId}`);
    const checkoutRequest = {
      kind: 'resale' as const,
      orderId: 'o-1',
      currencyCode: 'AUD',
      unitAmountCents: 100,
      quantity: 1,
      productName: 'x',
      buyerEmail: 'b@example.com',
      successUrl: 'http://panel.test/ok',
      cancelUrl: 'http://panel.test/no',
    };
    const checkout = await p.createCheckout(checkoutRequest);
    expect(checkout).toEqual({ url: 'http://panel.test/resale/checkout/o-1', sessionId: 'sbx_cs_o-1' });
    // An exchange offer's checkout is the exchange's own sandbox page.
    expect((await p.createCheckout({ ...checkoutRequest, kind: 'exchange', orderId: 'o-2' })).url).toBe(
      'http://panel.test/exchange/checkout/o-2',
    );
    expect(() => p.parseWebhook(Buffer.from('{}'), 'sig')).toThrow('the sandbox provider has no webhooks');
  });
});

describe('the Stripe payout provider', () => {
  it("talks to Stripe with two retries and a 20 s bound, or to another API (no retries) on its URL's port", () => {
    sdk.options.length = 0;
    stripe(null);
    stripe(null, 5000);
    stripe('http://127.0.0.1:4010');
    stripe('http://stripe.internal');
    stripe('https://stripe.internal');
    expect(sdk.options).toEqual([
      { maxNetworkRetries: 2, timeout: 20_000, httpClient: FETCH_CLIENT },
      { maxNetworkRetries: 2, timeout: 5000, httpClient: FETCH_CLIENT },
      {
        host: '127.0.0.1',
        port: 4010,
        protocol: 'http',
        maxNetworkRetries: 0,
        timeout: 20_000,
        httpClient: FETCH_CLIENT,
      },
      {
        host: 'stripe.internal',
        port: 80,
        protocol: 'http',
        maxNetworkRetries: 0,
        timeout: 20_000,
        httpClient: FETCH_CLIENT,
      },
      {
        host: 'stripe.internal',
        port: 443,
        protocol: 'https',
        maxNetworkRetries: 0,
        timeout: 20_000,
        httpClient: FETCH_CLIENT,
      },
    ]);
  });

  it('opens custom accounts and their onboarding sessions', async () => {
    sdk.created.length = 0;
    const p = stripe(null);
    expect(p.kind).toBe('stripe');
    expect(await p.createAccount({ email: 'a@example.com', country: 'NZ' })).toEqual({ externalId: 'acct_1' });
    expect(await p.createAccountSession('acct_1')).toBe('accs_1');
    expect(sdk.created).toEqual([
      {
        what: 'account',
        body: {
          type: 'custom',
          country: 'NZ',
          email: 'a@example.com',
          capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
        },
      },
      { what: 'session', body: { account: 'acct_1', components: { account_onboarding: { enabled: true } } } },
    ]);
  });

  it('opens one checkout session per order; a session with no page is Stripe unavailable (503), not a silent return to the listing', async () => {
    sdk.session = { id: 'cs_1', url: null };
    const request = {
      kind: 'resale' as const,
      orderId: 'o-1',
      currencyCode: 'AUD',
      unitAmountCents: 4400,
      quantity: 2,
      productName: 'Event - Type',
      buyerEmail: 'b@example.com',
      successUrl: 'http://panel.test/ok',
      cancelUrl: 'http://panel.test/r/token',
    };
    // A hosted checkout always has its page: an answer without one is not Stripe's (issue 39, seventeenth re-run), and
    // the buyer is told payment is unavailable for a moment rather than sent back to the listing with nothing said.
    await expect(stripe(null).createCheckout(request)).rejects.toMatchObject({
      code: 'api.service_unavailable',
      status: 503,
      headers: { 'Retry-After': '30' },
    });
    // One line of `quantity` at the unit price, in Stripe's lower-case currency, the order named twice; Stripe's
    // idempotency key is the order's, so asking again answers the same session.
    expect(sdk.created.at(-1)).toEqual({
      what: 'checkout',
      body: {
        mode: 'payment',
        customer_email: 'b@example.com',
        success_url: 'http://panel.test/ok',
        cancel_url: 'http://panel.test/r/token',
        metadata: { orderId: 'o-1' },
        payment_intent_data: { metadata: { orderId: 'o-1' } },
        client_reference_id: 'o-1',
        line_items: [
          {
            quantity: 2,
            price_data: { currency: 'aud', unit_amount: 4400, product_data: { name: 'Event - Type' } },
          },
        ],
      },
      opts: { idempotencyKey: 'resale-checkout-o-1' },
    });
    sdk.session = { id: 'cs_2', url: 'https://checkout.stripe.com/cs_2' };
    expect((await stripe(null).createCheckout({ ...request, orderId: 'o-2' })).url).toBe(
      'https://checkout.stripe.com/cs_2',
    );
  });

  it('reads the events it knows and names the others', () => {
    const p = stripe(null);
    const parse = (event: object) => {
      sdk.event = event;
      return p.parseWebhook(Buffer.from(''), 'sig');
    };
    const account = (object: object) => parse({ id: 'evt_a', type: 'account.updated', data: { object } });
    expect(account({ id: 'acct_1', charges_enabled: true, payouts_enabled: true, country: 'AU' })).toEqual({
      id: 'evt_a',
      type: 'account.updated',
      accountId: 'acct_1',
      verified: true,
      country: 'AU',
    });
    expect(account({ id: 'acct_1', charges_enabled: true, payouts_enabled: false })).toMatchObject({
      verified: false,
      country: null,
    });
    expect(account({ id: 'acct_1', charges_enabled: false, payouts_enabled: true })).toMatchObject({ verified: false });
    const session = (object: object) =>
      parse({ id: 'evt_s', type: 'checkout.session.completed', data: { object: { id: 'cs_1', ...object } } });
    expect(
      session({
        metadata: { orderId: 'o-meta' },
        client_reference_id: 'o-ref',
        amount_total: 0,
        currency: 'aud',
        payment_status: 'paid',
        payment_intent: 'pi_1',
      }),
    ).toEqual({
      id: 'evt_s',
      type: 'checkout.session.completed',
      orderId: 'o-meta',
      sessionId: 'cs_1',
      amountTotalCents: 0,
      currencyCode: 'AUD',
      paid: true,
      paymentIntentId: 'pi_1',
    });
    expect(session({ client_reference_id: 'o-ref', payment_status: 'unpaid' })).toMatchObject({
      orderId: 'o-ref',
      amountTotalCents: null,
      currencyCode: null,
      paid: false,
    });
    expect(session({ amount_total: '4400', currency: '' })).toMatchObject({
      orderId: null,
      amountTotalCents: null,
      currencyCode: null,
    });
    // Issue 46: a refund and a dispute, with bounded text and safe amounts only.
    const refund = (object: object) =>
      parse({ id: 'evt_r', type: 'charge.refunded', data: { object: { id: 'ch_1', ...object } } });
    expect(
      refund({
        payment_intent: 'pi_1',
        metadata: { orderId: 'o-1' },
        amount: 8800,
        amount_refunded: 8800,
        refunded: true,
        currency: 'aud',
      }),
    ).toEqual({
      id: 'evt_r',
      type: 'charge.refunded',
      chargeId: 'ch_1',
      paymentIntentId: 'pi_1',
      orderId: 'o-1',
      amountCents: 8800,
      amountRefundedCents: 8800,
      refunded: true,
      currencyCode: 'AUD',
    });
    expect(
      refund({ payment_intent: ['pi_1'], metadata: ['o-1'], amount: -1, amount_refunded: 1.5, refunded: 'yes' }),
    ).toMatchObject({
      paymentIntentId: null,
      orderId: null,
      amountCents: null,
      amountRefundedCents: null,
      refunded: false,
      currencyCode: null,
    });
    for (const type of ['charge.dispute.created', 'charge.dispute.closed'])
      expect(
        parse({
          id: 'evt_d',
          type,
          data: { object: { id: 'dp_1', charge: 'ch_1', payment_intent: 'pi_1', status: 'lost', amount: 10 } },
        }),
      ).toEqual({
        id: 'evt_d',
        type,
        disputeId: 'dp_1',
        chargeId: 'ch_1',
        paymentIntentId: 'pi_1',
        status: 'lost',
        amountCents: 10,
        currencyCode: null,
      });
    // Without its charge's or dispute's id (or with one past 255 characters) there is nothing to handle it once by:
    // before, each was keyed on '' and every later one of another payment answered 'already'.
    for (const type of ['charge.refunded', 'charge.dispute.created', 'charge.dispute.closed'])
      for (const id of [undefined, 'x'.repeat(256), 7])
        expect(parse({ id: 'evt_n', type, data: { object: { id, payment_intent: 'pi_1', refunded: true } } })).toEqual({
          id: null,
          type: 'malformed',
        });
    expect(parse({ id: 'evt_o', type: 'payment_intent.created', data: { object: {} } })).toEqual({
      id: 'evt_o',
      type: 'other',
    });
  });
});
