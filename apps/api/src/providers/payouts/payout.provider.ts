/**
 * Payouts and buyer checkout behind one interface (DESIGN: `stripe` SDK, or a `sandbox` provider so
 * the whole resale flow works offline). Amounts are integer minor units. The Stripe provider is its own module
 * (stripe-payouts.ts), loaded only when a key is set (`payoutProviderFor`, app.ts): the SDK holds about 6 MiB of heap that
 * an instance on the sandbox never needs (decision 041).
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { AppError } from '../../lib/app-error.js';

/** Seconds a client is told to wait (`Retry-After`) when Stripe could not be reached or did not answer in time. */
const STRIPE_UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

/** 503 `api.service_unavailable` with `Retry-After`: an outside outage, not our error. */
const unavailable = (cause?: unknown) =>
  new AppError(
    'api.service_unavailable',
    {},
    { 'Retry-After': String(STRIPE_UNAVAILABLE_RETRY_AFTER_SECONDS) },
    { cause },
  );

/** Statuses whose answer has no body (a `Response` cannot be made with one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/** Most bytes of one Stripe answer read, after decompression (Stripe's largest answers are a few kB). */
const STRIPE_ANSWER_MAX_BYTES = 1_000_000;

/**
 * The body of `res` as text, or null when it runs past `maxBytes` once decompressed (the rest is not read: a gzip bomb
 * from a broken gateway costs at most `maxBytes` of memory and the time to inflate them; issue 39, nineteenth re-run).
 */
async function readCapped(res: Response, maxBytes: number): Promise<string | null> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The fields of Stripe's `error` object the SDK reads as text (it builds its error's message and kind from them). */
const STRIPE_ERROR_TEXT = ['message', 'type', 'code', 'param', 'decline_code', 'doc_url'];

/**
 * Whether `error` is shaped like Stripe's: an object (not an array) whose text fields, where present, are strings. A
 * `message` that is a number or an object made the SDK or our log throw a `TypeError`, a 500 (issue 39, twentieth
 * re-run).
 */
const stripeErrorShaped = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  !Array.isArray(error) &&
  STRIPE_ERROR_TEXT.every((k) => {
    const v = (error as Record<string, unknown>)[k];
    return v === undefined || v === null || typeof v === 'string';
  });

/**
 * The JSON value of a Stripe answer's text when it has Stripe's shape: an object or an array, whose `error`, if
 * there is one, is Stripe's (`stripeErrorShaped`). Leading byte order marks are dropped first (undici drops only some of them, so a bare
 * value behind three of them reached the SDK; issue 39, nineteenth re-run). Anything else is undefined.
 */
function stripeShaped(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF+/, ''));
    if (typeof value !== 'object' || value === null) return undefined;
    if ('error' in value && !stripeErrorShaped(value.error)) return undefined;
    return value;
  } catch {
    return undefined;
  }
}

/**
 * `fetch` for the Stripe SDK that lets through only answers shaped like Stripe's (`stripeShaped`) and no larger than
 * `STRIPE_ANSWER_MAX_BYTES`, re-encoded as plain JSON. Anything else from a broken gateway before Stripe (a bare JSON
 * value such as `null` or `123`, an `error` that is not an object, a body too large) made the SDK fail outside the
 * call's promise, an uncaught error that stopped the process, or throw a `TypeError` (a 500; issue 39, eighteenth and
 * nineteenth re-runs). Its body is replaced by text that is not JSON, which the SDK reports as its own
 * `StripeAPIError` ("Invalid JSON received"), an outage here (503 with Retry-After).
 */
export async function stripeAnswersOnly(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const res = await fetch(input, init);
  if (NO_BODY.has(res.status)) return res;
  const text = await readCapped(res, STRIPE_ANSWER_MAX_BYTES);
  const value = text === null ? undefined : stripeShaped(text);
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(value === undefined ? 'not a Stripe answer' : JSON.stringify(value), {
    status: res.status,
    statusText: res.statusText,
    headers,
  });
}

/**
 * The Stripe calls of one provider: at most `maxInFlight` at once, a call past that answered at once instead of
 * waiting (issue 39, fifteenth re-run: 64 onboardings held by a silent Stripe took every slot of the instance's
 * in-flight bound, and every other holder's request was shed). A connection failure or a timeout
 * (`StripeConnectionError`, after the SDK's own retries), a 5xx or a 429 from Stripe become 503
 * `api.service_unavailable` with `Retry-After` (the fourteenth re-run: a 500 before), and so does any other error
 * the SDK throws (a 4xx: our key or our request, never the holder's; its own `TypeError` on an odd answer). The answer must hold the fields `reply` names (checked with it): the SDK takes any JSON without an `error`
 * field for success, whatever the status, so a gateway's `502 {"message": …}` or a `200 {}` came back as an account
 * with no id (issue 39, seventeenth re-run: a 500); such an answer is Stripe unavailable too.
 * @throws AppError `api.service_unavailable`
 */
