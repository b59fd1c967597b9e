/**
 * `profileRepository.holdsTicket`: a holder's standing in the avatar queue (avatar.scheduler.ts rule 7) counts only
 * tickets that are not revoked, so an organiser who revokes an attacker's tickets takes the standing away, and only
 * tickets held since the given time, so one ticket gifted along a ring of fresh accounts gives it to none of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ticketHistory, users, userTickets } from '../src/db/schema.js';
import { profileRepository } from '../src/modules/profile/profile.repository.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(async () => {
  await t.close();
});

const hour = 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms);

describe('holdsTicket', () => {
  async function account(email: string) {
    await t.signIn(email);
    const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
    return user;
  }
  async function issue(holderId: number, createdAt: Date) {
    const db = t.database.db;
    const [demo] = await db.select().from(userTickets).limit(1);
    const [ticket] = await db
      .insert(userTickets)
      .values({ organisationId: demo.organisationId, ticketTypeId: demo.ticketTypeId, holderId, createdAt })
      .returning();
    return ticket;
  }

  it('is false for a new account, true once it holds a ticket issued before the time, false once revoked', async () => {
    const db = t.database.db;
    const user = await account('standing@example.com');
    expect(await profileRepository.holdsTicket(db, user.id, ago(hour))).toBe(false);

    const ticket = await issue(user.id, ago(2 * hour));
    expect(await profileRepository.holdsTicket(db, user.id, ago(hour))).toBe(true);

    await db.update(userTickets).set({ revokedAt: new Date() }).where(eq(userTickets.id, ticket.id));
    expect(await profileRepository.holdsTicket(db, user.id, ago(hour))).toBe(false);
  });

  it('is false for a ticket issued after the time, or moved to them after it; true for one moved to them before', async () => {
    const db = t.database.db;
    const fresh = await account('fresh-ticket@example.com');
    await issue(fresh.id, ago(10 * 60_000));
    expect(await profileRepository.holdsTicket(db, fresh.id, ago(hour))).toBe(false);

    // A ticket issued long ago to someone else, gifted to this account ten minutes ago (as a gift ring does).
    const giver = await account('giver@example.com');
    const gifted = await account('gifted@example.com');
    const ticket = await issue(gifted.id, ago(48 * hour));
    await db.insert(ticketHistory).values({
      userTicketId: ticket.id,
      fromUserId: giver.id,
      toUserId: gifted.id,
      kind: 'gift',
      at: ago(10 * 60_000),
    });
    expect(await profileRepository.holdsTicket(db, gifted.id, ago(hour))).toBe(false);
    // The same move two hours back: held since before the time.
    await db
      .update(ticketHistory)
      .set({ at: ago(2 * hour) })
      .where(eq(ticketHistory.userTicketId, ticket.id));
    expect(await profileRepository.holdsTicket(db, gifted.id, ago(hour))).toBe(true);
  });
});
