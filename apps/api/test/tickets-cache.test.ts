/**
 * The ticket listing's kept rows (tickets.service.ts, decision 036, migration 0017): an instance reuses a ticket's
 * listing row only while the ticket's, its type's and its event's row versions are the ones it was read at, and a
 * change to any row the item shows, made by any path (here raw SQL on each table, and the organisation API on
 * another instance), is in the next answer. The oracle is a service that keeps nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyTicket } from '@tp/contract';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';
import { createTicketsService } from '../src/modules/tickets/tickets.service.js';
import type { Holder } from '../src/db/predicates.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
let token: string;
let holder: Holder;
beforeAll(async () => {
  t = await createTestApp({ seed: true, config: { adminKey: ADMIN } });
  token = (await t.signIn('alice@example.com')).accessToken;
  const [alice] = await rows<{ id: number }>(`select id from users where email = 'alice@example.com'`);
  holder = { userId: alice.id, organisationId: null };
});
afterAll(async () => {
  await t.close();
});

async function rows<T>(sql: string): Promise<T[]> {
  return (await rawQuery<T>(t.database.db, sql)).rows;
}
const run = async (...statements: string[]) => {
  for (const statement of statements) await rows(statement);
};

/** The listing as the instance answers it (keeping rows) and as a service that keeps nothing reads it now. */
async function listing(app = t) {
  const res = await app.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  const fresh = await createTicketsService({ database: t.database, now: t.clock.now }).list(holder, 'UPCOMING');
  return { answered: res.json<MyTicket[]>(), fresh: JSON.parse(JSON.stringify(fresh)) as MyTicket[] };
}

