/** SQL of wallet passes (issue 22): one held ticket with what its pass shows. */
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { heldBy, type Holder } from '../../db/predicates.js';
import { events, organisations, ticketTypes, users, userTickets } from '../../db/schema.js';

/** A held ticket as its wallet pass shows it. */
export interface WalletTicketRow {
  userTicketId: number;
  holderId: number;
  holder: { givenName: string | null; familyName: string | null; nickname: string; usernameSuffix: number };
  ticketName: string;
  event: typeof events.$inferSelect;
  organisationName: string;
  /** `#rrggbb` or null. */
  primaryColor: string | null;
}

export const walletRepository = {
  /** The ticket `holder` holds (not revoked), with its event, type and organisation; undefined otherwise. */
  async heldTicket(db: DbOrTx, holder: Holder, userTicketId: number): Promise<WalletTicketRow | undefined> {
    const [row] = await db
      .select({
        userTicketId: userTickets.id,
        holderId: users.id,
        holder: {
          givenName: users.givenName,
          familyName: users.familyName,
          nickname: users.nickname,
          usernameSuffix: users.usernameSuffix,
        },
        ticketName: ticketTypes.name,
        event: events,
        organisationName: organisations.name,
        primaryColor: organisations.primaryColor,
      })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .innerJoin(organisations, eq(organisations.id, events.organisationId))
      .innerJoin(users, eq(users.id, userTickets.holderId))
      .where(and(heldBy(holder), eq(userTickets.id, userTicketId), isNull(userTickets.revokedAt)));
    return row;
  },
};
