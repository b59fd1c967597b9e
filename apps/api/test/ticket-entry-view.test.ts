/**
 * Issue 48: the holder's listing says what a pass admits (`MyTicket.entryRules` and `scans`, which the panel reads
 * through the contract's `entryView`): a ticket of a type with no entry rules answers as before; one with rules
 * carries them and its scans. A scan after the first entry changes no column of the ticket's row, only
 * `ticket_scans` (its trigger makes the row's new version, decision 036), so each answer is compared with a service
 * that keeps nothing, after entry, exit, re-entry and a refused scan, on an instance that already kept the rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { access, MyTicket } from '@tp/contract';
import { entryView, eventLocalDay, type EntryRules } from '@tp/contract/entry-rules';
import { bearer, createTestApp, type TestApp } from './helper.js';
import { doorKeys, events, organisations, ticketTypes, users, userTickets } from '../src/db/schema.js';
import { sha256Hex } from '../src/lib/secrets.js';
import { createTicketsService } from '../src/modules/tickets/tickets.service.js';
import { eq } from 'drizzle-orm';

const TZ = 'Europe/Madrid';
/** Friday 10 July 2027, 12:00 in Madrid. */
const START = Date.parse('2027-07-09T10:00:00.000Z');
const ENTRY = `tpd_entry000_${'k'.repeat(43)}`;
const EXIT = `tpd_exit0000_${'k'.repeat(43)}`;

let t: TestApp;
let token: string;
let userId: number;
let eventId: number;
let ruledTypeId: number;
const ids = { plain: 0, ruled: 0 };

beforeAll(async () => {
  t = await createTestApp({ start: new Date(START - 3_600_000), config: { qrTtlSeconds: 30 } });
  const { db } = t.database;
  await t.signIn('fan@example.com');
  [{ id: userId }] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'fan@example.com'));
  const [org] = await db.insert(organisations).values({ slug: 'fest', name: 'Fest' }).returning();
  const [event] = await db
    .insert(events)
    .values({
      organisationId: org.id,
      name: 'Three days',
      ...{ city: 'Madrid', country: 'ES', venue: 'Park', address1: 'Road 1', latitude: 0, longitude: 0 },
      timeZone: TZ,
      startsAt: new Date(START),
      endsAt: new Date(START + 3 * 86_400_000),
    })
    .returning();
  eventId = event.id;
  for (const name of ['plain', 'ruled'] as const) {
    const [type] = await db
      .insert(ticketTypes)
      .values({ organisationId: org.id, eventId, name, priceCents: 0, currencyCode: 'EUR', maxResalePriceCents: 0 })
      .returning();
    const [ticket] = await db
      .insert(userTickets)
      .values({ organisationId: org.id, ticketTypeId: type.id, holderId: userId })
      .returning();
    ids[name] = ticket.id;
    if (name === 'ruled') ruledTypeId = type.id;
  }
  for (const [key, mode] of [
    [ENTRY, 'entry'],
    [EXIT, 'exit'],
  ] as const)
    await db
      .insert(doorKeys)
      .values({ organisationId: org.id, name: mode, prefix: key.slice(0, 12), keyHash: sha256Hex(key), mode });
});
afterAll(async () => {
  await t.close();
});

/** The two tickets as the instance answers them (its kept rows warm) and as a service that keeps nothing reads them. */
async function listing() {
  // Signed in again each time: the clock moves past the access token's life.
  token = (await t.signIn('fan@example.com')).accessToken;
  const res = await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  const answered = res.json<MyTicket[]>();
  const holder = { userId, organisationId: null };
  const fresh = await createTicketsService({ database: t.database, now: t.clock.now }).list(holder, 'UPCOMING');
  expect(answered).toEqual(JSON.parse(JSON.stringify(fresh)));
  const one = await t.app.inject({ url: `/v1/list/ticket_listing/${ids.ruled}`, headers: bearer(token) });
  expect(one.json<MyTicket>()).toEqual(answered.find((x) => x.userTicketId === ids.ruled));
  const by = (id: number) => answered.find((x) => x.userTicketId === id)!;
  return { plain: by(ids.plain), ruled: by(ids.ruled) };
}

/** A scan at the entry or exit door now, of the holder's pass. */
async function scan(key: string) {
  const code = await t.app.services.access.codeFor(userId, Math.floor(t.clock.now().getTime() / 30_000));
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/access/check-in',
    headers: { 'x-scanner-key': key },
    payload: { code, eventId },
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json<access.CheckInResponse>();
}

const setRules = (entryRules: EntryRules | null) =>
  t.database.db.update(ticketTypes).set({ entryRules }).where(eq(ticketTypes.id, ruledTypeId));

describe('the listing says what a pass admits', () => {
  it('answers as before for a type with no rules', async () => {
    const before = await listing();
    for (const tk of [before.plain, before.ruled]) {
      expect(tk).not.toHaveProperty('entryRules');
      expect(tk).not.toHaveProperty('scans');
    }
  });

  it('carries the rules and every scan, right after each entry, exit, re-entry and refusal', async () => {
    const day = (n: number) => eventLocalDay(new Date(START + n * 86_400_000), TZ);
    const rules: EntryRules = { days: [day(0), day(1), day(2)], entries: 'reentry', zones: ['VIP', 'Backstage'] };
    await setRules(rules);
    const view = async () => {
      const { ruled, plain } = await listing();
      expect(plain).not.toHaveProperty('entryRules');
      expect(ruled.entryRules).toEqual(rules);
      return entryView(rules, ruled.scans!);
    };
    const days = (used: boolean[]) => used.map((u, i) => ({ day: day(i), used: u }));
    expect(await view()).toEqual({ entries: 'reentry', days: days([false, false, false]), zones: rules.zones });

    t.clock.advance(2 * 3_600_000); // Friday 14:00 in Madrid
    const entered = t.clock.now().toISOString();
    expect((await scan(ENTRY)).admitted.map((x) => x.userTicketId).sort()).toEqual([ids.plain, ids.ruled].sort());
    expect(await view()).toMatchObject({ days: days([true, false, false]), insideSince: entered });

    t.clock.advance(3_600_000);
    expect((await scan(EXIT)).exited?.map((x) => x.userTicketId).sort()).toEqual([ids.plain, ids.ruled].sort());
    expect(await view()).not.toHaveProperty('insideSince');
    expect((await listing()).ruled.eventAccessUsedOn).toBe(entered);

    t.clock.advance(86_400_000); // Saturday
    const again = t.clock.now().toISOString();
    expect((await scan(ENTRY)).admitted.map((x) => x.userTicketId)).toEqual([ids.ruled]);
    expect(await view()).toMatchObject({ days: days([true, true, false]), insideSince: again });

    // A scan refused (already inside) records nothing.
    t.clock.advance(60_000);
    expect((await scan(ENTRY)).refused?.map((x) => x.reason)).toEqual(['already_inside']);
    expect((await listing()).ruled.scans?.map((s) => s.direction)).toEqual(['in', 'out', 'in']);
  });
});
