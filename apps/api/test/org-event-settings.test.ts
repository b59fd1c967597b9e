/**
 * Event settings (issue 21 point 5): before `passRevealAt` the QR screen data says when the pass appears and the
 * server issues no QR nor device credential (409 api.access.pass_not_yet_available); from `transfersCloseAt`
 * gift and swap answer 409 api.ticket.transfers_closed. Both read back on GET /org/events/{externalId}. The door
 * refuses the event's tickets before `passRevealAt` (online 409, offline sync a `not_revealed` conflict), even on a
 * pass the holder shows for another, revealed event.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const DOOR = 'platform-door';
const HOUR = 3600_000;
const DAY = 24 * HOUR;
let t: TestApp;
beforeEach(async () => {
  // The clock moves by days: tokens and the step-up (issue 47, its own test) last as long.
  t = await createTestApp({
    config: { adminKey: ADMIN, scannerKey: DOOR, accessTokenTtlSeconds: 30 * 86_400, stepUpMaxAgeSeconds: 30 * 86_400 },
  });
});
afterEach(async () => {
  await t.close();
});
const iso = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
const put = async (key: string, path: string, payload: object) => {
  const r = await t.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(key), payload });
  expect(r.statusCode, r.body).toBeLessThan(300);
};
/** The event's body for PUT /org/events/evt-1, with `settings` on top. */
const event = (settings: object) => ({
  name: 'Harbour Lights',
  venue: 'The Domain',
  city: 'Sydney',
  country: 'AU',
  startsAt: iso(10 * DAY),
  endsAt: iso(10 * DAY + 8 * HOUR),
  timeZone: 'Australia/Sydney',
  ...settings,
});
const setUp = async (settings: object) => {
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug: 'acme', name: 'Acme' },
  });
  const { apiKey } = r.json<{ apiKey: string }>();
  await put(apiKey, 'events/evt-1', event(settings));
  const type = { eventExternalId: 'evt-1', currency: 'AUD', isGiftable: true, isResellable: true, isSwappable: true };
  await put(apiKey, 'ticket-types/vip', { ...type, name: 'VIP', priceCents: 9000, stock: 10 });
  await put(apiKey, 'ticket-types/ga', {
    ...type,
    name: 'GA',
    priceCents: 9000,
    swapTargets: [{ ticketTypeExternalId: 'vip' }],
  });
  await put(apiKey, 'tickets/t1', { ticketTypeExternalId: 'ga', holderEmail: 'h@example.com' });
  await put(apiKey, 'tickets/t2', { ticketTypeExternalId: 'ga', holderEmail: 'h@example.com' });
  const { accessToken } = await t.signIn('h@example.com');
  return { apiKey, token: accessToken };
};
const ticketIds = async () =>
  (await rawQuery<{ id: number }>(t.database.db, `select id from user_tickets order by id`)).rows.map((r) =>
    Number(r.id),
  );
const gift = async (token: string, userTicketId: number) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/mobile/giftTicket',
    headers: bearer(token),
    payload: { userTicketId, username: 'friend@example.com' },
  });

