/** SQL for benefit unlocks. */
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { benefits, events, ticketTypes, userTicketBenefits, userTickets } from '../../db/schema.js';

export const benefitsRepository = {
  /** A held benefit with its definition, ticket and the ticket's event, row-locked. */
  async lockHeld(db: DbOrTx, userTicketBenefitId: number) {
    const [row] = await db
      .select({ held: userTicketBenefits, benefit: benefits, ticket: userTickets, event: events })
      .from(userTicketBenefits)
      .innerJoin(benefits, eq(benefits.id, userTicketBenefits.benefitId))
      .innerJoin(userTickets, eq(userTickets.id, userTicketBenefits.userTicketId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(eq(userTicketBenefits.id, userTicketBenefitId))
      .for('update', { of: userTicketBenefits });
    return row;
  },
  /** Records the first reveal of a benefit's code: when and by which holder. */
  async markUnlocked(db: DbOrTx, userTicketBenefitId: number, userId: number, at: Date): Promise<void> {
    await db
      .update(userTicketBenefits)
      .set({ unlockedAt: at, unlockedBy: userId })
      .where(and(eq(userTicketBenefits.id, userTicketBenefitId), isNull(userTicketBenefits.unlockedAt)));
  },
};
