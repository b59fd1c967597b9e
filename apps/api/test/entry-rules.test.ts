/**
 * Entry rules (issue 48, decision 050) through the API: a ticket type's `entryRules` (PUT and GET, refused when
 * malformed), door keys' `mode` and `zone` (and GET /v1/access/door), online check-ins judged by days, re-entry,
 * exits and zones (the reason in `refused`, exits in `exited`, the check-in log's verdict, `usedAt` kept as the first
 * entry), the holder's listing with the rules and scans, synced offline scans judged in scan order with the new
 * conflicts, the admissions snapshot's rules, scans and time zone, and attendance per zone and per day.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { access, MyTicket } from '@tp/contract';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const PLATFORM = 'platform-scanner-key';
/** Friday 14:00 in Sydney (UTC+10 in July); Saturday starts there at 2027-07-09T14:00Z. */
const START = new Date('2027-07-09T04:00:00.000Z');
const HOUR = 3_600_000;
const PASS_RULES = { days: ['2027-07-10', '2027-07-11'], entries: 'reentry', zones: ['VIP'] } as const;
let t: TestApp;
let apiKey: string;
beforeEach(async () => {
  t = await createTestApp({ start: START, config: { adminKey: ADMIN, scannerKey: PLATFORM, qrTtlSeconds: 30 } });
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug: 'fest', name: 'Fest' },
  });
  apiKey = r.json<{ apiKey: string }>().apiKey;
  const e = await put('events/fest', {
    name: 'Summer Fest',
    venue: 'Park',
    city: 'Sydney',
    country: 'AU',
    startsAt: '2027-07-10T04:00:00.000Z',
    endsAt: '2027-07-11T12:00:00.000Z',
    timeZone: 'Australia/Sydney',
  });
  expect(e.statusCode, e.body).toBe(201);
});
afterEach(async () => {
  await t.close();
});

type Row = Record<string, unknown>;
const rows = async (sql: string) => (await rawQuery<Row>(t.database.db, sql)).rows;
const put = (path: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(apiKey), payload });
const typeBody = (entryRules?: unknown) => ({
  eventExternalId: 'fest',
  name: 'Weekend pass',
  priceCents: 9000,
  currency: 'AUD',
  isGiftable: true,
  isResellable: true,
  isSwappable: false,
  ...(entryRules !== undefined && { entryRules }),
});
const readType = async () =>
  (await t.app.inject({ url: '/v1/org/ticket-types?event=fest', headers: bearer(apiKey) })).json<{
    items: { entryRules: unknown }[];
  }>().items[0];

/** A type `externalId` with these rules and a ticket of it for `email`; the ticket's id and its holder's. */
async function ticketOf(externalId: string, entryRules: unknown, email: string) {
  expect((await put(`ticket-types/${externalId}`, typeBody(entryRules))).statusCode).toBe(201);
  const ticketExternalId = `${externalId}-${email.split('@')[0]}`;
  const r = await put(`tickets/${ticketExternalId}`, { ticketTypeExternalId: externalId, holderEmail: email });
  expect(r.statusCode, r.body).toBe(201);
  const [row] = await rows(
    `select ut.id, ut.holder_id from user_tickets ut where ut.external_id = '${ticketExternalId}'`,
  );
  return { ticketId: Number(row.id), userId: Number(row.holder_id) };
}
const eventId = async () => Number((await rows(`select id from events where external_id = 'fest'`))[0].id);
/** A door key of the organisation with this mode and zone. */
async function doorKey(body: object) {
  const r = await t.app.inject({ method: 'POST', url: '/v1/org/door-keys', headers: bearer(apiKey), payload: body });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<{ key: string }>().key;
}
const codeAt = (userId: number, at: Date) => t.app.services.access.codeFor(userId, Math.floor(at.getTime() / 30_000));
async function scan(key: string, userId: number, direction?: 'in' | 'out') {
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/access/check-in',
    headers: { 'x-scanner-key': key },
    payload: { code: await codeAt(userId, t.clock.now()), eventId: await eventId(), ...(direction && { direction }) },
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json<access.CheckInResponse>();
}

