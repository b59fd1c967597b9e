/**
 * The organiser side (issue 12): the admin API (ADMIN_KEY; organisations, API keys shown once and stored hashed,
 * rotation with an overlap, revocation), the organisation API (idempotent upserts of events, ticket types and
 * tickets by the organiser's ids, validation, issue and re-issue rules, revocation that removes the ticket from
 * the holder's lists and from the door), the CSV import (errors by spreadsheet row, dry run, all or nothing,
 * 1,000 rows), attendance, and isolation between two organisations.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MyTicket } from '@tp/contract';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
beforeEach(async () => {
  // 1,000 rows are imported in the request here (import-background.test.ts takes the background path).
  t = await createTestApp({
    seed: true,
    config: { adminKey: ADMIN, scannerKey: 'door-key', importBackgroundRows: 1000 },
  });
});
afterEach(async () => {
  await t.close();
});

type Row = Record<string, unknown>;
const rows = async (sql: string) => (await rawQuery<Row>(t.database.db, sql)).rows;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();

const createOrg = async (slug: string, extra: Record<string, unknown> = {}) => {
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug, name: `Org ${slug}`, ...extra },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<{ id: number; slug: string; apiKey: string }>();
};
const put = (key: string, path: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(key), payload });
const event = (extra: Record<string, unknown> = {}) => ({
  name: 'Harbour Lights',
  venue: 'The Domain',
  city: 'Sydney',
  country: 'AU',
  startsAt: iso(10 * DAY),
  endsAt: iso(10 * DAY + 8 * 3600_000),
  timeZone: 'Australia/Sydney',
  ...extra,
});
const ticketType = (extra: Record<string, unknown> = {}) => ({
  eventExternalId: 'evt-1',
  name: 'General Admission',
  priceCents: 8900,
  currency: 'AUD',
  isGiftable: true,
  isResellable: true,
  isSwappable: false,
  ...extra,
});
/** An organisation with one event `evt-1` and one ticket type `ga`. */
const orgWithType = async (slug: string) => {
  const org = await createOrg(slug);
  expect((await put(org.apiKey, 'events/evt-1', event())).statusCode).toBe(201);
  expect((await put(org.apiKey, 'ticket-types/ga', ticketType())).statusCode).toBe(201);
  return org;
};
const issue = (key: string, externalId: string, holderEmail: string, ticketTypeExternalId = 'ga') =>
  put(key, `tickets/${externalId}`, { ticketTypeExternalId, holderEmail });
const upcoming = async (email: string) => {
  const { accessToken } = await t.signIn(email);
  const r = await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(accessToken) });
  expect(r.statusCode).toBe(200);
  return r.json<MyTicket[]>();
};
const importCsv = (key: string, csv: string | Buffer, query = '') =>
  t.app.inject({
    method: 'POST',
    url: `/v1/org/tickets/import${query}`,
    headers: { ...bearer(key), 'content-type': 'text/csv' },
    payload: csv,
  });
const ticketCount = async (orgId: number) =>
  Number((await rows(`select count(*) as n from user_tickets where organisation_id = ${orgId}`))[0].n);

