/**
 * Door check-in (DESIGN: door-scanner page; spec 2 QR: after a gift or a resale the old holder's QR no
 * longer admits the ticket): scanner key, pass validity, admission marking event access used once,
 * ownership moves, parallel scans, rate limit, and the /scanner page.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  rawQuery,
  bearer,
  createTestApp,
  type TestApp,
  type CreateResaleBody,
  onboardSandboxSeller,
} from './helper.js';
import type { MyTicket } from '@tp/contract';

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
/** The holder's pass text right now (what their QR shows). */
const passOf = async (email: string) =>
  t.app.services.access.codeFor(await userId(email), Math.floor(t.clock.now().getTime() / 1000 / 30));
/** The ticket ids a user holds for an event, by ticket type name. */
const heldIds = async (email: string, event: string) =>
  Object.fromEntries(
    (
      await rows(
        `select ut.id, tt.name from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id join events e on e.id = tt.event_id join users u on u.id = ut.holder_id
   where u.email = '${email}' and e.name = '${event}' order by ut.id`,
      )
    ).map((r) => [r.name as string, Number(r.id)]),
  );
const usedAt = async (id: number) =>
  (await rows(`select event_access_used_at from user_tickets where id = ${id}`))[0].event_access_used_at as
    Date | string | null;

const scan = (code: string, event: number, key: string | null = KEY, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/v1/access/check-in',
    headers: key === null ? {} : { 'x-scanner-key': key },
    payload: { code, eventId: event },
    remoteAddress,
  });
const ok = async (code: string, event: number) => {
  const r = await scan(code, event);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{
    holderName: string;
    admitted: { userTicketId: number; ticketName: string }[];
    alreadyUsed: { userTicketId: number; ticketName: string; usedAt: string }[];
    listedForResale: { userTicketId: number; ticketName: string }[];
  }>();
};
const admittedIds = (r: { admitted: { userTicketId: number }[] }) => r.admitted.map((x) => x.userTicketId);

describe('scanner key', () => {
  it('lists events not over yet for the picker, soonest first, with the key only', async () => {
    const r = await t.app.inject({ url: '/v1/access/events', headers: { 'x-scanner-key': KEY } });
    expect(r.statusCode).toBe(200);
    const list = r.json<{ id: number; name: string; city: string; startsAt: string }[]>();
    expect(list.map((e) => e.name)).toEqual([
      'Harbour Lights Festival',
      'Laneway Sessions',
      'Aotearoa Sound',
      'River Nights',
      'Capital Beats',
    ]);
    expect(list[1]).toEqual({
      id: await eventId('Laneway Sessions'),
      name: 'Laneway Sessions',
      city: 'Melbourne',
      startsAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
      // The scanner shows the start in the event's zone, like the panel (issue 29).
      timeZone: 'Australia/Melbourne',
    });
    for (const headers of [{}, { 'x-scanner-key': 'wrong' }, { 'x-scanner-key': `${KEY}x` }]) {
      const denied = await t.app.inject({ url: '/v1/access/events', headers });
      expect(denied.statusCode).toBe(401);
      expect(denied.json()).toEqual({ message: 'api.access.scanner_unauthorized' });
    }
  });

  it('refuses a check-in with a missing or wrong key (before looking at the body) and admits nothing', async () => {
    const laneway = await eventId('Laneway Sessions');
    const code = await passOf('alice@example.com');
    for (const key of [null, '', 'wrong', KEY.toUpperCase()]) {
      const r = await scan(code, laneway, key);
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ message: 'api.access.scanner_unauthorized' });
    }
    const badBody = await t.app.inject({
      method: 'POST',
      url: '/v1/access/check-in',
      headers: { 'x-scanner-key': 'wrong' },
      payload: { nope: 1 },
    });
    expect(badBody.statusCode).toBe(401);
    const ids = await heldIds('alice@example.com', 'Laneway Sessions');
    expect(await usedAt(ids['VIP'])).toBeNull();
    expect(await usedAt(ids['General Admission'])).toBeNull();
  });
});

