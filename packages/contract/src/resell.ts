/** Resale payloads (spec section 3). Prices here are decimal major units as the panel shows them. */
import * as z from 'zod';

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
  listedDate: z.string(),
  soldDate: z.string().nullable(),
  shareLinkUrl: z.string(),
});
export const createResaleRequest = z.strictObject({
  userTicketId: z.number().int().positive(),
  amountCount: z.number().int().positive(),
  price: z.number().nonnegative(),
  currencyCode: z.string().length(3),
  currencySymbol: z.string().max(4),
});
export const createResaleResponse = z.object({ shareLinkUrl: z.string() });
export const priceCalculationRequest = z.strictObject({
  selectedPrice: z.number().nonnegative(),
  quantity: z.number().int().positive(),
  ticketId: z.number().int().positive(),
});
export const priceCalculationResponse = z.object({ basePrice: z.number(), serviceFee: z.number(), totalPrice: z.number() });
export const unlistRequest = z.strictObject({ userTicketId: z.number().int().positive() });
export const stripeConnectRequest = z.strictObject({ accountType: z.literal('custom') });
export const clientSecretResponse = z.object({ clientSecret: z.string() });
export const redeemResponse = z.object({ name: z.string(), logo: z.string().nullable() });