describe('admin API', () => {
  it('needs ADMIN_KEY; creates an organisation whose API key is shown once and stored hashed', async () => {
    const body = { slug: 'acme', name: 'Acme Live' };
    for (const headers of [{}, bearer('wrong'), bearer(`${ADMIN}x`)]) {
      const r = await t.app.inject({ method: 'POST', url: '/v1/admin/organisations', headers, payload: body });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toMatchObject({ message: 'api.unauthorized' });
    }
    const org = await createOrg('acme', {
      primaryColor: '#7c3aed',
      logoUrl: 'https://acme.example/logo.svg',
      helpCenterUrl: 'https://acme.example/help',
      appUrl: 'https://acme.example/app',
    });
    expect(org.slug).toBe('acme');
    expect(org.apiKey).toMatch(/^tpk_[\w-]{8}_[\w-]{43}$/);
    const [stored] = await rows(`select * from organisations where id = ${org.id}`);
    expect(stored).toMatchObject({ primary_color: '#7c3aed', logo: 'https://acme.example/logo.svg' });
    const keys = await rows(`select * from organisation_api_keys where organisation_id = ${org.id}`);
    expect(keys).toHaveLength(1);
    expect(JSON.stringify(keys)).not.toContain(org.apiKey);
    expect(org.apiKey.startsWith(keys[0].prefix as string)).toBe(true);
    // The key works on the organisation API.
    expect((await put(org.apiKey, 'events/e1', event())).statusCode).toBe(201);
  });

  it('refuses a taken slug and invalid brand fields', async () => {
    await createOrg('acme');
    const again = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/organisations',
      headers: bearer(ADMIN),
      payload: { slug: 'acme', name: 'Other' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'api.org.slug_taken' });
    for (const bad of [
      { slug: 'Bad Slug', name: 'x' },
      { slug: 'ok-slug', name: 'x', primaryColor: 'red' },
      { slug: 'ok-slug', name: 'x', logoUrl: 'http://insecure.example/logo.png' },
      { slug: 'ok-slug', name: 'x', helpCenterUrl: 'javascript:alert(1)' },
    ]) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/v1/admin/organisations',
        headers: bearer(ADMIN),
        payload: bad,
      });
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it('rotates keys with a one-hour overlap and revokes a key at once', async () => {
    const org = await createOrg('acme');
    const rotated = await t.app.inject({
      method: 'POST',
      url: `/v1/admin/organisations/${org.id}/api-keys`,
      headers: bearer(ADMIN),
    });
    expect(rotated.statusCode).toBe(201);
    const next = rotated.json<{ id: number; apiKey: string; previousKeysExpireAt: string }>();
    expect(next.apiKey).not.toBe(org.apiKey);
    expect(Date.parse(next.previousKeysExpireAt) - t.clock.now().getTime()).toBe(3600_000);
    expect((await put(org.apiKey, 'events/e1', event())).statusCode).toBe(201);
    expect((await put(next.apiKey, 'events/e1', event())).statusCode).toBe(200);
    t.clock.advance(3600_000 + 1000);
    expect((await put(org.apiKey, 'events/e1', event())).statusCode).toBe(401);
    expect((await put(next.apiKey, 'events/e1', event())).statusCode).toBe(200);
    const list = await t.app.inject({ url: `/v1/admin/organisations/${org.id}/api-keys`, headers: bearer(ADMIN) });
    expect(list.json<unknown[]>()).toHaveLength(2);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/organisations/${org.id}/api-keys/${next.id}`,
      headers: bearer(ADMIN),
    });
    expect(revoke.statusCode).toBe(204);
    expect((await put(next.apiKey, 'events/e1', event())).statusCode).toBe(401);
    const other = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/organisations/999999/api-keys/${next.id}`,
      headers: bearer(ADMIN),
    });
    expect(other.statusCode).toBe(404);
  });

  it('the seeded demo organisation is one of them', async () => {
    const key = await t.app.services.organisations.admin.addKeyBySlug('demo');
    expect(key).toBeDefined();
    expect((await put(key!.apiKey, 'events/demo-1', event())).statusCode).toBe(201);
    const [row] = await rows(`select o.slug from events e join organisations o on o.id = e.organisation_id
      where e.external_id = 'demo-1'`);
    expect(row.slug).toBe('demo');
  });
});

