/**
 * Payments that pay nothing as they stand (issue 46, "Payments that go back"): a reported payment whose amount,
 * currency or checkout session is not its order's, one for an exchange offer that had ended, or a refund or dispute of
 * a payment that matches no order. Each is flagged for the operator (`GET /v1/admin/payments/mismatched`,
 * `Authorization: Bearer <ADMIN_KEY>`), who refunds it or settles its order explicitly. Money in minor units; times
 * ISO 8601 UTC.
 */
import * as z from 'zod';

/**
 * Why a payment was flagged: `not_paid` (the session completed without the money collected), `session` (another
 * session than the order's, also one paying an order already paid), `amount`, `currency` (not the order's), `ended`
 * (an exchange offer paid after it ended, a resale order paid after its tickets went to another buyer),
 * `unknown_payment` (a refund or dispute of a payment that matches no order).
 */
export const PAYMENT_MISMATCH_REASONS = [
  'not_paid',
  'session',
  'amount',
  'currency',
  'ended',
  'unknown_payment',
] as const;
export const paymentMismatchReason = z.enum(PAYMENT_MISMATCH_REASONS);
export type PaymentMismatchReason = z.infer<typeof paymentMismatchReason>;

/** What the operator did: refunded the payment, or settled its order as if it matched. */
export const paymentMismatchResolution = z.enum(['refunded', 'settled']);
export type PaymentMismatchResolution = z.infer<typeof paymentMismatchResolution>;

/** Most flagged payments one page answers. */
export const PAYMENT_MISMATCH_PAGE_MAX = 100;

/**
 * Query of GET /v1/admin/payments/mismatched: the unresolved ones (default), or with `resolved=true` the resolved
 * ones; newest first, `limit` a page (at most 100), `cursor` the previous page's `nextCursor`.
 */
export const paymentMismatchQuery = z.object({
  resolved: z.enum(['true', 'false']).default('false').meta({ description: '`true`: the resolved ones instead' }),
  cursor: z.string().max(200).optional().meta({ description: 'the `nextCursor` of the previous page (opaque)' }),
  limit: z.coerce.number().int().min(1).max(PAYMENT_MISMATCH_PAGE_MAX).default(50),
});
export type PaymentMismatchQuery = z.infer<typeof paymentMismatchQuery>;

/** One flagged payment, as the provider reported it. */
export const paymentMismatch = z.object({
  id: z.number().int(),
  /** The order's kind: `resale` or `exchange`; null when no order of ours was found. */
  kind: z.enum(['resale', 'exchange']).nullable(),
  orderId: z.string().nullable(),
  /** The provider's checkout session and payment (Stripe PaymentIntent, what a refund names), where it said. */
  sessionId: z.string().nullable(),
  paymentIntentId: z.string().nullable(),
  amountCents: z.number().int().nullable(),
  currencyCode: z.string().nullable(),
  reason: paymentMismatchReason,
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolution: paymentMismatchResolution.nullable(),
});
export type PaymentMismatch = z.infer<typeof paymentMismatch>;

/** GET /v1/admin/payments/mismatched answer: a page, `nextCursor` null on the last. */
export const paymentMismatchPage = z
  .object({ items: z.array(paymentMismatch), nextCursor: z.string().nullable() })
  .meta({
    examples: [
      {
        items: [
          {
            id: 7,
            kind: 'resale',
            orderId: '0b6f2c1e-4c1a-4d8e-9a57-3f1c2d4e5f60',
            sessionId: 'cs_test_a1b2c3',
            paymentIntentId: 'pi_3Qx1y2z3',
            amountCents: 100,
            currencyCode: 'AUD',
            reason: 'amount',
            createdAt: '2027-01-10T09:30:00.000Z',
            resolvedAt: null,
            resolution: null,
          },
        ],
        nextCursor: null,
      },
    ],
  });
export type PaymentMismatchPage = z.infer<typeof paymentMismatchPage>;

/** Path parameter `{ id }` of a flagged payment. */
export const paymentMismatchParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
