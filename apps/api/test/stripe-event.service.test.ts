/**
 * The Stripe webhook's handler (`stripe-event.service.ts`) with its use cases replaced, for what the signed events of
 * the integration tests cannot provoke: settling that fails with an error of the app other than "no such order" or
 * "tickets gone" (issue 43: a mutant that passed such an error to the exchange offers lived).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../src/lib/app-error.js';
import { createStripeEventService } from '../src/modules/resale/stripe-event.service.js';
import type { OrderService } from '../src/modules/resale/order.service.js';
import type { PayoutEvent } from '../src/providers/payouts/payout.provider.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

/** The handler with `event` as the signed event and every use case a spy that must not be called unless said. */
function handlerOf(event: PayoutEvent, confirmProviderPayment: OrderService['confirmProviderPayment']) {
  const unused = vi.fn(() => Promise.reject(new Error('not this event')));
  const use = {
    settle: vi.fn(() => Promise.resolve({ status: 'unknown' as const })),
    recordPaymentIntent: vi.fn(() => Promise.resolve()),
    warn: vi.fn(),
  };
  const service = createStripeEventService({
    database: t.database,
    now: t.clock.now,
    payouts: { parseWebhook: () => event },
    orders: { confirmProviderPayment },
    payoutAccounts: { accountUpdated: unused },
    reversals: {
      refunded: unused,
      disputeOpened: unused,
      disputeClosed: unused,
      recordPaymentIntent: use.recordPaymentIntent,
    },
    offers: { settle: use.settle },
    mismatches: { record: unused },
  });
  return { ...use, unused, deliver: () => service.handle(Buffer.from('{}'), 't=1,v1=x', { warn: use.warn }) };
}

describe('the Stripe webhook handler', () => {
  it('an event of a type it does not handle changes nothing and says nothing', async () => {
    const h = handlerOf({ id: 'evt_other', type: 'other' }, vi.fn());
    await h.deliver();
    await h.deliver();
    expect(h.unused).not.toHaveBeenCalled();
    expect(h.warn).not.toHaveBeenCalled();
  });

  it('an error that is no answer about the payment is thrown, the event left unrecorded, and its retry pays', async () => {
    const event: PayoutEvent = {
      id: 'evt_busy',
      type: 'checkout.session.completed',
      orderId: randomUUID(),
      sessionId: 'cs_busy',
      amountTotalCents: 4400,
      currencyCode: 'AUD',
      paid: true,
      paymentIntentId: 'pi_busy',
    };
    let failure: AppError | null = new AppError('api.busy');
    const confirmProviderPayment = vi.fn(() =>
      failure ? Promise.reject(failure) : Promise.resolve({ status: 'paid' as const, code: 'ABCD-EFGH' }),
    );
    const { deliver, settle, recordPaymentIntent, warn } = handlerOf(event, confirmProviderPayment);

    // Answered 500 (thrown), not swallowed: were the event recorded, Stripe's retry would be taken for a replay.
    await expect(deliver()).rejects.toBe(failure);
    expect(settle).not.toHaveBeenCalled();
    expect(recordPaymentIntent).not.toHaveBeenCalled();
    failure = null;
    await deliver();
    expect(recordPaymentIntent).toHaveBeenCalledWith(event.orderId, 'pi_busy');
    // Handled once recorded: a third delivery settles nothing.
    await deliver();
    expect(confirmProviderPayment).toHaveBeenCalledTimes(2);
    expect(warn).not.toHaveBeenCalled();
  });
});
