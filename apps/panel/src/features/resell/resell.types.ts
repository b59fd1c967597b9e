/** Resale payload types, inferred from the contract's schemas (types only: no zod at run time here). */
import type * as z from 'zod';
import type { resell } from '@tp/contract';

/** An owned resellable ticket entry (one per ticket type; `ticketName` is "Event · Type"). Money in major units. */
export type ResellableTicket = z.infer<typeof resell.resellableTicket>;
/** A listing of the SALE or SOLD tab, with quantity, sold quantity, fee and total (major units). */
export type Listing = z.infer<typeof resell.listingWithTotals>;
export type CreateResaleRequest = z.infer<typeof resell.createResaleRequest>;
export type PriceCalculation = z.infer<typeof resell.priceCalculationResponse>;