describe('check-in', () => {
  it("admits the holder's unused tickets for the event and marks them used now; a second scan answers alreadyUsed", async () => {
    const laneway = await eventId('Laneway Sessions');
    const ids = await heldIds('alice@example.com', 'Laneway Sessions');
    const at = t.clock.now().toISOString();
    const first = await ok(await passOf('alice@example.com'), laneway);
    expect(first).toEqual({
      holderName: 'Alice Nguyen',
      admitted: [
        { userTicketId: ids['General Admission'], ticketName: 'General Admission' },
        { userTicketId: ids['VIP'], ticketName: 'VIP' },
      ].sort((a, b) => a.userTicketId - b.userTicketId),
      alreadyUsed: [],
      listedForResale: [],
    });
    expect(new Date((await usedAt(ids['VIP']))!).toISOString()).toBe(at);
    expect(new Date((await usedAt(ids['General Admission']))!).toISOString()).toBe(at);
    // The panel shows the ticket's access as used.
    const mine = (
      await t.app.inject({ url: `/v1/list/ticket_listing/${ids['VIP']}`, headers: bearer(alice) })
    ).json<MyTicket>();
    expect(mine).toMatchObject({ eventAccessStatus: 'USED' });
    // Bob's ticket for the same event is untouched.
    const bobGa = (await heldIds('bob@example.com', 'Laneway Sessions'))['General Admission'];
    expect(await usedAt(bobGa)).toBeNull();

    t.clock.advance(5_000);
    const second = await ok(await passOf('alice@example.com'), laneway);
    expect(second.admitted).toEqual([]);
    expect(second.listedForResale).toEqual([]);
    expect(second.alreadyUsed.map((x) => [x.userTicketId, x.usedAt])).toEqual(
      [
        [ids['General Admission'], at],
        [ids['VIP'], at],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
  });

  it('answers alreadyUsed for a ticket used before (the live event), and empty lists for a holder with no ticket for the event', async () => {
    const live = await ok(await passOf('alice@example.com'), await eventId('Harbour Lights Festival'));
    expect(live.admitted).toEqual([]);
    expect(live.alreadyUsed).toEqual([
      {
        userTicketId: expect.any(Number) as number,
        ticketName: 'General Admission',
        usedAt: expect.stringMatching(/Z$/) as string,
      },
    ]);
    const none = await ok(await passOf('bob@example.com'), await eventId('Aotearoa Sound'));
    // Bob neither holds nor held a ticket of this event: the door does not name him (issue 40 point 7).
    expect(none).toEqual({ holderName: '', admitted: [], alreadyUsed: [], listedForResale: [] });
  });

  it('accepts the previous step but refuses an expired pass (two steps old) and tampered ones, all with the same 400', async () => {
    const aotearoa = await eventId('Aotearoa Sound');
    const aliceId = await userId('alice@example.com');
    const code = await passOf('alice@example.com');
    const body = Buffer.from(code.slice(4), 'base64url');
    const flip = (at: number) => {
      const b = Buffer.from(body);
      b[at] ^= 1;
      return 'TP2.' + b.toString('base64url');
    };
    const bobId = await userId('bob@example.com');
    const step = Math.floor(t.clock.now().getTime() / 30_000);
    const tampered = [
      flip(70), // signature
      flip(4), // user id
      flip(8), // step
      'TP2.' +
        Buffer.concat([Buffer.from([1]), body.subarray(1, 5).map(() => 0), body.subarray(5)]).toString('base64url'),
      `TP1.${bobId}.${step}.${'A'.repeat(22)}`,
      'hello',
      ` ${code}x`,
    ];
    // A pass the server signed for an account that does not exist (deleted since): no holder, the same 400.
    tampered.push(await t.app.services.access.codeFor(999_999, step));
    for (const bad of tampered) {
      const r = await scan(bad, aotearoa);
      expect(r.statusCode, bad).toBe(400);
      expect(r.json()).toEqual({ message: 'api.access.invalid_code' });
    }
    t.clock.advance(60_000);
    const expired = await scan(code, aotearoa);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ message: 'api.access.invalid_code' });
    expect(await usedAt((await heldIds('alice@example.com', 'Aotearoa Sound'))['General Admission'])).toBeNull();
    // One step old still admits (a pass scanned just as it turned).
    const step2 = Math.floor(t.clock.now().getTime() / 30_000);
    const previous = await ok(await t.app.services.access.codeFor(aliceId, step2 - 1), aotearoa);
    expect(previous.admitted.map((x) => x.ticketName)).toEqual(['General Admission']);
  });

  it('answers 404 for an unknown event and 400 for a malformed body', async () => {
    const code = await passOf('alice@example.com');
    const r = await scan(code, 999_999);
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ message: 'api.access.event_not_found' });
    const extra = await t.app.inject({
      method: 'POST',
      url: '/v1/access/check-in',
      headers: { 'x-scanner-key': KEY },
      payload: { code, eventId: 1, extra: true },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({ message: 'api.invalid_request_body' });
  });

  it('parallel scans of one pass (8 at once) admit each ticket once', async () => {
    const laneway = await eventId('Laneway Sessions');
    const ids = Object.values(await heldIds('alice@example.com', 'Laneway Sessions')).sort((a, b) => a - b);
    const code = await passOf('alice@example.com');
    const results = await Promise.all(Array.from({ length: 8 }, () => ok(code, laneway)));
    expect(results.flatMap(admittedIds).sort((a, b) => a - b)).toEqual(ids);
    // Every scan reports every ticket exactly once, admitted or already used.
    for (const r of results)
      expect([...admittedIds(r), ...r.alreadyUsed.map((x) => x.userTicketId)].sort((a, b) => a - b)).toEqual(ids);
  });
});