export function stripeCalls(maxInFlight: number) {
  let inFlight = 0;
  return async function stripeCall<T>(call: () => Promise<unknown>, reply: z.ZodType<T>): Promise<T> {
    if (inFlight >= maxInFlight) throw unavailable();
    inFlight++;
    try {
      const answer = reply.safeParse(await call());
      if (!answer.success) throw unavailable(answer.error);
      return answer.data;
    } catch (err) {
      if (err instanceof AppError) throw err;
      // Whatever the SDK throws is Stripe unavailable: Stripe's other refusals (a revoked key's 401, a 404 for an
      // account Stripe no longer has, a 400) are not the holder's mistake and must not read as ours (a 401 here signed
      // the holder out; nineteenth re-run); its `api_error` is also its error for an answer that is not Stripe's JSON
      // (sixteenth); and a `TypeError` of its own on an answer of an odd shape is not a 500 of ours (twentieth). The
      // cause is logged with the 503.
      throw unavailable(err);
    } finally {
      inFlight--;
    }
  };
}

export interface CheckoutRequest {
  /** What is paid for: a resale order, or an exchange offer (decision 042); the sandbox's page is the kind's. */
  kind: 'resale' | 'exchange';
  orderId: string;
  currencyCode: string;
  unitAmountCents: number;
  quantity: number;
  productName: string;
  buyerEmail: string;
  successUrl: string;
  cancelUrl: string;
}