describe('organisation API', () => {
  it('answers 401 without a valid API key', async () => {
    for (const headers of [{}, bearer('tpk_aaaaaaaa_' + 'a'.repeat(43)), bearer(ADMIN)]) {
      const r = await t.app.inject({ method: 'PUT', url: '/v1/org/events/e1', headers, payload: event() });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toMatchObject({ message: 'api.unauthorized' });
    }
  });

  it('upserts an event idempotently: created, unchanged, updated', async () => {
    const { apiKey } = await createOrg('acme');
    const first = await put(apiKey, 'events/evt-1', event());
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ externalId: 'evt-1', status: 'created' });
    const again = await put(apiKey, 'events/evt-1', event());
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ externalId: 'evt-1', status: 'unchanged' });
    const changed = await put(apiKey, 'events/evt-1', event({ name: 'Harbour Lights 2027' }));
    expect(changed.json()).toEqual({ externalId: 'evt-1', status: 'updated' });
    expect(await rows(`select name from events where external_id = 'evt-1'`)).toEqual([
      { name: 'Harbour Lights 2027' },
    ]);
  });

  it('validates with the contract: country, time zone, currency, cents, dates, https URLs', async () => {
    const { apiKey } = await createOrg('acme');
    for (const bad of [
      event({ country: 'US' }),
      event({ timeZone: 'Mars/Olympus' }),
      event({ endsAt: iso(9 * DAY) }),
      event({ startsAt: 'tomorrow' }),
      event({ imageUrl: 'http://insecure.example/a.png' }),
      event({ latitude: 91 }),
      event({ name: 'Harbour\u0000Lights' }),
      event({ imageUrl: 'https://example.com/a\u0000.png' }),
      event({ description: 'x\u0000' }),
      event({ extra: 1 }),
    ]) {
      const r = await put(apiKey, 'events/evt-1', bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json<{ message: string }>().message).toBe('api.invalid_request_body');
    }
    expect((await put(apiKey, 'events/bad id', event())).statusCode).toBe(400);
    expect((await put(apiKey, 'events/evt-1', event())).statusCode).toBe(201);
    for (const bad of [
      ticketType({ currency: 'XYZ' }),
      ticketType({ currency: 'aud' }),
      ticketType({ priceCents: 89.5 }),
      ticketType({ priceCents: -1 }),
      ticketType({ isGiftable: 'yes' }),
    ]) {
      const r = await put(apiKey, 'ticket-types/ga', bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const unknownEvent = await put(apiKey, 'ticket-types/ga', ticketType({ eventExternalId: 'nope' }));
    expect(unknownEvent.statusCode).toBe(404);
    expect(unknownEvent.json()).toMatchObject({ message: 'api.org.event_not_found' });
  });

  it('upserts a ticket type with benefits; new benefits reach the live tickets of the type', async () => {
    const org = await orgWithType('acme');
    expect((await put(org.apiKey, 'ticket-types/ga', ticketType())).json()).toMatchObject({ status: 'unchanged' });
    expect((await issue(org.apiKey, 't1', 'holder@example.com')).statusCode).toBe(201);
    const withBenefit = ticketType({
      benefits: [{ externalId: 'drink', name: 'Drink voucher', type: 'benefits.food_beverage' }],
    });
    expect((await put(org.apiKey, 'ticket-types/ga', withBenefit)).json()).toMatchObject({ status: 'updated' });
    expect((await put(org.apiKey, 'ticket-types/ga', withBenefit)).json()).toMatchObject({ status: 'unchanged' });
    const [ticket] = await upcoming('holder@example.com');
    expect(ticket.benefits.map((b) => b.name)).toEqual(['Drink voucher']);
    expect((await put(org.apiKey, 'events/evt-2', event())).statusCode).toBe(201);
    const moved = await put(org.apiKey, 'ticket-types/ga', ticketType({ eventExternalId: 'evt-2' }));
    expect(moved.statusCode).toBe(409);
    expect(moved.json()).toMatchObject({ message: 'api.org.ticket_type_event_locked' });
  });

  it('issues a ticket: account created, holder e-mailed in their language, same PUT changes nothing', async () => {
    const org = await orgWithType('acme');
    const first = await issue(org.apiKey, 't1', 'New.Holder@Example.com');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ externalId: 't1', status: 'created' });
    await t.app.services.jobs.runDue();
    const mails = t.mail.sent.filter((m) => m.to === 'new.holder@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Your ticket for Harbour Lights');
    expect(mails[0].text).toContain('Org acme sent you "General Admission"');
    const again = await issue(org.apiKey, 't1', 'new.holder@example.com');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ externalId: 't1', status: 'unchanged' });
    await t.app.services.jobs.runDue();
    expect(t.mail.sent.filter((m) => m.to === 'new.holder@example.com')).toHaveLength(1);
    const held = await upcoming('new.holder@example.com');
    expect(held.map((h) => [h.eventName, h.ticketName])).toEqual([['Harbour Lights', 'General Admission']]);
    expect(held[0].eventLatitude).toBeNull();
    // A Spanish-speaking holder gets the Spanish mail.
    await rows(`update users set locale = 'es' where email = 'bob@example.com'`);
    expect((await issue(org.apiKey, 't2', 'bob@example.com')).statusCode).toBe(201);
    await t.app.services.jobs.runDue();
    expect(t.mail.sent.find((m) => m.to === 'bob@example.com')?.subject).toBe('Tu entrada para Harbour Lights');
  });

  it('the issue mail does not hold up the answer and is retried when sending fails', async () => {
    const org = await orgWithType('acme');
    t.mail.failNext(1);
    const r = await issue(org.apiKey, 't1', 'holder@example.com');
    expect(r.statusCode).toBe(201);
    // Answered; the first try failed and the retry waits its backoff (at most 36 s for the first).
    expect(t.mail.sent.filter((m) => m.to === 'holder@example.com')).toHaveLength(0);
    t.clock.advance(36_000);
    await t.app.services.jobs.runDue();
    expect(t.mail.sent.filter((m) => m.to === 'holder@example.com')).toHaveLength(1);
  });

  it('another holder re-issues an untouched ticket; a moved, used or listed ticket is not silently changed', async () => {
    const org = await orgWithType('acme');
    await issue(org.apiKey, 't1', 'first@example.com');
    const reissued = await issue(org.apiKey, 't1', 'second@example.com');
    expect(reissued.json()).toEqual({ externalId: 't1', status: 'updated' });
    expect(await upcoming('first@example.com')).toEqual([]);
    expect(await upcoming('second@example.com')).toHaveLength(1);
    // The holder gifts it: the organiser's same data changes nothing, another holder is refused.
    const [{ id }] = await rows(`select id from user_tickets where external_id = 't1'`);
    const { accessToken } = await t.signIn('second@example.com');
    const gift = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: bearer(accessToken),
      payload: { userTicketId: Number(id), username: 'friend@example.com' },
    });
    expect(gift.statusCode, gift.body).toBe(200);
    expect((await issue(org.apiKey, 't1', 'second@example.com')).json()).toMatchObject({ status: 'unchanged' });
    const moved = await issue(org.apiKey, 't1', 'third@example.com');
    expect(moved.statusCode).toBe(409);
    expect(moved.json()).toMatchObject({ message: 'api.org.ticket_moved' });
    // Used at the door.
    await issue(org.apiKey, 't2', 'first@example.com');
    await rows(`update user_tickets set event_access_used_at = now() where external_id = 't2'`);
    expect((await issue(org.apiKey, 't2', 'other@example.com')).json()).toMatchObject({
      message: 'api.org.ticket_used',
    });
    // Listed for resale.
    await issue(org.apiKey, 't3', 'first@example.com');
    await listForResale('t3');
    expect((await issue(org.apiKey, 't3', 'other@example.com')).json()).toMatchObject({
      message: 'api.org.ticket_in_resale',
    });
    // Another ticket type.
    await put(org.apiKey, 'ticket-types/vip', ticketType({ name: 'VIP' }));
    expect((await issue(org.apiKey, 't3', 'first@example.com', 'vip')).json()).toMatchObject({
      message: 'api.org.ticket_type_locked',
    });
    expect((await issue(org.apiKey, 't9', 'x@example.com', 'nope')).statusCode).toBe(404);
  });

  it("revoking takes the ticket off the holder's lists and from the door; it is final", async () => {
    const org = await orgWithType('acme');
    await issue(org.apiKey, 't1', 'holder@example.com');
    expect(await upcoming('holder@example.com')).toHaveLength(1);
    const del = await t.app.inject({ method: 'DELETE', url: '/v1/org/tickets/t1', headers: bearer(org.apiKey) });
    expect(del.statusCode).toBe(204);
    expect(await upcoming('holder@example.com')).toEqual([]);
    // The door admits nothing for it.
    const [{ id: userId }] = await rows(`select id from users where email = 'holder@example.com'`);
    const [{ id: eventId }] = await rows(`select id from events where external_id = 'evt-1'`);
    const code = await t.app.services.access.codeFor(Number(userId), Math.floor(t.clock.now().getTime() / 1000 / 30));
    const scan = await t.app.inject({
      method: 'POST',
      url: '/v1/access/check-in',
      headers: { 'x-scanner-key': 'door-key' },
      payload: { code, eventId: Number(eventId) },
    });
    expect(scan.statusCode).toBe(200);
    expect(scan.json()).toMatchObject({ admitted: [], alreadyUsed: [] });
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/v1/org/tickets/t1', headers: bearer(org.apiKey) })).statusCode,
    ).toBe(204);
    expect((await issue(org.apiKey, 't1', 'holder@example.com')).json()).toMatchObject({
      message: 'api.org.ticket_revoked',
    });
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/v1/org/tickets/nope', headers: bearer(org.apiKey) })).statusCode,
    ).toBe(404);
    // A ticket listed for resale is not revoked under its seller.
    await issue(org.apiKey, 't2', 'holder@example.com');
    await listForResale('t2');
    const listed = await t.app.inject({ method: 'DELETE', url: '/v1/org/tickets/t2', headers: bearer(org.apiKey) });
    expect(listed.statusCode).toBe(409);
    expect(listed.json()).toMatchObject({ message: 'api.org.ticket_in_resale' });
  });

  it('counts attendance over live tickets: issued, checked in, listed for resale, resold', async () => {
    const org = await orgWithType('acme');
    for (const n of [1, 2, 3, 4, 5]) await issue(org.apiKey, `t${n}`, `h${n}@example.com`);
    await rows(`update user_tickets set event_access_used_at = now() where external_id in ('t1', 't2')`);
    await listForResale('t3');
    await listForResale('t4', 'SOLD');
    await t.app.inject({ method: 'DELETE', url: '/v1/org/tickets/t5', headers: bearer(org.apiKey) });
    const r = await t.app.inject({ url: '/v1/org/events/evt-1/attendance', headers: bearer(org.apiKey) });
    expect(r.statusCode).toBe(200);
    // No scan was recorded (used_at was set by hand): nobody inside, no entries per day (issue 48).
    expect(r.json()).toEqual({
      issued: 4,
      checkedIn: 2,
      listedForResale: 1,
      resold: 1,
      insideByZone: [],
      entriesByDay: [],
    });
  });
});

