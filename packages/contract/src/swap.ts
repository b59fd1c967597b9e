/** Swap payloads (spec section 3, Swap). */
import * as z from 'zod';

export const swapTicket = z.object({
  id: z.number().int(),
  name: z.string(),
  logo: z.string().nullable(),
  price: z.number(),
  currencySymbol: z.string(),
  currencyCode: z.string(),
  quantity: z.number().int(),
  eventId: z.number().int(),
});
export const startSwapRequest = z.strictObject({
  baseTicketId: z.number().int().positive(),
  swapPairId: z.number().int().positive(),
  swapQuantity: z.number().int().positive(),
});
export const startSwapResponse = z.object({
  swapType: z.enum(['UPGRADE', 'DOWNGRADE']),
  orderIdentifier: z.string(),
  name: z.string(),
});
