/**
 * `profileRepository.holdsTicket`: a holder's standing in the avatar queue (avatar.scheduler.ts rule 7) counts only
 * tickets that are not revoked, so an organiser who revokes an attacker's tickets takes the standing away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users, userTickets } from '../src/db/schema.js';
import { profileRepository } from '../src/modules/profile/profile.repository.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(async () => {
  await t.close();
});

describe('holdsTicket', () => {
  it('is false for a new account, true once it holds a ticket, false again when that ticket is revoked', async () => {
    const db = t.database.db;
    await t.signIn('standing@example.com');
    const [user] = await db.select().from(users).where(eq(users.email, 'standing@example.com'));
    expect(await profileRepository.holdsTicket(db, user.id)).toBe(false);

    const [demo] = await db.select().from(userTickets).limit(1);
    const [ticket] = await db
      .insert(userTickets)
      .values({ organisationId: demo.organisationId, ticketTypeId: demo.ticketTypeId, holderId: user.id })
      .returning();
    expect(await profileRepository.holdsTicket(db, user.id)).toBe(true);

    await db.update(userTickets).set({ revokedAt: new Date() }).where(eq(userTickets.id, ticket.id));
    expect(await profileRepository.holdsTicket(db, user.id)).toBe(false);
  });

  it("is true for the demo data's alice, whose tickets are not revoked", async () => {
    const db = t.database.db;
    const [alice] = await db.select().from(users).where(eq(users.email, 'alice@example.com'));
    expect(await profileRepository.holdsTicket(db, alice.id)).toBe(true);
  });
});