/** Puts the ticket with this externalId in a resale listing row (LISTED, or SOLD). */
async function listForResale(externalId: string, status: 'LISTED' | 'SOLD' = 'LISTED') {
  const [tk] = await rows(`select id, holder_id, ticket_type_id from user_tickets where external_id = '${externalId}'`);
  const [listing] = await rows(`insert into resale_listings
    (seller_id, ticket_type_id, quantity, price_cents, fee_cents, currency_code, status, share_token, listed_at)
    values (${Number(tk.holder_id)}, ${Number(tk.ticket_type_id)}, 1, 1000, 100, 'AUD', '${status === 'SOLD' ? 'SOLD' : 'LISTED'}',
    'tok-${externalId}', now()) returning id`);
  await rows(`insert into resale_listing_tickets (listing_id, user_ticket_id, status)
    values (${Number(listing.id)}, ${Number(tk.id)}, '${status}')`);
}

describe('isolation between organisations', () => {
  it("another organisation's ids answer 404 everywhere; the same ids are each organisation's own", async () => {
    const a = await orgWithType('org-a');
    const b = await createOrg('org-b');
    await issue(a.apiKey, 't1', 'holder@example.com');
    // B cannot see or use A's event, ticket type or ticket.
    expect((await t.app.inject({ url: '/v1/org/events/evt-1/attendance', headers: bearer(b.apiKey) })).statusCode).toBe(
      404,
    );
    expect((await put(b.apiKey, 'ticket-types/ga', ticketType())).statusCode).toBe(404);
    expect((await issue(b.apiKey, 't2', 'holder@example.com')).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/v1/org/tickets/t1', headers: bearer(b.apiKey) })).statusCode,
    ).toBe(404);
    expect(
      (await importCsv(b.apiKey, 'externalId,ticketTypeExternalId,holderEmail\nt1,ga,x@example.com\n')).json(),
    ).toMatchObject({ errors: [{ row: 2, message: 'api.org.ticket_type_not_found' }] });
    // The same externalIds under B are B's own, and leave A's untouched.
    expect((await put(b.apiKey, 'events/evt-1', event({ name: 'B event' }))).statusCode).toBe(201);
    expect((await put(b.apiKey, 'ticket-types/ga', ticketType())).statusCode).toBe(201);
    expect((await issue(b.apiKey, 't1', 'other@example.com')).statusCode).toBe(201);
    expect((await issue(a.apiKey, 't1', 'holder@example.com')).json()).toMatchObject({ status: 'unchanged' });
    expect(await rows(`select name from events where external_id = 'evt-1' order by id`)).toEqual([
      { name: 'Harbour Lights' },
      { name: 'B event' },
    ]);
    const attendanceA = await t.app.inject({ url: '/v1/org/events/evt-1/attendance', headers: bearer(a.apiKey) });
    expect(attendanceA.json()).toMatchObject({ issued: 1 });
  });
});

