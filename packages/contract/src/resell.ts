/** Resale payloads (spec section 3). Prices here are decimal major units as the panel shows them. */
import * as z from 'zod';
import { count, rowId } from './fields.js';
import { NAME_MAX_LENGTH } from './profile.js';

export const resellableTicket = z.object({
  userTicketId: z.number().int(),
  ticketId: z.number().int(),
  ticketName: z.string(),
  ticketLogo: z.string().nullable(),
  availableTicketCount: z.number().int(),
  ticketPrice: z.number(),
  maxTicketPrice: z.number(),
  currencyCode: z.string(),
  currencySymbol: z.string(),
});
export const listing = z.object({
  userTicketId: z.number().int(),
  name: z.string(),
  ticketLogo: z.string().nullable(),
  price: z.number(),
  currencySymbol: z.string(),
  /** Beyond the spec (issue 29): the ISO 4217 code, so the panel writes the price with Intl in its language. */
  currencyCode: z.string(),
  listedDate: z.string(),
  soldDate: z.string().nullable(),
  shareLinkUrl: z.string(),
});
export const createResaleRequest = z.strictObject({
  userTicketId: rowId,
  amountCount: count,
  price: z.number().nonnegative(),
  currencyCode: z.string().length(3),
  currencySymbol: z.string().max(4),
});
export const createResaleResponse = z.object({ shareLinkUrl: z.string() });
export const priceCalculationRequest = z.strictObject({
  selectedPrice: z.number().nonnegative(),
  quantity: count,
  ticketId: rowId,
});
export const priceCalculationResponse = z.object({
  basePrice: z.number(),
  serviceFee: z.number(),
  totalPrice: z.number(),
});
export const unlistRequest = z.strictObject({ userTicketId: rowId });
export const stripeConnectRequest = z.strictObject({
  accountType: z.literal('custom'),
  country: z.string().length(2).optional(),
});
/** Payout account state: clientSecret '' when onboarding has not started; verified once the provider verified it. */
/**
 * POST /resell/stripe-connect: `clientSecret` of a new account session for the embedded onboarding.
 * GET /resell/stripe: the stored state; `clientSecret` is '' there (no session is made for a read,
 * decision 018), `started` true once a payout account exists, `verified` once the provider verified it.
 */
export const clientSecretResponse = z.object({
  clientSecret: z.string(),
  started: z.boolean().optional(),
  verified: z.boolean().optional(),
});
/** The sandbox payout onboarding form (what Stripe would collect). */
export const sandboxOnboardingRequest = z.strictObject({
  country: z.string().length(2),
  firstName: z.string().trim().min(1).max(NAME_MAX_LENGTH),
  lastName: z.string().trim().min(1).max(NAME_MAX_LENGTH),
  birthdate: z.iso.date(),
  bankAccount: z
    .string()
    .trim()
    .regex(/^[0-9 -]{6,34}$/),
});
/**
 * POST /v1/admin/sandbox/payment-events (sandbox payout provider only, ADMIN_KEY; issue 46): the sandbox's stand-in for
 * Stripe's refund and dispute webhooks, so the flows can be tried without Stripe. `orderId` is the resale order's or
 * the exchange offer's; `status` is the closed dispute's (`won`: the tickets admit again, `lost`: as a refund).
 */
export const sandboxPaymentEventRequest = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('charge.refunded'), orderId: z.uuid() }),
  z.strictObject({ type: z.literal('charge.dispute.created'), orderId: z.uuid() }),
  z.strictObject({ type: z.literal('charge.dispute.closed'), orderId: z.uuid(), status: z.enum(['won', 'lost']) }),
]);
/** Its answer: `done`, `already` (this refund or dispute was handled before), `unknown` (no paid order has that id). */
export const sandboxPaymentEventResponse = z.object({ outcome: z.enum(['done', 'already', 'unknown']) });

/** A listing as returned by the sales and sold lists: the spec's fields plus quantity and fee. */
export const listingWithTotals = listing.extend({
  listingId: z.number().int(),
  quantity: z.number().int(),
  soldQuantity: z.number().int(),
  serviceFee: z.number(),
  total: z.number(),
});
export const redeemResponse = z.object({ name: z.string(), logo: z.string().nullable() });

/** POST /resell/{ticketId}: the secret-code PDF (`application/pdf`), bytes. */
export const codePdf = z.string().meta({ format: 'binary' });
