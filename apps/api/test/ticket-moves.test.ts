/**
 * The one "may this ticket move" rule (apps/api/src/db/predicates.ts): its SQL form and its TypeScript twin
 * agree on a table of cases, with the expected answer, and the ticket listing's flags follow it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { TransactionRollbackError } from 'drizzle-orm/errors';
import type { MyTicket } from '@tp/contract';
import type { Tx } from '../src/db/client.js';
import { ticketIsListed, ticketMayMove, ticketMayMoveSql, type TicketMove } from '../src/db/predicates.js';
import { events, resaleListingTickets, resaleListings, ticketTypes, userTickets, users } from '../src/db/schema.js';
import { bearer, createTestApp, type TestApp } from './helper.js';

let t: TestApp;
let aliceId: number;
let bobId: number;
let ticketId: number;
let typeId: number;
let eventId: number;
let organisationId: number;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  const db = t.database.db;
  const [alice] = await db.select().from(users).where(eq(users.email, 'alice@example.com'));
  const [bob] = await db.select().from(users).where(eq(users.email, 'bob@example.com'));
  [aliceId, bobId] = [alice.id, bob.id];
  const [row] = await db
    .select({
      ticketId: userTickets.id,
      typeId: ticketTypes.id,
      eventId: events.id,
      organisationId: events.organisationId,
    })
    .from(userTickets)
    .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(and(eq(userTickets.holderId, aliceId), eq(events.name, 'Aotearoa Sound')));
  ({ ticketId, typeId, eventId, organisationId } = row);
});
afterAll(async () => {
  await t.close();
});

const MOVES: TicketMove[] = ['gift', 'resell', 'swap'];
type Answers = Record<TicketMove, boolean>;
const all = (v: boolean): Answers => ({ gift: v, resell: v, swap: v });

/** Puts one live listing of the ticket (status of its listing row: LISTED, RETURNED or SOLD). */
async function listTicket(tx: Tx, status: string) {
  const [listing] = await tx
    .insert(resaleListings)
    .values({
      sellerId: aliceId,
      ticketTypeId: typeId,
      quantity: 1,
      priceCents: 1000,
      feeCents: 100,
      currencyCode: 'NZD',
      status: status === 'LISTED' ? 'LISTED' : 'DELISTED',
      shareToken: `tok-${status}`,
      listedAt: t.clock.now(),
    })
    .returning();
  await tx.insert(resaleListingTickets).values({ listingId: listing.id, userTicketId: ticketId, status });
}

const ms = (d: Date, delta: number) => new Date(d.getTime() + delta);
/** `panel`: the organisation the request names (X-Organisation, issue 12): none, the event's, or another. */
type Panel = 'none' | 'own' | 'other';
const CASES: { name: string; setup: (tx: Tx, now: Date) => Promise<unknown>; expected: Answers; panel?: Panel }[] = [
  { name: 'held, every flag on, unused, upcoming, not listed', setup: async () => {}, expected: all(true) },
  { name: "held, in the panel of the event's organisation", setup: async () => {}, expected: all(true), panel: 'own' },
  { name: 'held, in the panel of another organisation', setup: async () => {}, expected: all(false), panel: 'other' },
  {
    name: 'event access used',
    setup: (tx, now) => tx.update(userTickets).set({ eventAccessUsedAt: now }).where(eq(userTickets.id, ticketId)),
    expected: all(false),
  },
  { name: 'in a live resale listing', setup: (tx) => listTicket(tx, 'LISTED'), expected: all(false) },
  { name: 'returned from a delisted listing', setup: (tx) => listTicket(tx, 'RETURNED'), expected: all(true) },
  {
    name: 'event over',
    setup: (tx, now) =>
      tx
        .update(events)
        .set({ endsAt: ms(now, -60_000) })
        .where(eq(events.id, eventId)),
    expected: all(false),
  },
  {
    name: 'event ends this instant',
    setup: (tx, now) => tx.update(events).set({ endsAt: now }).where(eq(events.id, eventId)),
    expected: all(false),
  },
  {
    name: 'event ends a second from now',
    setup: (tx, now) =>
      tx
        .update(events)
        .set({ endsAt: ms(now, 1000) })
        .where(eq(events.id, eventId)),
    expected: all(true),
  },
  {
    name: 'type not giftable',
    setup: (tx) => tx.update(ticketTypes).set({ isGiftable: false }).where(eq(ticketTypes.id, typeId)),
    expected: { gift: false, resell: true, swap: true },
  },
  {
    name: 'type not resellable',
    setup: (tx) => tx.update(ticketTypes).set({ isResellable: false }).where(eq(ticketTypes.id, typeId)),
    expected: { gift: true, resell: false, swap: true },
  },
  {
    name: 'type not swappable',
    setup: (tx) => tx.update(ticketTypes).set({ isSwappable: false }).where(eq(ticketTypes.id, typeId)),
    expected: { gift: true, resell: true, swap: false },
  },
  {
    name: 'every flag off',
    setup: (tx) =>
      tx
        .update(ticketTypes)
        .set({ isGiftable: false, isResellable: false, isSwappable: false })
        .where(eq(ticketTypes.id, typeId)),
    expected: all(false),
  },
  {
    name: 'held by someone else',
    setup: (tx) => tx.update(userTickets).set({ holderId: bobId }).where(eq(userTickets.id, ticketId)),
    expected: all(false),
  },
  {
    name: 'revoked by its organiser',
    setup: (tx, now) => tx.update(userTickets).set({ revokedAt: now }).where(eq(userTickets.id, ticketId)),
    expected: all(false),
  },
  {
    name: 'held under a resale code (no holder)',
    setup: (tx) => tx.update(userTickets).set({ holderId: null }).where(eq(userTickets.id, ticketId)),
    expected: all(false),
  },
];