describe('CSV import', () => {
  const header = 'externalId,ticketTypeExternalId,holderEmail';

  it('reports bad rows by spreadsheet row number and creates nothing', async () => {
    const org = await orgWithType('acme');
    const csv = [
      header,
      'r1,ga,one@example.com',
      'r2,nope,two@example.com',
      'r3,ga,not-an-email',
      '',
      'r1,ga,again@example.com',
      'r 6,ga,six@example.com',
    ].join('\n');
    const r = await importCsv(org.apiKey, csv);
    expect(r.statusCode).toBe(422);
    expect(r.json()).toMatchObject({
      message: 'api.org.import.invalid_rows',
      errors: [
        // Each with the value as typed, for the console to show in any language (issue 41 point 12, re-walk).
        { row: 3, message: 'api.org.ticket_type_not_found', field: 'ticketTypeExternalId', value: 'nope' },
        { row: 4, message: 'api.invalid_request_body', field: 'holderEmail', value: 'not-an-email' },
        { row: 6, message: 'api.org.import.duplicate_external_id', field: 'externalId', value: 'r1' },
        { row: 7, message: 'api.invalid_request_body', field: 'externalId', value: 'r 6' },
      ],
    });
    expect(await ticketCount(org.id)).toBe(0);
    expect(await rows(`select 1 from users where email = 'one@example.com'`)).toEqual([]);
  });

  it('a row lists all its errors: every bad column, and an unknown ticket type beside a bad e-mail', async () => {
    const org = await orgWithType('acme');
    const csv = [header, 'r1,nope,not-an-email', ',ga,', 'r3,nope,three@example.com'].join('\n');
    for (const query of ['', '?dryRun=true']) {
      const r = await importCsv(org.apiKey, csv, query);
      expect(r.statusCode).toBe(422);
      expect(r.json<{ errors: object[] }>().errors).toEqual([
        expect.objectContaining({ row: 2, message: 'api.invalid_request_body', field: 'holderEmail' }),
        { row: 2, message: 'api.org.ticket_type_not_found', field: 'ticketTypeExternalId', value: 'nope' },
        expect.objectContaining({ row: 3, message: 'api.invalid_request_body', field: 'externalId', value: '' }),
        expect.objectContaining({ row: 3, message: 'api.invalid_request_body', field: 'holderEmail' }),
        { row: 4, message: 'api.org.ticket_type_not_found', field: 'ticketTypeExternalId', value: 'nope' },
      ]);
    }
    expect(await ticketCount(org.id)).toBe(0);
  });

  it('dry run checks and counts without writing; the import then creates, and again changes nothing', async () => {
    const org = await orgWithType('acme');
    await issue(org.apiKey, 'r1', 'one@example.com');
    const csv = `\uFEFFholderEmail,externalId,ticketTypeExternalId,note\r\none@example.com,r1,ga,x\r\ntwo@example.com,r2,ga,y\r\n`;
    const dry = await importCsv(org.apiKey, csv, '?dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toEqual({ dryRun: true, created: 1, updated: 0, unchanged: 1 });
    expect(await ticketCount(org.id)).toBe(1);
    const real = await importCsv(org.apiKey, csv);
    expect(real.json()).toEqual({ dryRun: false, created: 1, updated: 0, unchanged: 1 });
    expect(await ticketCount(org.id)).toBe(2);
    expect((await importCsv(org.apiKey, csv)).json()).toEqual({ dryRun: false, created: 0, updated: 0, unchanged: 2 });
    expect(await upcoming('two@example.com')).toHaveLength(1);
  });

  it('refuses a file without the header, a body that is not CSV, and anything but text/csv', async () => {
    const org = await orgWithType('acme');
    const noHeader = await importCsv(org.apiKey, 'r1,ga,one@example.com\n');
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json()).toMatchObject({ message: 'api.org.import.missing_header' });
    const broken = await importCsv(org.apiKey, `${header}\n"r1,ga,one@example.com\n`);
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ message: 'api.org.import.invalid_csv' });
    const json = await t.app.inject({
      method: 'POST',
      url: '/v1/org/tickets/import',
      headers: bearer(org.apiKey),
      payload: { rows: [] },
    });
    // Refused on its Content-Type, naming the one it takes (issue 41, point 10).
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ message: 'api.org.import.not_csv' });
    expect((await importCsv(org.apiKey, '')).statusCode).toBe(400);
  });

  it('reads files as spreadsheets save them: UTF-16 LE/BE (with or without a BOM), tabs, semicolons (issue 28)', async () => {
    const org = await orgWithType('acme');
    const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();
    // Excel's "Unicode text": UTF-16 LE with a BOM, tab-separated, CRLF; a non-Latin-1 name in another column.
    const tsv = `holderEmail\texternalId\tticketTypeExternalId\tname\r\nlucja@example.com\tu1\tga\tŁucja Київ\r\nu2@example.com\tu2\tga\tΑθηνά\r\n`;
    const cases: [string, Buffer][] = [
      ['UTF-16 LE + BOM, tabs', Buffer.from(`\uFEFF${tsv}`, 'utf16le')],
      ['UTF-16 BE + BOM, tabs', utf16be(`\uFEFF${tsv}`)],
      ['UTF-16 LE without BOM', Buffer.from(tsv, 'utf16le')],
      ['UTF-16 BE without BOM', utf16be(tsv)],
      ['UTF-8, tabs', Buffer.from(tsv)],
      ['UTF-8, semicolons', Buffer.from(tsv.replaceAll('\t', ';'))],
    ];
    for (const [name, body] of cases) {
      const r = await importCsv(org.apiKey, body, '?dryRun=true');
      expect(r.statusCode, `${name}: ${r.body}`).toBe(200);
      expect(r.json(), name).toEqual({ dryRun: true, created: 2, updated: 0, unchanged: 0 });
    }
    // Read byte-exact: the holder's address with its Ł is the one created.
    expect((await importCsv(org.apiKey, cases[0][1])).json()).toMatchObject({ created: 2 });
    expect(await upcoming('lucja@example.com')).toHaveLength(1);
    // A bad row in a UTF-16 file is still reported by its spreadsheet row.
    const bad = await importCsv(org.apiKey, Buffer.from(`\uFEFF${tsv}u3@example.com\tu3\tnope\r\n`, 'utf16le'));
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ errors: [{ row: 4, field: 'ticketTypeExternalId' }] });
  });

  it('refuses text that is neither UTF-8 nor UTF-16, naming the encoding (issue 28)', async () => {
    const org = await orgWithType('acme');
    // Windows-1252 (Excel's plain "CSV" on some systems): "Łódź" cannot be written, "José" is 0xE9.
    const latin1 = Buffer.from(`${header}\nt1,ga,jos\xe9@example.com\n`, 'latin1');
    const r1 = await importCsv(org.apiKey, latin1);
    expect(r1.statusCode).toBe(400);
    expect(r1.json()).toMatchObject({ message: 'api.org.import.unsupported_encoding', encoding: 'unknown' });
    const utf32 = Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from(header, 'utf16le')]);
    const r2 = await importCsv(org.apiKey, utf32);
    expect(r2.statusCode).toBe(400);
    expect(r2.json()).toMatchObject({ message: 'api.org.import.unsupported_encoding', encoding: 'utf-32le' });
    // A UTF-16 file cut in the middle of a character.
    const cut = Buffer.from(`\uFEFF${header}\r\nt1\tga\tx@example.com`, 'utf16le').subarray(0, -1);
    const r3 = await importCsv(org.apiKey, cut);
    expect(r3.statusCode).toBe(400);
    expect(r3.json()).toMatchObject({ message: 'api.org.import.unsupported_encoding', encoding: 'utf-16le' });
    expect(await ticketCount(org.id)).toBe(0);
  });

  it('takes at most 50,000 rows on both databases, states it (GET) and names it in a 413 (decisions 027, 040)', async () => {
    const org = await orgWithType('acme');
    const file = (n: number) =>
      [header, ...Array.from({ length: n }, (_, i) => `t${i},ga,holder${i}@example.com`)].join('\n');
    const limit = 50_000;
    // The instance states its limits (issue 41, point 3: the console showed a hard-coded 10,000).
    const limits = await t.app.inject({ url: '/v1/org/tickets/import', headers: bearer(org.apiKey) });
    expect(limits.statusCode).toBe(200);
    expect(limits.json()).toEqual({ maxRows: limit, maxBytes: 10 * 1024 * 1024, backgroundRows: 1000 });
    expect((await t.app.inject({ url: '/v1/org/tickets/import' })).statusCode).toBe(401);
    // Blank rows are not counted (a dry run of the largest file checks every row in the request).
    expect((await importCsv(org.apiKey, `${file(limit)}\n\n\n`, '?dryRun=true')).json()).toMatchObject({
      created: limit,
    });
    const over = await importCsv(org.apiKey, file(limit + 1));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({
      message: 'api.org.import.too_many_rows',
      detail: `This service takes at most ${limit} data rows per import: split the file into several imports (each is all or nothing).`,
    });
    expect(await ticketCount(org.id)).toBe(0);
  });

  it('imports 1,000 holders in one request', async () => {
    const org = await orgWithType('acme');
    const lines = Array.from({ length: 1000 }, (_, i) => `t${i},ga,holder${i}@example.com`);
    const started = performance.now();
    const r = await importCsv(org.apiKey, [header, ...lines].join('\n'));
    const ms = performance.now() - started;
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ dryRun: false, created: 1000, updated: 0, unchanged: 0 });
    console.log(`[bench] 1,000-row import: ${Math.round(ms)} ms`);
    expect(await ticketCount(org.id)).toBe(1000);
    await t.app.services.jobs.runDue();
    expect(t.mail.sent.filter((m) => m.subject === 'Your ticket for Harbour Lights')).toHaveLength(1000);
    const again = await importCsv(org.apiKey, [header, ...lines].join('\n'));
    expect(again.json()).toEqual({ dryRun: false, created: 0, updated: 0, unchanged: 1000 });
  });
});

