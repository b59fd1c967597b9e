/** SQL for the holder's tickets with their event, type and benefits. */
import { and, asc, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { heldBy, ticketIsListed, type Holder } from '../../db/predicates.js';
import { preparedStatement } from '../../db/prepared.js';
import { benefits, events, ticketTypes, userTicketBenefits, userTickets } from '../../db/schema.js';

const ticketColumns = { ticket: userTickets, type: ticketTypes, event: events, listed: ticketIsListed(userTickets.id) };
/** A held ticket with its type and event; `listed` while it is in a live resale listing. */
export type TicketRow = {
  ticket: typeof userTickets.$inferSelect;
  type: typeof ticketTypes.$inferSelect;
  event: typeof events.$inferSelect;
  listed: boolean;
};
export type BenefitRow = { held: typeof userTicketBenefits.$inferSelect; benefit: typeof benefits.$inferSelect };

/**
 * The ticket listing (My tickets, the gift dropdown), one prepared statement per status. The holder part is
 * `heldBy` with placeholders (a prepared statement cannot take a condition that comes and goes): the
 * organisation id is 0 (no organisation has it) for "every organisation".
 */
const listStatement = (status: 'UPCOMING' | 'PAST') =>
  preparedStatement((db) =>
    db
      .select(ticketColumns)
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(
        and(
          eq(userTickets.holderId, sql.placeholder('holderId')),
          sql`(${sql.placeholder('organisationId')}::int = 0 or ${events.organisationId} = ${sql.placeholder('organisationId')}::int)`,
          isNull(userTickets.revokedAt),
          status === 'UPCOMING'
            ? gt(events.endsAt, sql.placeholder('now'))
            : lte(events.endsAt, sql.placeholder('now')),
        ),
      )
      .orderBy(status === 'UPCOMING' ? asc(events.startsAt) : desc(events.startsAt), asc(userTickets.id))
      .prepare(`tickets_list_${status.toLowerCase()}`),
  );
const listStatements = { UPCOMING: listStatement('UPCOMING'), PAST: listStatement('PAST') };

/** The benefits of a page of tickets: the listing's second statement, prepared like the first. */
const benefitsStatement = preparedStatement((db) =>
  db
    .select({ held: userTicketBenefits, benefit: benefits })
    .from(userTicketBenefits)
    .innerJoin(benefits, eq(benefits.id, userTicketBenefits.benefitId))
    .where(sql`${userTicketBenefits.userTicketId} = any(${sql.placeholder('ids')}::int[])`)
    .orderBy(asc(userTicketBenefits.id))
    .prepare('tickets_benefits_of'),
);

export const ticketsRepository = {
  /**
   * Live (not revoked) tickets `holder` holds (in its organisation, when it names one): UPCOMING = event not
   * ended (soonest first), PAST = ended (latest first).
   */
  async listByHolder(db: DbOrTx, holder: Holder, status: 'UPCOMING' | 'PAST', now: Date): Promise<TicketRow[]> {
    return listStatements[status](db).execute({
      holderId: holder.userId,
      organisationId: holder.organisationId ?? 0,
      now,
    });
  },
  /** One ticket if `holder` holds it (in its organisation, when it names one) and it is not revoked. */
  async oneByHolder(db: DbOrTx, holder: Holder, userTicketId: number): Promise<TicketRow | undefined> {
    const [row] = await db
      .select(ticketColumns)
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(and(heldBy(holder), eq(userTickets.id, userTicketId), isNull(userTickets.revokedAt)));
    return row;
  },
  /** Benefits of the given user tickets (one prepared statement, the ids as one array parameter). */
  async benefitsOf(db: DbOrTx, userTicketIds: number[]): Promise<BenefitRow[]> {
    if (userTicketIds.length === 0) return [];
    return benefitsStatement(db).execute({ ids: userTicketIds });
  },
};
