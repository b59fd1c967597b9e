/**
 * The event dashboard's check-ins (issue 21): GET /v1/org/events/{externalId}/check-ins counts the tickets admitted
 * per 5 minutes over the event day, online and synced alike, and lists what offline doors admitted that the server
 * refused when they synced, by the ticket's externalId; another organisation's key finds no such event.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { organisations } from '@tp/contract';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const DOOR = 'platform-door';
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ config: { adminKey: ADMIN, scannerKey: DOOR } });
});
afterEach(async () => {
  await t.close();
});

const iso = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
const one = async (sql: string) => (await rawQuery<Record<string, unknown>>(t.database.db, sql)).rows[0];
const createOrg = async (slug: string) => {
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug, name: `Org ${slug}` },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<{ apiKey: string }>().apiKey;
};
const put = async (key: string, path: string, payload: object) => {
  const r = await t.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(key), payload });
  expect(r.statusCode, r.body).toBeLessThan(300);
};
/** A pass of the holder of `email` as their phone shows it now. */
const passOf = async (email: string) => {
  const { id } = await one(`select id from users where email = '${email}'`);
  return t.app.services.access.codeFor(Number(id), Math.floor(t.clock.now().getTime() / 30_000));
};
const checkIns = (key: string, event = 'tonight') =>
  t.app.inject({ url: `/v1/org/events/${event}/check-ins`, headers: bearer(key) });

describe('the event dashboard: check-ins per 5 minutes and offline conflicts', () => {
  it('counts admitted tickets per 5-minute bucket of the event day and lists the synced conflicts', async () => {
    const key = await createOrg('acme');
    const startsAt = iso(3600_000);
    await put(key, 'events/tonight', {
      name: 'Tonight',
      venue: 'The Domain',
      city: 'Sydney',
      country: 'AU',
      startsAt,
      endsAt: iso(9 * 3600_000),
      timeZone: 'Australia/Sydney',
    });
    await put(key, 'ticket-types/ga', {
      eventExternalId: 'tonight',
      name: 'General Admission',
      priceCents: 5000,
      currency: 'AUD',
      isGiftable: true,
      isResellable: true,
      isSwappable: false,
    });
    for (const n of [1, 2, 3])
      await put(key, `tickets/t${n}`, { ticketTypeExternalId: 'ga', holderEmail: `h${n}@example.com` });
    const eventId = Number((await one(`select id from events where external_id = 'tonight'`)).id);

    const empty = await checkIns(key);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json<organisations.CheckInsBody>()).toMatchObject({ bucketSeconds: 300, buckets: [], conflicts: [] });

    const scan = async (email: string) => {
      const r = await t.app.inject({
        method: 'POST',
        url: '/v1/access/check-in',
        headers: { 'x-scanner-key': DOOR },
        payload: { code: await passOf(email), eventId },
      });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json<{ admitted: unknown[] }>().admitted).toHaveLength(1);
    };
    await scan('h1@example.com');
    await scan('h2@example.com');
    const firstAt = t.clock.now().getTime();
    t.clock.advance(6 * 60_000);
    // An offline door admits h3 (new) and h1 again (already used online): one admitted, one conflict.
    const { id: t1 } = await one(`select id from user_tickets where external_id = 't1'`);
    const { id: t3 } = await one(`select id from user_tickets where external_id = 't3'`);
    const scannedAt = t.clock.now().toISOString();
    const sync = await t.app.inject({
      method: 'POST',
      url: '/v1/access/sync',
      headers: { 'x-scanner-key': DOOR },
      payload: {
        eventId,
        items: [
          { id: randomUUID(), code: await passOf('h3@example.com'), scannedAt, userTicketIds: [Number(t3)] },
          { id: randomUUID(), code: await passOf('h1@example.com'), scannedAt, userTicketIds: [Number(t1)] },
        ],
      },
    });
    expect(sync.statusCode, sync.body).toBe(200);

    const r = await checkIns(key);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json<organisations.CheckInsBody>();
    const bucketOf = (ms: number) => new Date(Math.floor(ms / 300_000) * 300_000).toISOString();
    expect(body.buckets).toEqual([
      { at: bucketOf(firstAt), count: 2 },
      { at: bucketOf(t.clock.now().getTime()), count: 1 },
    ]);
    expect(body.from).toBe(new Date(Date.parse(startsAt) - 6 * 3600_000).toISOString());
    expect(body.conflicts).toEqual([
      { ticketExternalId: 't1', reason: 'already_used', scannedAt, syncedAt: expect.any(String) as string },
    ]);

    const other = await createOrg('bravo');
    expect((await checkIns(other)).json()).toMatchObject({ message: 'api.org.event_not_found' });
    expect((await checkIns(other)).statusCode).toBe(404);
  });
});
