/** SQL predicates shared by several repositories. */
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { resaleListingTickets } from './schema.js';

/** True while the ticket (a user_tickets.id column) is in a live resale listing. */
export const ticketIsListed = (userTicketId: AnyPgColumn): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${resaleListingTickets} where ${resaleListingTickets.userTicketId} = ${userTicketId} and ${resaleListingTickets.status} = 'LISTED')`;