describe('event settings', () => {
  it('before passRevealAt: the QR data says when, no QR nor device credential (409); after it, the pass shows', async () => {
    const { apiKey, token } = await setUp({ passRevealAt: iso(5 * DAY) });
    const revealAt = new Date(t.clock.now().getTime() + 5 * DAY - 61_000).toISOString(); // signIn moved the clock
    const data = await t.app.inject({ url: '/v1/auth/access/qrCodeData', headers: bearer(token) });
    expect(data.json()).toEqual({ ttl: expect.any(Number) as number, passRevealAt: revealAt });
    const qr = await t.app.inject({ url: '/v1/auth/access/qr', headers: bearer(token) });
    expect(qr.statusCode).toBe(409);
    expect(qr.json()).toEqual({ message: 'api.access.pass_not_yet_available', revealAt });
    const credential = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/access/pass-credential',
      headers: bearer(token),
      payload: { devicePublicKey: Buffer.alloc(32, 7).toString('base64url') },
    });
    expect(credential.statusCode).toBe(409);
    expect((await t.app.inject({ url: '/v1/org/events/evt-1', headers: bearer(apiKey) })).json()).toMatchObject({
      passRevealAt: revealAt,
      transfersCloseAt: null,
    });
    t.clock.advance(5 * DAY);
    expect((await t.app.inject({ url: '/v1/auth/access/qrCodeData', headers: bearer(token) })).json()).toMatchObject({
      passRevealAt: null,
    });
    expect((await t.app.inject({ url: '/v1/auth/access/qr', headers: bearer(token) })).statusCode).toBe(200);
  });

  it('a pass that showed stays shown for two time steps after passRevealAt moves later (no read), then hides', async () => {
    const { apiKey, token } = await setUp({});
    const qr = () => t.app.inject({ url: '/v1/auth/access/qr', headers: bearer(token) });
    expect((await qr()).statusCode).toBe(200);
    await put(apiKey, 'events/evt-1', event({ passRevealAt: iso(DAY) }));
    // Remembered as shown (decision 051): the phone's next poll reads no reveal time; the door still judges it.
    t.clock.advance(30_000);
    expect((await qr()).statusCode).toBe(200);
    t.clock.advance(31_000);
    const hidden = await qr();
    expect(hidden.statusCode).toBe(409);
    expect(hidden.json()).toMatchObject({ message: 'api.access.pass_not_yet_available' });
    // A hidden pass is not remembered: it shows as soon as the reveal time moves back.
    await put(apiKey, 'events/evt-1', event({ passRevealAt: null }));
    expect((await qr()).statusCode).toBe(200);
  });

  it('without settings the pass shows at once and transfers stay open', async () => {
    const { token } = await setUp({});
    expect((await t.app.inject({ url: '/v1/auth/access/qr', headers: bearer(token) })).statusCode).toBe(200);
    const [t1] = await ticketIds();
    expect((await gift(token, t1)).statusCode).toBe(200);
  });

  it('from transfersCloseAt gift and swap are refused with api.ticket.transfers_closed (409)', async () => {
    const { token } = await setUp({ transfersCloseAt: iso(2 * DAY) });
    const [t1, t2] = await ticketIds();
    expect((await gift(token, t1)).statusCode).toBe(200); // still open
    t.clock.advance(2 * DAY);
    const late = await gift(token, t2);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ message: 'api.ticket.transfers_closed' });
    const bases = (await t.app.inject({ url: '/v1/ticket_swap/tickets', headers: bearer(token) })).json<
      { id: number }[]
    >();
    const targets = (
      await t.app.inject({ url: `/v1/ticket_swap/tickets/${bases[0].id}`, headers: bearer(token) })
    ).json<{ id: number }[]>();
    const swap = await t.app.inject({
      method: 'POST',
      url: '/v1/ticket_swap/start_swap',
      headers: bearer(token),
      payload: { baseTicketId: bases[0].id, swapPairId: targets[0].id, swapQuantity: 1 },
    });
    expect(swap.statusCode).toBe(409);
    expect(swap.json()).toEqual({ message: 'api.ticket.transfers_closed' });
  });

  it("the door admits none of the event's tickets before passRevealAt, online or synced; from that instant, it does", async () => {
    const revealAt = iso(5 * DAY);
    await setUp({ passRevealAt: revealAt });
    const [{ id: eventId }] = (await rawQuery<{ id: number }>(t.database.db, `select id from events`)).rows;
    const [{ id: userId }] = (
      await rawQuery<{ id: number }>(t.database.db, `select id from users where email = 'h@example.com'`)
    ).rows;
    // A pass as the holder's phone could show it (e.g. revealed for another event): signed by the server.
    const pass = () => t.app.services.access.codeFor(Number(userId), Math.floor(t.clock.now().getTime() / 30_000));
    const checkIn = async () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/access/check-in',
        headers: { 'x-scanner-key': DOOR },
        payload: { code: await pass(), eventId: Number(eventId) },
      });
    const early = await checkIn();
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json()).toEqual({ message: 'api.access.pass_not_yet_available', revealAt });
    const [t1] = await ticketIds();
    const sync = await t.app.inject({
      method: 'POST',
      url: '/v1/access/sync',
      headers: { 'x-scanner-key': DOOR },
      payload: {
        eventId: Number(eventId),
        items: [{ id: crypto.randomUUID(), code: await pass(), scannedAt: iso(0), userTicketIds: [t1] }],
      },
    });
    expect(sync.statusCode, sync.body).toBe(200);
    expect(sync.json<{ results: { admitted: number[]; conflicts: unknown[] }[] }>().results[0]).toMatchObject({
      admitted: [],
      conflicts: [{ userTicketId: t1, reason: 'not_revealed' }],
    });
    const used = await rawQuery<{ n: number }>(
      t.database.db,
      `select count(*)::int as n from user_tickets where event_access_used_at is not null`,
    );
    expect(Number(used.rows[0].n)).toBe(0);

    // At passRevealAt itself (to the millisecond) the pass admits: the rule is "before", not "until".
    t.clock.advance(Date.parse(revealAt) - t.clock.now().getTime());
    expect(t.clock.now().toISOString()).toBe(revealAt);
    const late = await checkIn();
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json<{ admitted: unknown[] }>().admitted).toHaveLength(2);
  });
});