describe('after the ticket changes hands', () => {
  it("after a gift the giver's pass no longer admits the ticket and the receiver's does", async () => {
    const laneway = await eventId('Laneway Sessions');
    const alices = await heldIds('alice@example.com', 'Laneway Sessions');
    const gift = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: bearer(alice),
      payload: { userTicketId: alices['VIP'], username: 'bob#7315' },
    });
    expect(gift.statusCode).toBe(200);

    const byAlice = await ok(await passOf('alice@example.com'), laneway);
    expect(byAlice.admitted).toEqual([{ userTicketId: alices['General Admission'], ticketName: 'General Admission' }]);
    expect(byAlice.alreadyUsed).toEqual([]);
    expect(await usedAt(alices['VIP'])).toBeNull();

    const byBob = await ok(await passOf('bob@example.com'), laneway);
    expect(byBob.holderName).toBe('Bob Taylor');
    expect(byBob.admitted.map((x) => x.userTicketId)).toContain(alices['VIP']);
    expect(byBob.admitted.map((x) => x.ticketName).sort()).toEqual(['General Admission', 'VIP']);
    expect(await usedAt(alices['VIP'])).not.toBeNull();
  });

  it('a pass whose tickets were gifted away or voided says so (movedAway), never naming the new holder (issue 40 point 7)', async () => {
    const laneway = await eventId('Laneway Sessions');
    const alices = await heldIds('alice@example.com', 'Laneway Sessions');
    for (const id of [alices['General Admission'], alices['VIP']]) {
      const gift = await t.app.inject({
        method: 'POST',
        url: '/v1/mobile/giftTicket',
        headers: bearer(alice),
        payload: { userTicketId: id, username: 'bob#7315' },
      });
      expect(gift.statusCode, gift.body).toBe(200);
    }
    const r = await scan(await passOf('alice@example.com'), laneway);
    expect(r.statusCode, r.body).toBe(200);
    const byAlice = r.json<{ holderName: string; admitted: unknown[]; movedAway: unknown[] }>();
    expect(byAlice.admitted).toEqual([]);
    expect(byAlice.holderName).not.toBe('');
    expect(byAlice.movedAway).toEqual(
      [
        { userTicketId: alices['General Admission'], ticketName: 'General Admission', reason: 'transferred' },
        { userTicketId: alices['VIP'], ticketName: 'VIP', reason: 'transferred' },
      ].sort((x, y) => x.userTicketId - y.userTicketId),
    );
    expect(r.body).not.toMatch(/Bob|Taylor|bob@/);

    // The organiser voids Bob's Laneway tickets: his pass says so.
    await rows(
      `update user_tickets set revoked_at = now() where holder_id = ${await userId('bob@example.com')} and ticket_type_id in (select tt.id from ticket_types tt where tt.event_id = ${laneway})`,
    );
    const byBob = (await scan(await passOf('bob@example.com'), laneway)).json<{
      holderName: string;
      admitted: unknown[];
      movedAway: { reason: string }[];
    }>();
    expect(byBob.holderName).toBe('Bob Taylor');
    expect(byBob.admitted).toEqual([]);
    expect(byBob.movedAway.length).toBeGreaterThanOrEqual(2);
    expect(new Set(byBob.movedAway.map((m) => m.reason))).toEqual(new Set(['revoked']));
    // Alice's gifted tickets are still "transferred" for her, whatever happened to them since.
    const again = (await scan(await passOf('alice@example.com'), laneway)).json<{ movedAway: { reason: string }[] }>();
    expect(again.movedAway.map((m) => m.reason)).toEqual(['transferred', 'transferred']);
  });

  it("after a resale purchase the seller's pass no longer admits the sold ticket; nobody's does until the buyer redeems, then the buyer's does", async () => {
    const laneway = await eventId('Laneway Sessions');
    const alices = await heldIds('alice@example.com', 'Laneway Sessions');
    const sold = alices['General Admission'];
    await onboardSandboxSeller(t.app, alice);
    const listed = await t.app.inject({
      method: 'POST',
      url: '/v1/resell',
      headers: bearer(alice),
      payload: { userTicketId: sold, amountCount: 1, price: 80, currencyCode: 'AUD', currencySymbol: 'A$' },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    // Buy through the public pages: share link -> Buy -> sandbox checkout -> pay.
    const started = await t.app.inject({
      method: 'POST',
      url: new URL(listed.json<CreateResaleBody>().shareLinkUrl).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        quantity: '1',
        email: 'carol@example.com',
        idempotencyKey: crypto.randomUUID(),
      }).toString(),
    });
    expect(started.statusCode).toBe(303);
    const paid = await t.app.inject({
      method: 'POST',
      url: new URL(started.headers.location as string).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    const secret = /data-testid="resale-code">([^<]+)</.exec(paid.body)?.[1];
    expect(secret).toBeTruthy();
    expect((await rows(`select holder_id from user_tickets where id = ${sold}`))[0].holder_id).toBeNull();

    const bySeller = await ok(await passOf('alice@example.com'), laneway);
    expect(bySeller.admitted).toEqual([{ userTicketId: alices['VIP'], ticketName: 'VIP' }]);
    expect([...bySeller.alreadyUsed, ...bySeller.listedForResale].map((x) => x.userTicketId)).not.toContain(sold);
    expect(await usedAt(sold)).toBeNull();

    const carol = (await t.signIn('carol@example.com')).accessToken;
    const byCarolBefore = await ok(await passOf('carol@example.com'), laneway);
    expect(byCarolBefore).toMatchObject({ admitted: [], alreadyUsed: [], listedForResale: [] });
    expect(
      (await t.app.inject({ method: 'POST', url: `/v1/resell/redeem/${secret}`, headers: bearer(carol) })).statusCode,
    ).toBe(200);
    const byCarol = await ok(await passOf('carol@example.com'), laneway);
    expect(byCarol.admitted).toEqual([{ userTicketId: sold, ticketName: 'General Admission' }]);
  });

  it('a ticket listed for resale does not admit (it could still be sold) and stays on sale; the rest admit', async () => {
    const laneway = await eventId('Laneway Sessions');
    const alices = await heldIds('alice@example.com', 'Laneway Sessions');
    await onboardSandboxSeller(t.app, alice);
    const listed = await t.app.inject({
      method: 'POST',
      url: '/v1/resell',
      headers: bearer(alice),
      payload: {
        userTicketId: alices['General Admission'],
        amountCount: 1,
        price: 80,
        currencyCode: 'AUD',
        currencySymbol: 'A$',
      },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const r = await ok(await passOf('alice@example.com'), laneway);
    expect(r.admitted).toEqual([{ userTicketId: alices['VIP'], ticketName: 'VIP' }]);
    expect(r.listedForResale).toEqual([{ userTicketId: alices['General Admission'], ticketName: 'General Admission' }]);
    expect(await usedAt(alices['General Admission'])).toBeNull();
    const page = await t.app.inject({ url: new URL(listed.json<CreateResaleBody>().shareLinkUrl).pathname });
    expect(page.body).toContain('name="quantity"');
  });
});

describe('rate limit', () => {
  const checkIn = (app: TestApp['app'], key: string, remoteAddress = '10.2.2.2', device?: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/access/check-in',
      headers: { 'x-scanner-key': key, ...(device ? { 'x-door-device': device } : {}) },
      payload: { code: 'TP1.1.1.x', eventId: 1 },
      remoteAddress,
    });

  it("counts wrong keys in their own slow bucket; past it a guesser learns nothing, and the venue's door goes on", async () => {
    const limited = await createTestApp({
      seed: true,
      config: { scannerKey: KEY, checkInPerMinute: 6, scannerKeyFailuresPerMinute: 2 },
    });
    try {
      // The venue's door device checks in before the guessing starts (an invalid pass: 400).
      expect((await checkIn(limited.app, KEY, '10.2.2.2', 'gate-device-1')).statusCode).toBe(400);
      const guesses: number[] = [];
      for (let i = 0; i < 20; i++) guesses.push((await checkIn(limited.app, `guess-${i}`)).statusCode);
      expect(guesses.slice(0, 2)).toEqual([401, 401]);
      expect(new Set(guesses.slice(2))).toEqual(new Set([429]));
      const limitedGuess = await checkIn(limited.app, 'guess');
      expect(limitedGuess.json()).toEqual({ message: 'api.too_many_requests' });
      expect(Number(limitedGuess.headers['retry-after'])).toBeGreaterThan(0);
      // Behind the 429s the right key is refused too, from an unknown device or none (issue 39, fourth re-audit:
      // it was answered, so guesses went on at full speed): a 429 tells the guesser nothing.
      expect((await checkIn(limited.app, KEY)).statusCode).toBe(429);
      expect((await checkIn(limited.app, KEY, '10.2.2.2', 'guessed-device')).statusCode).toBe(429);
      // The known door device, on the same IP, goes on with the route's right-key check-ins (6 a minute, of which
      // the two refused right-key requests above took two), then its limit.
      const door: number[] = [];
      for (let i = 0; i < 4; i++) door.push((await checkIn(limited.app, KEY, '10.2.2.2', 'gate-device-1')).statusCode);
      expect(door).toEqual([400, 400, 400, 429]);
      // Another IP is not affected by either bucket.
      expect((await checkIn(limited.app, KEY, '10.2.2.3')).statusCode).toBe(400);
      expect((await checkIn(limited.app, 'guess', '10.2.2.3')).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it("a known door device's id is no oracle: a wrong key with it during the lockout forgets it (issue 39, sixth re-run: 429 wrong, 200 right, 265 guesses a second)", async () => {
    const limited = await createTestApp({
      seed: true,
      config: { scannerKey: KEY, checkInPerMinute: 100, scannerKeyFailuresPerMinute: 2 },
    });
    try {
      expect((await checkIn(limited.app, KEY, '10.2.4.4', 'gate-device-9')).statusCode).toBe(400);
      // The guesser locks its address out, then guesses with the gate's id (it is in the check-in log).
      for (let i = 0; i < 3; i++) await checkIn(limited.app, `guess-${i}`, '10.2.4.4');
      const guesses: number[] = [];
      for (let i = 0; i < 5; i++)
        guesses.push((await checkIn(limited.app, `g-${i}`, '10.2.4.4', 'gate-device-9')).statusCode);
      expect(new Set(guesses)).toEqual(new Set([429]));
      // The right key with that id is refused like any other now: a 200 would have told the guesser it was right.
      expect((await checkIn(limited.app, KEY, '10.2.4.4', 'gate-device-9')).statusCode).toBe(429);
      // Another gate the guesser does not know goes on.
      expect((await checkIn(limited.app, KEY, '10.2.4.5', 'gate-device-8')).statusCode).toBe(400);
    } finally {
      await limited.close();
    }
  });

  it('limits the event list per IP, and wrong keys there count as failures too', async () => {
    const limited = await createTestApp({
      seed: true,
      config: { scannerKey: KEY, accessEventsPerMinute: 4, scannerKeyFailuresPerMinute: 1 },
    });
    try {
      const events = (key: string, device?: string) =>
        limited.app.inject({
          url: '/v1/access/events',
          headers: { 'x-scanner-key': key, ...(device ? { 'x-door-device': device } : {}) },
          remoteAddress: '10.3.3.3',
        });
      expect((await events(KEY, 'gate-device-2')).statusCode).toBe(200);
      expect([(await events('x')).statusCode, (await events('y')).statusCode]).toEqual([401, 429]);
      // Locked out: the right key too, except from the known door device, until the route's own limit.
      expect((await events(KEY)).statusCode).toBe(429);
      const right: number[] = [];
      for (let i = 0; i < 3; i++) right.push((await events(KEY, 'gate-device-2')).statusCode);
      expect(right).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('the /scanner page', () => {
  /** A stand-in for the panel build's scanner (apps/panel/src/scanner, built by vite.scanner.config.ts). */
  const builtPanel = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tp-panel-dist-'));
    mkdirSync(join(dir, 'scanner', 'assets'), { recursive: true });
    writeFileSync(
      join(dir, 'scanner', 'index.html'),
      '<!doctype html><html lang="en"><head><script type="module" crossorigin src="/scanner/assets/index-abc.js"></script></head><body></body></html>',
    );
    writeFileSync(join(dir, 'scanner', 'assets', 'index-abc.js'), 'console.log(1)');
    return dir;
  };

  it('serves the built scanner app in en and es under a strict CSP with no inline script or style', async () => {
    const dist = builtPanel();
    const page = await createTestApp({ config: { scannerKey: KEY, panelDistDir: dist } });
    try {
      const en = await page.app.inject({ url: '/scanner' });
      expect(en.statusCode).toBe(200);
      expect(en.headers['content-type']).toMatch(/^text\/html/);
      expect(en.headers['cache-control']).toBe('no-store');
      expect(en.body).toContain('<html lang="en"');
      expect(en.body).toContain('src="/scanner/assets/index-abc.js"');
      const csp = String(en.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
      expect(csp).toContain("style-src 'self';");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(en.headers['permissions-policy']).toBe('camera=(self)');

      const es = await page.app.inject({ url: '/scanner?lang=es' });
      expect(es.body).toContain('<html lang="es"');

      // Its assets are static files; the document itself only goes out through the route.
      expect((await page.app.inject({ url: '/scanner/assets/index-abc.js' })).statusCode).toBe(200);
      expect((await page.app.inject({ url: '/scanner/index.html' })).statusCode).toBe(404);
    } finally {
      await page.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('answers 503 with a hint while the panel is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'tp-panel-dist-'));
    const page = await createTestApp({ config: { scannerKey: KEY, panelDistDir: empty } });
    try {
      const r = await page.app.inject({ url: '/scanner' });
      expect(r.statusCode).toBe(503);
      expect(r.body).toContain('npm run build');
    } finally {
      await page.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
