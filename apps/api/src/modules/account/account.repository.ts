/** SQL for account rights: sessions, the holder's orders, the checks before deletion and the erasure. */
import { and, count, desc, eq, gt, isNull, ne, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  authSessions,
  events,
  loginRequests,
  resaleListings,
  resaleOrders,
  ticketTypes,
  userTickets,
  users,
  webauthnCredentials,
} from '../../db/schema.js';

export const accountRepository = {
  /** The user row, row-locked for the transaction when `lock`. */
  async user(db: DbOrTx, id: number, lock = false) {
    const q = db.select().from(users).where(eq(users.id, id));
    const [row] = lock ? await q.for('update') : await q;
    return row;
  },
  /** Every sign-in of a user, newest first. */
  async sessionsOf(db: DbOrTx, userId: number) {
    return db.select().from(authSessions).where(eq(authSessions.userId, userId)).orderBy(desc(authSessions.createdAt));
  },
  /** The account's passkeys (issue 47), newest first, without their keys. */
  async passkeysOf(db: DbOrTx, userId: number) {
    return db
      .select({
        id: webauthnCredentials.id,
        name: webauthnCredentials.name,
        createdAt: webauthnCredentials.createdAt,
        lastUsedAt: webauthnCredentials.lastUsedAt,
        backedUp: webauthnCredentials.backedUp,
      })
      .from(webauthnCredentials)
      .where(eq(webauthnCredentials.userId, userId))
      .orderBy(desc(webauthnCredentials.createdAt));
  },
  /** Revokes the user's live sign-ins except `keepSessionId` (all of them when null); returns how many. */
  async revokeSessions(db: DbOrTx, userId: number, keepSessionId: string | null, at: Date): Promise<number> {
    const rows = await db
      .update(authSessions)
      .set({ revokedAt: at })
      .where(
        and(
          eq(authSessions.userId, userId),
          isNull(authSessions.revokedAt),
          keepSessionId ? ne(authSessions.id, keepSessionId) : undefined,
        ),
      )
      .returning({ id: authSessions.id });
    return rows.length;
  },
  /** Resale orders bought with `email` or redeemed by the user, with their ticket type and event. */
  async ordersOf(db: DbOrTx, userId: number, email: string) {
    return db
      .select({ order: resaleOrders, type: ticketTypes, event: events })
      .from(resaleOrders)
      .innerJoin(resaleListings, eq(resaleListings.id, resaleOrders.listingId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, resaleListings.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(or(eq(resaleOrders.buyerEmail, email), eq(resaleOrders.redeemedBy, userId)))
      .orderBy(desc(resaleOrders.createdAt));
  },
  /** How many live (not revoked) tickets the user holds for events not over at `now`. */
  async upcomingTicketCount(db: DbOrTx, userId: number, now: Date): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(and(eq(userTickets.holderId, userId), gt(events.endsAt, now), isNull(userTickets.revokedAt)));
    return row.n;
  },
  /** How many listings of the user are live (LISTED). */
  async liveListingCount(db: DbOrTx, userId: number): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(resaleListings)
      .where(and(eq(resaleListings.sellerId, userId), eq(resaleListings.status, 'LISTED')));
    return row.n;
  },
  /**
   * Erases a user's personal data in place: e-mail replaced by an undeliverable placeholder, names, phone,
   * picture cleared, nickname neutral; the row (and so tickets, history, listings, payouts) stays.
   * Orders bought with the old e-mail get the placeholder too; pending sign-in codes of it are dropped.
   */
  async erase(db: DbOrTx, user: { id: number; email: string }, placeholderEmail: string, at: Date): Promise<void> {
    await db
      .update(users)
      .set({
        email: placeholderEmail,
        givenName: null,
        familyName: null,
        phoneNumber: null,
        picture: null,
        nickname: `deleted${user.id}`,
        emailStatus: null,
        emailStatusAt: null,
        emailStatusDetail: null,
        deletedAt: at,
      })
      .where(eq(users.id, user.id));
    await db.update(resaleOrders).set({ buyerEmail: placeholderEmail }).where(eq(resaleOrders.buyerEmail, user.email));
    await db.delete(loginRequests).where(eq(loginRequests.email, user.email));
    await db.delete(webauthnCredentials).where(eq(webauthnCredentials.userId, user.id));
  },
};