/** Runs the case in a transaction that is rolled back; returns what the SQL and the TypeScript forms say. */
async function evaluate(setup: (tx: Tx, now: Date) => Promise<unknown>, panel: Panel = 'none') {
  const now = t.clock.now();
  const holder = {
    userId: aliceId,
    organisationId: panel === 'none' ? null : panel === 'own' ? organisationId : organisationId + 1000,
  };
  let out: { sql: Answers; ts: Answers } | undefined;
  try {
    await t.database.db.transaction(async (tx) => {
      // Baseline: every flag on (the seed's types are not all swappable).
      await tx
        .update(ticketTypes)
        .set({ isGiftable: true, isResellable: true, isSwappable: true })
        .where(eq(ticketTypes.id, typeId));
      await setup(tx, now);
      const [bySql] = await tx
        .select({
          gift: sql<boolean>`${ticketMayMoveSql('gift', holder, now)}`,
          resell: sql<boolean>`${ticketMayMoveSql('resell', holder, now)}`,
          swap: sql<boolean>`${ticketMayMoveSql('swap', holder, now)}`,
        })
        .from(userTickets)
        .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
        .innerJoin(events, eq(events.id, ticketTypes.eventId))
        .where(eq(userTickets.id, ticketId));
      const [row] = await tx
        .select({ ticket: userTickets, type: ticketTypes, event: events, listed: ticketIsListed(userTickets.id) })
        .from(userTickets)
        .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
        .innerJoin(events, eq(events.id, ticketTypes.eventId))
        .where(eq(userTickets.id, ticketId));
      const byTs = Object.fromEntries(MOVES.map((m) => [m, ticketMayMove(m, row, holder, now)])) as Answers;
      out = { sql: { gift: bySql.gift, resell: bySql.resell, swap: bySql.swap }, ts: byTs };
      tx.rollback();
    });
  } catch (err) {
    if (!(err instanceof TransactionRollbackError)) throw err;
  }
  return out!;
}

describe('may this ticket move: SQL predicate and TypeScript twin', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const { sql: bySql, ts: byTs } = await evaluate(c.setup, c.panel);
      expect(bySql).toEqual(c.expected);
      expect(byTs).toEqual(c.expected);
    });
  }
});

describe('ticket listing flags follow the rule', () => {
  it('turns isGiftable/isResellable/isSwappable off for a listed ticket and on again once delisted', async () => {
    const token = (await t.signIn('alice@example.com')).accessToken;
    const flags = async () => {
      const up: MyTicket[] = (
        await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(token) })
      ).json();
      const tk = up.find((x) => x.userTicketId === ticketId)!;
      return { gift: tk.isGiftable, resell: tk.isResellable, swap: tk.isSwappable };
    };
    const db = t.database.db;
    await db.update(ticketTypes).set({ isSwappable: true }).where(eq(ticketTypes.id, typeId));
    expect(await flags()).toEqual(all(true));
    await db.transaction((tx) => listTicket(tx, 'LISTED'));
    expect(await flags()).toEqual(all(false));
    await db
      .update(resaleListingTickets)
      .set({ status: 'RETURNED' })
      .where(eq(resaleListingTickets.userTicketId, ticketId));
    expect(await flags()).toEqual(all(true));
  });
});
