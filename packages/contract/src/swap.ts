/** Swap payloads (spec section 3, Swap). */
import * as z from 'zod';
import { count, rowId } from './fields.js';

export const swapTicket = z.object({
  id: z.number().int(),
  name: z.string(),
  logo: z.string().nullable(),
  price: z.number(),
  currencySymbol: z.string(),
  currencyCode: z.string(),
  quantity: z.number().int(),
  eventId: z.number().int(),
  /** Beyond the spec's fields (section 3 "other swap field names: not shown"): the event, so a card can show title, date and venue. */
  eventName: z.string().optional(),
  eventVenue: z.string().optional(),
  eventCity: z.string().optional(),
  /** ISO 8601 UTC; shown in eventTimeZone (IANA). */
  eventStartDateTime: z.string().optional(),
  eventTimeZone: z.string().optional(),
  /** Base tickets only: the caller's eligible user ticket ids of this type, so USER_TICKET_ID can pre-select its group. */
  userTicketIds: z.array(z.number().int()).optional(),
});
export type SwapTicket = z.infer<typeof swapTicket>;
export type StartSwapResponse = z.infer<typeof startSwapResponse>;
export const startSwapRequest = z.strictObject({
  baseTicketId: rowId,
  swapPairId: rowId,
  swapQuantity: count,
});
export const startSwapResponse = z.object({
  swapType: z.enum(['UPGRADE', 'DOWNGRADE']),
  orderIdentifier: z.string(),
  name: z.string(),
});