describe("a new holder's language (issue 40)", () => {
  const mailTo = (email: string) => t.mail.sent.filter((m) => m.to === email);
  const localeOf = async (email: string) =>
    (await rows(`select locale from users where email = '${email}'`))[0]?.locale;

  it('PUT with holderLanguage es makes a Spanish account whose first e-mail is Spanish; an existing account keeps its own', async () => {
    const org = await orgWithType('acme');
    const r = await put(org.apiKey, 'tickets/t-es', {
      ticketTypeExternalId: 'ga',
      holderEmail: 'ana@example.com',
      holderLanguage: 'es',
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(await localeOf('ana@example.com')).toBe('es');
    const [first] = mailTo('ana@example.com');
    expect(first.subject).toBe('Tu entrada para Harbour Lights');
    expect(first.text).toContain('Org acme te ha enviado «General Admission» para Harbour Lights.');

    // Without it: English, as before.
    expect((await issue(org.apiKey, 't-en', 'ben@example.com')).statusCode).toBe(201);
    expect(mailTo('ben@example.com')[0].subject).toBe('Your ticket for Harbour Lights');
    // An account that exists keeps its language (the holder's own choice wins over the organiser's).
    const again = await put(org.apiKey, 'tickets/t-en-2', {
      ticketTypeExternalId: 'ga',
      holderEmail: 'ben@example.com',
      holderLanguage: 'es',
    });
    expect(again.statusCode).toBe(201);
    expect(await localeOf('ben@example.com')).toBe('en');
    expect(mailTo('ben@example.com').at(-1)!.subject).toBe('Your ticket for Harbour Lights');
    // Only en and es.
    const fr = await put(org.apiKey, 'tickets/t-fr', {
      ticketTypeExternalId: 'ga',
      holderEmail: 'cy@example.com',
      holderLanguage: 'fr',
    });
    expect(fr.statusCode).toBe(400);
  });

  it("the import's optional holderLanguage column (any case, empty for en) sets each new account's language", async () => {
    const org = await orgWithType('acme');
    const csv =
      'externalId,ticketTypeExternalId,holderEmail,holderLanguage\nc1,ga,dora@example.com,ES\nc2,ga,eli@example.com,\n';
    const r = await importCsv(org.apiKey, csv);
    expect(r.statusCode, r.body).toBe(200);
    expect(await localeOf('dora@example.com')).toBe('es');
    expect(await localeOf('eli@example.com')).toBe('en');
    expect(mailTo('dora@example.com')[0].subject).toBe('Tu entrada para Harbour Lights');
    expect(mailTo('eli@example.com')[0].subject).toBe('Your ticket for Harbour Lights');

    const bad = await importCsv(
      org.apiKey,
      'externalId,ticketTypeExternalId,holderEmail,holderLanguage\nc3,ga,f@example.com,fr\n',
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({
      message: 'api.org.import.invalid_rows',
      errors: [{ row: 2, message: 'api.invalid_request_body', field: 'holderLanguage', value: 'fr' }],
    });
  });
});

describe('OpenAPI', () => {
  it('documents the admin and organisation APIs with examples', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, { requestBody?: unknown; security?: unknown }>>;
    }>();
    for (const path of [
      '/v1/admin/organisations',
      '/v1/org/events/{externalId}',
      '/v1/org/ticket-types/{externalId}',
      '/v1/org/tickets/{externalId}',
      '/v1/org/tickets/import',
      '/v1/org/events/{externalId}/attendance',
    ])
      expect(doc.paths[path], path).toBeDefined();
    const put = JSON.stringify(doc.paths['/v1/org/events/{externalId}'].put);
    expect(put).toContain('Australia/Sydney');
    expect(doc.paths['/v1/org/events/{externalId}'].put.security).toEqual([{ organisationApiKey: [] }]);
  });
});