describe('entry rules of a ticket type', () => {
  it('are taken by PUT and read back; absent keeps them, null clears them; malformed ones are refused', async () => {
    expect((await put('ticket-types/pass', typeBody(PASS_RULES))).statusCode).toBe(201);
    expect((await readType()).entryRules).toEqual(PASS_RULES);
    // The same rules again are no change.
    expect((await put('ticket-types/pass', typeBody(PASS_RULES))).json()).toMatchObject({ status: 'unchanged' });
    expect((await put('ticket-types/pass', typeBody())).statusCode).toBe(200);
    expect((await readType()).entryRules).toEqual(PASS_RULES);
    expect((await put('ticket-types/pass', typeBody({ entries: 'once_per_day' }))).json()).toMatchObject({
      status: 'updated',
    });
    expect((await readType()).entryRules).toEqual({ entries: 'once_per_day' });
    expect((await put('ticket-types/pass', typeBody(null))).statusCode).toBe(200);
    expect((await readType()).entryRules).toBeNull();
    for (const [rules, field] of [
      [{ entries: 'once', days: ['2027-07-11', '2027-07-10'] }, 'entryRules.days'],
      [{ entries: 'once', days: ['2027-02-30'] }, 'entryRules.days.0'],
      [{ entries: 'once', zones: ['VIP', 'VIP'] }, 'entryRules.zones'],
      [{ entries: 'once', zones: ['x'.repeat(41)] }, 'entryRules.zones.0'],
      [{ entries: 'twice' }, 'entryRules.entries'],
      [{ entries: 'once', gates: [] }, 'entryRules'],
    ] as const) {
      const r = await put('ticket-types/pass', typeBody(rules));
      expect(r.statusCode, JSON.stringify(rules)).toBe(400);
      expect(Object.keys(r.json<{ fields: object }>().fields)).toContain(field);
    }
  });
});

