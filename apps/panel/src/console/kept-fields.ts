/**
 * What a console form sends back unchanged. The organiser API's PUT replaces the whole resource: a field the form
 * does not edit must travel as it is, or saving clears it (issue 41 re-walk: renaming a ticket type cleared its
 * description and lowered its resale cap to the price).
 */
import type { organisations } from '@tp/contract';
import type * as z from 'zod';

type TicketTypeItem = z.infer<typeof organisations.ticketTypeItem>;

/**
 * The ticket type's fields the type form does not edit, as they are: `description` (absent when unset) and
 * `resaleCapCents` when the organiser set one other than the price (absent otherwise, so the cap follows a new
 * price as it did the old: the API's default cap is the price). `{}` for a new type.
 */
export function keptTicketTypeFields(type: TicketTypeItem | null): { description?: string; resaleCapCents?: number } {
  if (!type) return {};
  return {
    ...(type.description !== null ? { description: type.description } : {}),
    ...(type.resaleCapCents !== type.priceCents ? { resaleCapCents: type.resaleCapCents } : {}),
  };
}