/** The envelope of a Stripe event: an id of bounded length and an object of data (issue 39, twenty-third re-run). */
const stripeEventShape = z.object({
  id: z.string().min(1).max(255),
  type: z.string().max(255),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/** A field of a Stripe object as text of at most 255 characters, else null. */
const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 && v.length <= 255 ? v : null);

/** A Stripe object's `metadata` (an object of text values), or an empty one. */
const metadataOf = (o: Record<string, unknown>): Record<string, unknown> =>
  typeof o.metadata === 'object' && o.metadata !== null && !Array.isArray(o.metadata)
    ? (o.metadata as Record<string, unknown>)
    : {};

/** An amount in minor units: a safe non-negative integer, else null. */
const minorUnits = (v: unknown): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;

/** A verified webhook event, reduced to what the resale module needs. */
export type PayoutEvent =
  | { id: string; type: 'account.updated'; accountId: string; verified: boolean; country: string | null }
  | {
      id: string;
      type: 'checkout.session.completed';
      orderId: string | null;
      sessionId: string;
      /** What the buyer was charged, minor units; null when the provider did not say. */
      amountTotalCents: number | null;
      /** ISO 4217, upper case; null when the provider did not say. */
      currencyCode: string | null;
      /** True only when the money was collected (Stripe `payment_status: 'paid'`). */
      paid: boolean;
      /** The payment (Stripe PaymentIntent id) that a later refund or dispute names; null when not said. */
      paymentIntentId: string | null;
    }
  | {
      id: string;
      /** A refund of a charge (issue 46): Stripe sends it for each refund, whole or in part. */
      type: 'charge.refunded';
      chargeId: string;
      paymentIntentId: string | null;
      /** The order the checkout named (the PaymentIntent's metadata, copied to the charge), else null. */
      orderId: string | null;
      /** The charge's amount and the part refunded so far, minor units. */
      amountCents: number | null;
      amountRefundedCents: number | null;
      /** True when the charge is refunded in full. */
      refunded: boolean;
      currencyCode: string | null;
    }
  | {
      id: string;
      /** A dispute (chargeback) opened or closed on a charge (issue 46). */
      type: 'charge.dispute.created' | 'charge.dispute.closed';
      disputeId: string;
      chargeId: string | null;
      paymentIntentId: string | null;
      /** Stripe's dispute status: on close `won`, `lost` or `warning_closed` (an inquiry that never became a chargeback). */
      status: string | null;
      amountCents: number | null;
      currencyCode: string | null;
    }
  | { id: string; type: 'other' }
  /** Signed, but not shaped like a Stripe event: answered and ignored. */
  | { id: null; type: 'malformed' };

export interface PayoutProvider {
  kind: 'sandbox' | 'stripe';
  /**
   * Creates a connected account in `country` (ISO 3166-1 alpha-2) for a seller (`email`, their address) or an
   * organisation (no address: its owner gives one in the onboarding).
   */
  createAccount(input: { email?: string; country: string }): Promise<{ externalId: string }>;
  /** A client secret for the embedded onboarding of that account. */
  createAccountSession(externalId: string): Promise<string>;
  /**
   * Where the buyer pays: a hosted checkout page. Idempotent per order: asked again for the same order
   * (and the same request), it answers the same session, so an order has one session to be paid through.
   */
  createCheckout(req: CheckoutRequest): Promise<{ url: string; sessionId: string }>;
  /** Verifies a webhook's signature and parses it. Throws when the signature is wrong. */
  parseWebhook(rawBody: Buffer, signature: string): PayoutEvent;
  /**
   * Refunds a payment (a Stripe PaymentIntent) in full. Idempotent per `idempotencyKey`: asked again with the same
   * key, the provider answers the first refund rather than making a second.
   * @returns the provider's refund id
   * @throws AppError `api.service_unavailable` (503) when the provider cannot be reached or refuses
   */
  refund(paymentIntentId: string, idempotencyKey: string): Promise<{ refundId: string }>;
}

/** The offline provider: accounts are verified by our own onboarding form; checkout is our sandbox page. */
export function createSandboxPayouts(publicUrl: string): PayoutProvider {
  return {
    kind: 'sandbox',
    createAccount() {
      return Promise.resolve({ externalId: `sbx_${randomBytes(8).toString('hex')}` });
    },
    createAccountSession(externalId) {
      return Promise.resolve(`sandbox_secret_${externalId}`);
    },
    createCheckout(req) {
      return Promise.resolve({
        url: `${publicUrl}/${req.kind}/checkout/${req.orderId}`,
        sessionId: `sbx_cs_${req.orderId}`,
      });
    },
    parseWebhook() {
      throw new Error('the sandbox provider has no webhooks');
    },
    refund() {
      // Nothing was charged: the sandbox's "payment" is its page's button.
      return Promise.resolve({ refundId: `sbx_re_${randomBytes(8).toString('hex')}` });
    },
  };
}

/**
 * A signed Stripe event reduced to what the resale module reads (`PayoutEvent`): `malformed` when it is not shaped
 * like Stripe's events, `other` for a type not handled here.
 */
export function payoutEventOf(signed: unknown): PayoutEvent {
  const parsed = stripeEventShape.safeParse(signed);
  // Signed by Stripe but not shaped like its events: nothing to do, and no 500 Stripe would retry for days (issue
  // 39, twenty-third re-run: an id missing or of 300 KB, a payload that is not an object).
  if (!parsed.success) return { id: null, type: 'malformed' };
  const event = parsed.data;
  const o = event.data.object;
  if (event.type === 'account.updated')
    return {
      id: event.id,
      type: 'account.updated',
      accountId: text(o.id) ?? '',
      verified: Boolean(o.charges_enabled && o.payouts_enabled),
      country: text(o.country),
    };
  if (event.type === 'checkout.session.completed') {
    const metadata = metadataOf(o);
    return {
      id: event.id,
      type: 'checkout.session.completed',
      // Text only: an array holding a UUID became that UUID as text and reached a uuid query (a 500 on PostgreSQL).
      orderId: text(metadata.orderId) ?? text(o.client_reference_id),
      sessionId: text(o.id) ?? '',
      amountTotalCents: typeof o.amount_total === 'number' ? o.amount_total : null,
      currencyCode: text(o.currency)?.toUpperCase() ?? null,
      paid: o.payment_status === 'paid',
      paymentIntentId: text(o.payment_intent),
    };
  }
  if (
    event.type === 'charge.refunded' ||
    event.type === 'charge.dispute.created' ||
    event.type === 'charge.dispute.closed'
  ) {
    // Handled once per charge or dispute id: one without such an id is malformed, not a refund keyed on '' that
    // would make every later such refund answer 'already' (issue 46 audit).
    const objectId = text(o.id);
    if (!objectId) return { id: null, type: 'malformed' };
    if (event.type === 'charge.refunded')
      return {
        id: event.id,
        type: 'charge.refunded',
        chargeId: objectId,
        paymentIntentId: text(o.payment_intent),
        orderId: text(metadataOf(o).orderId),
        amountCents: minorUnits(o.amount),
        amountRefundedCents: minorUnits(o.amount_refunded),
        refunded: o.refunded === true,
        currencyCode: text(o.currency)?.toUpperCase() ?? null,
      };
    return {
      id: event.id,
      type: event.type,
      disputeId: objectId,
      chargeId: text(o.charge),
      paymentIntentId: text(o.payment_intent),
      status: text(o.status),
      amountCents: minorUnits(o.amount),
      currencyCode: text(o.currency)?.toUpperCase() ?? null,
    };
  }
  return { id: event.id, type: 'other' };
}