describe('door keys with a mode and a zone', () => {
  it('are listed with them and say them on GET /v1/access/door (the platform key: an entry door of no zone)', async () => {
    const key = await doorKey({ name: 'VIP exit', mode: 'exit', zone: 'VIP' });
    await doorKey({ name: 'Main gate' });
    const list = await t.app.inject({ url: '/v1/org/door-keys', headers: bearer(apiKey) });
    expect(
      list.json<{ name: string; mode: string; zone: string | null }[]>().map((k) => [k.name, k.mode, k.zone]),
    ).toEqual([
      ['VIP exit', 'exit', 'VIP'],
      ['Main gate', 'entry', null],
    ]);
    const info = await t.app.inject({ url: '/v1/access/door', headers: { 'x-scanner-key': key } });
    expect(info.json()).toEqual({ name: 'VIP exit', mode: 'exit', zone: 'VIP' });
    const platform = await t.app.inject({ url: '/v1/access/door', headers: { 'x-scanner-key': PLATFORM } });
    expect(platform.json()).toEqual({ name: null, mode: 'entry', zone: null });
    expect((await t.app.inject({ url: '/v1/access/door' })).statusCode).toBe(401);
    // One spelling per zone: a decomposed "Café" is stored composed; an invisible character is refused.
    await doorKey({ name: 'Café door', zone: 'Cafe\u0301' });
    const cafe = (await t.app.inject({ url: '/v1/org/door-keys', headers: bearer(apiKey) }))
      .json<{ name: string; zone: string | null }[]>()
      .find((k) => k.name === 'Café door');
    expect(cafe?.zone).toBe('Caf\u00e9');
    const hidden = await t.app.inject({
      method: 'POST',
      url: '/v1/org/door-keys',
      headers: bearer(apiKey),
      payload: { name: 'Hidden', zone: 'VIP\u200b' },
    });
    expect(hidden.statusCode).toBe(400);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/org/door-keys',
      headers: bearer(apiKey),
      payload: { name: 'x', mode: 'sideways' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('online check-in by the entry rules', () => {
  it('refuses the wrong day, re-admits after an exit, keeps zones apart, and logs the rule that decided', async () => {
    const { ticketId, userId } = await ticketOf('pass', PASS_RULES, 'carol@example.com');
    /** The holder's own view of the ticket (its listing row, kept by version on the instance, decision 036). */
    const mine = async () => {
      const { accessToken } = await t.signIn('carol@example.com');
      const r = await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(accessToken) });
      expect(r.json<MyTicket[]>(), r.body).toHaveLength(1);
      return r.json<MyTicket[]>()[0];
    };
    expect(await mine()).toMatchObject({ entryRules: PASS_RULES, scans: [] });
    const main = await doorKey({ name: 'Main gate' });
    const mainExit = await doorKey({ name: 'Main exit', mode: 'exit' });
    const vip = await doorKey({ name: 'VIP', zone: 'VIP' });
    const backstage = await doorKey({ name: 'Backstage', zone: 'Backstage' });
    const ticket = { userTicketId: ticketId, ticketName: 'Weekend pass' };
    const { days, zones } = PASS_RULES;

    // Friday 14:00 in Sydney: not one of its days.
    expect((await scan(main, userId)).refused).toEqual([{ ...ticket, reason: 'not_valid_today', days, zones }]);
    // Saturday 00:30 in Sydney (Friday 14:30 UTC): its first day.
    t.clock.advance(10.5 * HOUR);
    const firstEntry = t.clock.now().toISOString();
    expect((await scan(main, userId)).admitted).toEqual([ticket]);
    expect((await mine()).scans).toHaveLength(1);
    expect((await scan(main, userId)).refused).toEqual([{ ...ticket, reason: 'already_inside', days, zones }]);
    expect((await scan(backstage, userId)).refused).toEqual([{ ...ticket, reason: 'wrong_zone', days, zones }]);
    expect((await scan(vip, userId)).admitted).toEqual([ticket]);
    t.clock.advance(HOUR);
    expect((await scan(mainExit, userId)).exited).toEqual([ticket]);
    expect((await scan(mainExit, userId)).refused).toEqual([{ ...ticket, reason: 'not_inside', days, zones }]);
    // An entry door's scan may say it is an exit.
    expect((await scan(main, userId, 'out')).refused?.[0].reason).toBe('not_inside');
    t.clock.advance(HOUR);
    const again = await scan(main, userId);
    expect(again).toMatchObject({ admitted: [ticket], alreadyUsed: [], listedForResale: [] });
    expect(again.exited).toBeUndefined();
    expect(again.refused).toBeUndefined();
    // The holder sees each scan as it is recorded: after the first entry only ticket_scans changed, and the kept
    // listing row has a new version (migration 0033's trigger).
    expect((await mine()).scans?.map((x) => [x.direction, x.zone, x.day])).toEqual([
      ['in', null, '2027-07-10'],
      ['in', 'VIP', '2027-07-10'],
      ['out', null, '2027-07-10'],
      ['in', null, '2027-07-10'],
    ]);
    // event_access_used_at stays the first entry.
    const [used] = await rows(`select event_access_used_at as u from user_tickets where id = ${ticketId}`);
    expect(new Date(used.u as string).toISOString()).toBe(firstEntry);
    const log = await rows(`select verdict from check_in_log where event_id = ${await eventId()} order by id`);
    expect(log.map((r) => r.verdict)).toEqual([
      'not_valid_today',
      'admitted',
      'already_inside',
      'wrong_zone',
      'admitted',
      'exited',
      'not_inside',
      'not_inside',
      'admitted',
    ]);
    const attendance = await t.app.inject({ url: '/v1/org/events/fest/attendance', headers: bearer(apiKey) });
    expect(attendance.json()).toMatchObject({
      checkedIn: 1,
      insideByZone: [
        { zone: null, inside: 1 },
        { zone: 'VIP', inside: 1 },
      ],
      entriesByDay: [{ day: '2027-07-10', entries: 1 }],
    });
  });

  it('without rules admits once, as before issue 48, and an exit door lets the holder out without a new entry', async () => {
    const { ticketId, userId } = await ticketOf('ga', undefined, 'dave@example.com');
    const exit = await doorKey({ name: 'Exit', mode: 'exit' });
    const ticket = { userTicketId: ticketId, ticketName: 'Weekend pass' };
    expect(await scan(PLATFORM, userId)).toEqual({
      holderName: expect.any(String) as string,
      admitted: [ticket],
      alreadyUsed: [],
      listedForResale: [],
    });
    expect((await scan(exit, userId)).exited).toEqual([ticket]);
    expect((await scan(PLATFORM, userId)).alreadyUsed).toEqual([{ ...ticket, usedAt: START.toISOString() }]);
  });

  it('a revoked ticket inside is nobody inside (it can no longer scan out)', async () => {
    const { userId } = await ticketOf('ga', undefined, 'erin@example.com');
    await scan(PLATFORM, userId);
    const inside = async () =>
      (await t.app.inject({ url: '/v1/org/events/fest/attendance', headers: bearer(apiKey) })).json<{
        insideByZone: unknown[];
      }>().insideByZone;
    expect(await inside()).toEqual([{ zone: null, inside: 1 }]);
    const revoked = await t.app.inject({ method: 'DELETE', url: '/v1/org/tickets/ga-erin', headers: bearer(apiKey) });
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect(await inside()).toEqual([]);
  });
});

describe('offline scans by the entry rules', () => {
  it('are judged in scan order on sync, with the rules’ conflicts, and the snapshot carries rules, scans and time zone', async () => {
    const day = await ticketOf('day', { entries: 'once_per_day' }, 'erin@example.com');
    const vipOnly = await ticketOf('vip', { entries: 'once', zones: ['VIP'] }, 'erin@example.com');
    const backstage = await doorKey({ name: 'Backstage', zone: 'Backstage' });
    const sat = new Date('2027-07-10T08:00:00.000Z');
    const sun = new Date('2027-07-10T22:00:00.000Z');
    t.clock.advance(sun.getTime() + HOUR - START.getTime());
    const item = async (at: Date, ids: number[], direction?: 'in' | 'out'): Promise<access.SyncItem> => ({
      id: randomUUID(),
      code: await codeAt(day.userId, at),
      scannedAt: at.toISOString(),
      userTicketIds: ids,
      ...(direction && { direction }),
    });
    const items = [
      await item(sun, [day.ticketId]),
      await item(sat, [day.ticketId, vipOnly.ticketId]),
      await item(new Date(sun.getTime() + HOUR / 2), [day.ticketId]),
      await item(new Date(sun.getTime() + HOUR / 2), [vipOnly.ticketId], 'out'),
    ];
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/access/sync',
      headers: { 'x-scanner-key': backstage },
      payload: { eventId: await eventId(), items },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json<access.SyncResponse>().results).toEqual([
      { id: items[0].id, admitted: [day.ticketId], conflicts: [] },
      {
        id: items[1].id,
        admitted: [day.ticketId],
        conflicts: [{ userTicketId: vipOnly.ticketId, reason: 'wrong_zone' }],
      },
      { id: items[2].id, admitted: [], conflicts: [{ userTicketId: day.ticketId, reason: 'already_used' }] },
      { id: items[3].id, admitted: [], conflicts: [{ userTicketId: vipOnly.ticketId, reason: 'not_inside' }] },
    ]);
    const page = await t.app.inject({
      url: `/v1/access/events/${await eventId()}/admissions`,
      headers: { 'x-scanner-key': backstage },
    });
    const snapshot = page.json<access.AdmissionsPage>();
    expect(snapshot.timeZone).toBe('Australia/Sydney');
    expect(snapshot.holders[0].tickets).toEqual([
      {
        userTicketId: day.ticketId,
        ticketName: 'Weekend pass',
        usedAt: sat.toISOString(),
        listed: false,
        entryRules: { entries: 'once_per_day' },
        scans: [
          { at: sat.toISOString(), direction: 'in', zone: 'Backstage', day: '2027-07-10' },
          { at: sun.toISOString(), direction: 'in', zone: 'Backstage', day: '2027-07-11' },
        ],
      },
      {
        userTicketId: vipOnly.ticketId,
        ticketName: 'Weekend pass',
        usedAt: null,
        listed: false,
        entryRules: { entries: 'once', zones: ['VIP'] },
      },
    ]);
    const attendance = await t.app.inject({ url: '/v1/org/events/fest/attendance', headers: bearer(apiKey) });
    expect(attendance.json()).toMatchObject({
      insideByZone: [{ zone: 'Backstage', inside: 1 }],
      entriesByDay: [
        { day: '2027-07-10', entries: 1 },
        { day: '2027-07-11', entries: 1 },
      ],
    });
  });
});
