/** Ticket listing payloads (spec section 3, My-ticket item and Benefit). */
import * as z from 'zod';
import { TICKET_STATUSES } from './constants.js';
import { ticketRefund } from './refunds.js';
import { entryRules, recordedScan } from './access.js';

/** A benefit of a user's ticket. Amounts are counts; dates are ISO 8601 UTC. */
export const benefit = z.object({
  userTicketBenefitId: z.number().int(),
  name: z.string(),
  shortDescription: z.string().nullable(),
  fullDescription: z.string().nullable(),
  type: z.string(),
  icon: z.string().nullable(),
  iconColor: z.string().nullable(),
  iconBgColor: z.string().nullable(),
  image: z.string().nullable(),
  purchasedAmount: z.number().int(),
  usedAmount: z.number().int(),
  lastUsedDate: z.string().nullable(),
  validUntil: z.string().nullable(),
  /** Only present once unlocked (digital benefits). */
  redeemCode: z.string().nullable(),
  isUnlockable: z.boolean(),
});
export type Benefit = z.infer<typeof benefit>;

/** Event access state of a ticket. */
export const eventAccessStatus = z.enum(['USED', 'UNUSED']);

/** A ticket the signed-in user holds. Dates are ISO 8601 UTC; eventTimeZone is IANA. */
export const myTicket = z.object({
  userTicketId: z.number().int(),
  ticketLogo: z.string().nullable(),
  ticketName: z.string(),
  ticketDescription: z.string().nullable(),
  eventName: z.string(),
  eventCity: z.string(),
  eventVenue: z.string(),
  eventAddress1: z.string(),
  /** Null when the organiser gave no coordinates (issue 12). */
  eventLatitude: z.number().nullable(),
  eventLongitude: z.number().nullable(),
  eventDescription: z.string().nullable(),
  eventLogo: z.string().nullable(),
  eventImage: z.string().nullable(),
  eventStartDateTime: z.string(),
  eventEndDateTime: z.string(),
  eventTimeZone: z.string(),
  isLive: z.boolean(),
  isGiftable: z.boolean(),
  isResellable: z.boolean(),
  isSwappable: z.boolean(),
  /**
   * Returned to the event's exchange queue (issue 45, decision 042): still held, but it does not admit and cannot be
   * gifted, resold or swapped until it is sold or withdrawn (`DELETE /v1/exchange/returns/{userTicketId}`).
   */
  isReturnedToExchange: z.boolean(),
  /**
   * Beyond the spec (issue 46, decision 045): present when the organiser cancelled the event (`at` ISO 8601 UTC;
   * `reason`, their words to holders such as how to get a refund, or null). The ticket stays in the list and does not
   * admit, move or show a pass.
   */
  eventCancelled: z.object({ at: z.string(), reason: z.string().nullable() }).optional(),
  /**
   * Beyond the spec (issue 46, "a new date"): present when the event moved to a new date (its start or end changed by
   * more than the organiser's threshold); `at` when it moved (ISO 8601 UTC). The event's dates above are the new ones.
   */
  eventRescheduled: z.object({ at: z.string() }).optional(),
  /** Beyond the spec (issue 46, refund requests): see `ticketRefund`; absent when there is nothing to show. */
  refund: ticketRefund.optional(),
  /**
   * Beyond the spec (issue 48, decision 050): present when the ticket's type has entry rules — its days (event-local
   * dates), entries (`once`, `once_per_day`, `reentry`) and zones — what the pass admits to.
   */
  entryRules: entryRules.optional(),
  /**
   * With `entryRules`: the ticket's recorded scans, oldest first (`at` ISO 8601 UTC, `direction` `in` or `out`, the
   * door's `zone` or null, the event-local `day`): the days used, and inside since the latest entry (contract
   * `isInside`).
   */
  scans: z.array(recordedScan).optional(),
  eventAccessStatus,
  eventAccessUsedOn: z.string().nullable(),
  /** Event access plus benefits with purchasedAmount > 0. */
  totalBenefitCount: z.number().int(),
  totalBenefitUsedCount: z.number().int(),
  benefits: z.array(benefit),
});
export type MyTicket = z.infer<typeof myTicket>;

/** GET /list/ticket_listing?status= query. */
export const ticketListingQuery = z.strictObject({ status: z.enum(TICKET_STATUSES) });
export const ticketListingResponse = z.array(myTicket);
/** GET /list/ticket_listing/{ticketUserId} params. */
export const ticketIdParams = z.strictObject({ ticketUserId: z.coerce.number().int().positive().max(2_147_483_647) });
