/**
 * The offline door (issue 10 point 4): the admissions snapshot (scanner key, content, paging, no
 * e-mails) and the sync of check-ins queued offline (the server judges each: valid ones recorded at the
 * scan time, a resent item id answered again without a change, the same ticket admitted at two doors,
 * a ticket gifted away after the snapshot, a forged pass), judgements stored in door_check_ins.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { access } from '@tp/contract';
import { rawQuery, bearer, createTestApp, type TestApp } from './helper.js';

const KEY = 'door-key-for-tests';
let t: TestApp;
let alice: string;
beforeEach(async () => {
  t = await createTestApp({ seed: true, config: { scannerKey: KEY, qrTtlSeconds: 30 } });
  alice = (await t.signIn('alice@example.com')).accessToken;
  await t.signIn('bob@example.com');
});
afterEach(async () => {
  await t.close();
});

type Row = Record<string, unknown>;
const rows = async (sql: string) => (await rawQuery<Row>(t.database.db, sql)).rows;
const userId = async (email: string) => Number((await rows(`select id from users where email = '${email}'`))[0].id);
const eventId = async (name: string) => Number((await rows(`select id from events where name = '${name}'`))[0].id);
const passOf = async (email: string) =>
  t.app.services.access.codeFor(await userId(email), Math.floor(t.clock.now().getTime() / 1000 / 30));
const heldIds = async (email: string, event: string) =>
  Object.fromEntries(
    (
      await rows(
        `select ut.id, tt.name from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id join events e on e.id = tt.event_id join users u on u.id = ut.holder_id
   where u.email = '${email}' and e.name = '${event}' order by ut.id`,
      )
    ).map((r) => [r.name as string, Number(r.id)]),
  );
const usedAt = async (id: number) => {
  const v = (await rows(`select event_access_used_at from user_tickets where id = ${id}`))[0].event_access_used_at as
    Date | string | null;
  return v === null ? null : new Date(v).toISOString();
};

const admissions = (event: number, query = '', key: string | null = KEY) =>
  t.app.inject({
    url: `/v1/access/events/${event}/admissions${query}`,
    headers: key === null ? {} : { 'x-scanner-key': key },
  });
const sync = (body: unknown, key: string = KEY) =>
  t.app.inject({ method: 'POST', url: '/v1/access/sync', headers: { 'x-scanner-key': key }, payload: body as object });
const synced = async (event: number, items: access.SyncItem[]) => {
  const r = await sync({ eventId: event, items });
  expect(r.statusCode, r.body).toBe(200);
  return r.json<access.SyncResponse>().results;
};
/** A queued item as the door makes it: the pass scanned now, the tickets it admitted. */
const item = async (email: string, userTicketIds: number[]): Promise<access.SyncItem> => ({
  id: randomUUID(),
  code: await passOf(email),
  scannedAt: t.clock.now().toISOString(),
  userTicketIds,
});

describe('the admissions snapshot', () => {
  it("lists the event's holders by user id with the name the door shows and each ticket's state, no e-mail; scanner key only", async () => {
    const laneway = await eventId('Laneway Sessions');
    const a = await heldIds('alice@example.com', 'Laneway Sessions');
    const b = await heldIds('bob@example.com', 'Laneway Sessions');
    const r = await admissions(laneway);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const page = r.json<access.AdmissionsPage>();
    expect(page.takenAt).toBe(t.clock.now().toISOString());
    expect(page.nextAfter).toBeNull();
    expect(page).toMatchObject({ passTtlSeconds: 30, passSkewSteps: 1 });
    expect(typeof page.timeZone).toBe('string');
    const [aliceId, bobId] = [await userId('alice@example.com'), await userId('bob@example.com')];
    expect(page.holders.map((h) => h.userId)).toEqual([aliceId, bobId].sort((x, y) => x - y));
    const alices = page.holders.find((h) => h.userId === aliceId)!;
    expect(alices).toEqual({
      userId: aliceId,
      holderName: 'Alice Nguyen',
      tickets: [
        {
          userTicketId: a['General Admission'],
          ticketName: 'General Admission',
          usedAt: null,
          listed: false,
          entryRules: null,
        },
        // No scan recorded: no `scans` (the door reads a first use, had there been one, as the one entry).
        { userTicketId: a['VIP'], ticketName: 'VIP', usedAt: null, listed: false, entryRules: null },
      ].sort((x, y) => x.userTicketId - y.userTicketId),
    });
    expect(page.holders.find((h) => h.userId === bobId)!.tickets.map((x) => x.userTicketId)).toEqual(
      Object.values(b).sort((x, y) => x - y),
    );
    expect(r.body).not.toContain('@example.com');

    for (const key of [null, 'wrong']) {
      const denied = await admissions(laneway, '', key);
      expect(denied.statusCode).toBe(401);
      expect(denied.json()).toEqual({ message: 'api.access.scanner_unauthorized' });
    }
    expect((await admissions(999_999)).statusCode).toBe(404);
    expect((await admissions(laneway, '?limit=5000')).statusCode).toBe(400);
  });

  it('pages by user id and shows used tickets with their time', async () => {
    const laneway = await eventId('Laneway Sessions');
    const first = (await admissions(laneway, '?limit=1')).json<access.AdmissionsPage>();
    expect(first.holders).toHaveLength(1);
    expect(first.nextAfter).toBe(first.holders[0].userId);
    const second = (await admissions(laneway, `?limit=1&after=${first.nextAfter}`)).json<access.AdmissionsPage>();
    expect(second.holders).toHaveLength(1);
    expect(second.holders[0].userId).toBeGreaterThan(first.holders[0].userId);
    const third = (await admissions(laneway, `?limit=1&after=${second.nextAfter}`)).json<access.AdmissionsPage>();
    expect(third).toMatchObject({ holders: [], nextAfter: null });

    const live = (await admissions(await eventId('Harbour Lights Festival'))).json<access.AdmissionsPage>();
    const aliceLive = live.holders.find((h) => h.holderName === 'Alice Nguyen')!;
    expect(aliceLive.tickets).toEqual([
      expect.objectContaining({ ticketName: 'General Admission', usedAt: expect.stringMatching(/Z$/) as string }),
    ]);
  });
});