describe('the listing keeps rows only while their versions hold', () => {
  it('shows every change to a row the item reads, on each table, in the next answer', async () => {
    const [held] = await rows<{ id: number; ticket: number; type: number; event: number; benefit: number }>(
      `select utb.id, utb.user_ticket_id as ticket, ut.ticket_type_id as type, tt.event_id as event,
         utb.benefit_id as benefit
       from user_ticket_benefits utb join user_tickets ut on ut.id = utb.user_ticket_id
       join ticket_types tt on tt.id = ut.ticket_type_id join events e on e.id = tt.event_id
       where ut.holder_id = ${holder.userId} and e.starts_at > now() and ut.event_access_used_at is null
         and utb.purchased_amount > 0
       order by utb.id limit 1`,
    );
    const [bob] = await rows<{ id: number }>(`select id from users where email = 'bob@example.com'`);
    const steps: [string, string[]][] = [
      ['the event', [`update events set name = name || ' (moved)', city = 'Hobart' where id = ${held.event}`]],
      ['the ticket type', [`update ticket_types set description = 'New words' where id = ${held.type}`]],
      ['a move flag', [`update ticket_types set is_giftable = not is_giftable where id = ${held.type}`]],
      ['a benefit', [`update benefits set short_description = 'Changed' where id = ${held.benefit}`]],
      ['a held benefit used', [`update user_ticket_benefits set used_amount = purchased_amount where id = ${held.id}`]],
      ['a held benefit removed', [`delete from user_ticket_benefits where id = ${held.id}`]],
      [
        'a benefit added and held',
        [
          `insert into benefits (ticket_type_id, name, type) values (${held.type}, 'Late addition', 'benefits.perk')`,
          `insert into user_ticket_benefits (user_ticket_id, benefit_id, purchased_amount)
           select ${held.ticket}, max(id), 2 from benefits`,
        ],
      ],
      [
        'listed for resale',
        [
          `insert into resale_listings (seller_id, ticket_type_id, quantity, price_cents, fee_cents, currency_code,
             status, share_token, listed_at)
           values (${holder.userId}, ${held.type}, 1, 1000, 100, 'AUD', 'LISTED', 'cache-test', now())`,
          `insert into resale_listing_tickets (listing_id, user_ticket_id, status)
           select max(id), ${held.ticket}, 'LISTED' from resale_listings`,
        ],
      ],
      ['delisted', [`update resale_listing_tickets set status = 'RETURNED' where user_ticket_id = ${held.ticket}`]],
      ['checked in', [`update user_tickets set event_access_used_at = now() where id = ${held.ticket}`]],
      ['given away', [`update user_tickets set holder_id = ${bob.id} where id = ${held.ticket}`]],
      ['given back', [`update user_tickets set holder_id = ${holder.userId} where id = ${held.ticket}`]],
      ['revoked', [`update user_tickets set revoked_at = now() where id = ${held.ticket}`]],
    ];
    let before = await listing();
    expect(before.answered).toEqual(before.fresh);
    for (const [what, statements] of steps) {
      await run(...statements);
      const after = await listing();
      expect(after.answered, what).toEqual(after.fresh);
      expect(after.answered, `${what} changes the listing`).not.toEqual(before.answered);
      // Unchanged, the kept rows answer the same.
      expect((await listing()).answered, what).toEqual(after.answered);
      before = after;
    }
  });

  it('the ticket page reads through the same check', async () => {
    const [ticket] = await rows<{ id: number; type: number }>(
      `select ut.id, ut.ticket_type_id as type from user_tickets ut where holder_id = ${holder.userId}
       and revoked_at is null order by id limit 1`,
    );
    const page = () =>
      t.app
        .inject({ url: `/v1/list/ticket_listing/${ticket.id}`, headers: bearer(token) })
        .then((r) => r.json<MyTicket>());
    const first = await page();
    await run(`update ticket_types set name = 'Renamed type' where id = ${ticket.type}`);
    expect(await page()).toEqual({ ...first, ticketName: 'Renamed type' });
    await run(`update user_tickets set revoked_at = now() where id = ${ticket.id}`);
    const gone = await t.app.inject({ url: `/v1/list/ticket_listing/${ticket.id}`, headers: bearer(token) });
    expect(gone.statusCode).toBe(404);
  });

  it('with room for fewer rows than the holder has, answers the same', async () => {
    const small = createTicketsService({ database: t.database, now: t.clock.now, keptChars: 5000 });
    const fresh = await createTicketsService({ database: t.database, now: t.clock.now }).list(holder, 'UPCOMING');
    expect(fresh.length).toBeGreaterThan(2);
    expect(await small.list(holder, 'UPCOMING')).toEqual(fresh);
    expect(await small.list(holder, 'UPCOMING')).toEqual(fresh);
  });

  it("an organiser's edits on another instance reach the holder's listing on this one", async () => {
    const other = await createTestApp({ database: t.database, config: { adminKey: ADMIN } });
    try {
      const created = await other.app.inject({
        method: 'POST',
        url: '/v1/admin/organisations',
        headers: bearer(ADMIN),
        payload: { slug: 'cache-org', name: 'Cache Org' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const key = created.json<{ apiKey: string }>().apiKey;
      const put = async (path: string, payload: object) => {
        const r = await other.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(key), payload });
        expect(r.statusCode, r.body).toBeLessThan(300);
      };
      const at = (days: number) => new Date(t.clock.now().getTime() + days * 86_400_000).toISOString();
      const event = (name: string) => ({
        name,
        venue: 'The Domain',
        city: 'Sydney',
        country: 'AU',
        startsAt: at(3),
        endsAt: at(3.3),
        timeZone: 'Australia/Sydney',
      });
      const type = (description: string, benefitName: string) => ({
        eventExternalId: 'cache-evt',
        name: 'General Admission',
        description,
        priceCents: 8900,
        currency: 'AUD',
        isGiftable: true,
        isResellable: true,
        isSwappable: false,
        benefits: [{ externalId: 'drink', name: benefitName, type: 'benefits.food_beverage' }],
      });
      await put('events/cache-evt', event('Cache Night'));
      await put('ticket-types/cache-ga', type('Standing', 'Drink voucher'));
      await put('tickets/cache-1', { ticketTypeExternalId: 'cache-ga', holderEmail: 'alice@example.com' });
      const mine = async () => (await listing()).answered.find((x) => x.eventName.startsWith('Cache Night'))!;
      expect(await mine()).toMatchObject({ ticketDescription: 'Standing', benefits: [{ name: 'Drink voucher' }] });

      await put('events/cache-evt', event('Cache Night, moved'));
      await put('ticket-types/cache-ga', type('Seated', 'Two drink vouchers'));
      expect(await mine()).toMatchObject({
        eventName: 'Cache Night, moved',
        ticketDescription: 'Seated',
        benefits: [{ name: 'Two drink vouchers' }],
      });
      const after = await listing();
      expect(after.answered).toEqual(after.fresh);
    } finally {
      await other.close();
    }
  });
});