describe('syncing check-ins made offline', () => {
  it('records a valid one at its scan time, and answers a resent item id the same without a change', async () => {
    const laneway = await eventId('Laneway Sessions');
    const a = await heldIds('alice@example.com', 'Laneway Sessions');
    const queued = await item('alice@example.com', [a['VIP'], a['General Admission']]);
    t.clock.advance(10 * 60_000); // the door was offline ten minutes: the pass has long rotated.
    const [result] = await synced(laneway, [queued]);
    expect(result).toEqual({
      id: queued.id,
      admitted: [a['VIP'], a['General Admission']].sort((x, y) => x - y),
      conflicts: [],
    });
    expect(await usedAt(a['VIP'])).toBe(queued.scannedAt);
    expect(await usedAt(a['General Admission'])).toBe(queued.scannedAt);

    t.clock.advance(60_000);
    const [again] = await synced(laneway, [queued]);
    expect(again).toEqual(result);
    expect(await usedAt(a['VIP'])).toBe(queued.scannedAt);
    expect(await rows(`select id from door_check_ins`)).toHaveLength(1);
  });

  it('reports the same ticket admitted at two doors as a conflict, and a ticket already used online', async () => {
    const laneway = await eventId('Laneway Sessions');
    const a = await heldIds('alice@example.com', 'Laneway Sessions');
    const doorOne = await item('alice@example.com', [a['VIP']]);
    t.clock.advance(2_000);
    const doorTwo = await item('alice@example.com', [a['VIP'], a['General Admission']]);
    const [one] = await synced(laneway, [doorOne]);
    expect(one).toEqual({ id: doorOne.id, admitted: [a['VIP']], conflicts: [] });
    const [two] = await synced(laneway, [doorTwo]);
    expect(two).toEqual({
      id: doorTwo.id,
      admitted: [a['General Admission']],
      conflicts: [{ userTicketId: a['VIP'], reason: 'already_used' }],
    });
    expect(await usedAt(a['VIP'])).toBe(doorOne.scannedAt);
    const stored = await rows(`select conflicts, admitted_ids from door_check_ins where id = '${doorTwo.id}'`);
    expect(stored[0].conflicts).toEqual([{ userTicketId: a['VIP'], reason: 'already_used' }]);
  });

  it('reports a ticket the organiser revoked after the snapshot as revoked, and leaves it out of the next snapshot', async () => {
    const laneway = await eventId('Laneway Sessions');
    const a = await heldIds('alice@example.com', 'Laneway Sessions');
    const queued = await item('alice@example.com', [a['VIP'], a['General Admission']]);
    await rows(`update user_tickets set revoked_at = now() where id = ${a['VIP']}`);
    const [result] = await synced(laneway, [queued]);
    expect(result).toEqual({
      id: queued.id,
      admitted: [a['General Admission']],
      conflicts: [{ userTicketId: a['VIP'], reason: 'revoked' }],
    });
    expect(await usedAt(a['VIP'])).toBeNull();
    const page = (await admissions(laneway)).json<access.AdmissionsPage>();
    const ids = page.holders.flatMap((h) => h.tickets.map((x) => x.userTicketId));
    expect(ids).toContain(a['General Admission']);
    expect(ids).not.toContain(a['VIP']);
  });

  it('reports a ticket gifted away after the snapshot as moved, a forged pass as invalid, and refuses a scan time in the future', async () => {
    const laneway = await eventId('Laneway Sessions');
    const a = await heldIds('alice@example.com', 'Laneway Sessions');
    const queued = await item('alice@example.com', [a['VIP'], a['General Admission']]);
    const gift = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: bearer(alice),
      payload: { userTicketId: a['VIP'], username: 'bob#7315' },
    });
    expect(gift.statusCode).toBe(200);
    const [result] = await synced(laneway, [queued]);
    expect(result).toEqual({
      id: queued.id,
      admitted: [a['General Admission']],
      conflicts: [{ userTicketId: a['VIP'], reason: 'moved' }],
    });
    expect(await usedAt(a['VIP'])).toBeNull();

    // A ticket of another event is "moved" too: the pass holder does not hold it for this one.
    const other = await heldIds('alice@example.com', 'Aotearoa Sound');
    const forged = { ...(await item('bob@example.com', [a['VIP']])), code: `${await passOf('bob@example.com')}x` };
    const wrongEvent = await item('alice@example.com', Object.values(other));
    expect(Object.values(other)).not.toHaveLength(0);
    const [bad, elsewhere] = await synced(laneway, [forged, wrongEvent]);
    expect(bad.conflicts).toEqual([{ userTicketId: a['VIP'], reason: 'invalid_pass' }]);
    expect(bad.admitted).toEqual([]);
    expect(elsewhere.conflicts.map((c) => c.reason)).toEqual(Object.values(other).map(() => 'moved'));
    expect(await usedAt(a['VIP'])).toBeNull();

    const future = {
      ...(await item('alice@example.com', [a['VIP']])),
      scannedAt: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
    };
    const refused = await sync({ eventId: laneway, items: [future] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: 'api.access.sync_bad_time' });
    expect((await sync({ eventId: laneway, items: [] })).statusCode).toBe(400);
    expect((await sync({ eventId: laneway, items: [queued] }, 'wrong')).statusCode).toBe(401);
  });
});
