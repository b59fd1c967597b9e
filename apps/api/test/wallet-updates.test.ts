/**
 * Wallet passes kept true (issue 22, decision 029), in wallet test mode: Apple's pass update web service
 * (register, changed serials, latest pass, unregister, log) authenticated by the pass's `authenticationToken`;
 * after a gift the `wallet.apple_update` job pushes every registered device through the local HTTP/2 APNs fake
 * and the service then serves a voided pass, and the `wallet.google_update` job sets the old object INACTIVE.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.js';
import { bearer, createTestApp, rawQuery, type TestApp, onboardSandboxSeller } from './helper.js';

type Row = Record<string, unknown>;
const ADMIN = 'admin-key-for-tests';
type PassJson = Row & { serialNumber: string; authenticationToken: string; barcodes?: { message: string }[] };
let t: TestApp;
let alice: string;
let work: string;
beforeEach(async () => {
  const wallet = loadConfig(
    { WALLET_TEST_MODE: 'true' },
    { dataDir: mkdtempSync(join(tmpdir(), 'tp-wallet-')) },
  ).wallet;
  t = await createTestApp({ seed: true, config: { wallet, adminKey: ADMIN } });
  alice = (await t.signIn('alice@example.com')).accessToken;
  await t.signIn('bob@example.com');
  work = mkdtempSync(join(tmpdir(), 'tp-pkpass-'));
  await rawQuery(
    t.database.db,
    `update events set pass_reveal_at = '${new Date(t.clock.now().getTime() - 60_000).toISOString()}' where name = 'Laneway Sessions'`,
  );
});
afterEach(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

const vipOf = async (email: string) =>
  Number(
    (
      await rawQuery<Row>(
        t.database.db,
        `select ut.id from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id join events e on e.id = tt.event_id join users u on u.id = ut.holder_id
         where u.email = '${email}' and e.name = 'Laneway Sessions' and tt.name = 'VIP'`,
      )
    ).rows[0].id,
  );

/** pass.json of a .pkpass, read with unzip (not the code that wrote it). */
function passJson(pkpass: Buffer): PassJson {
  const file = join(work, `p-${Math.random().toString(36).slice(2)}.pkpass`);
  writeFileSync(file, pkpass);
  return JSON.parse(execFileSync('unzip', ['-p', file, 'pass.json']).toString()) as PassJson;
}

const PTI = 'pass.test.ticketpanel';
/** APNs push tokens are hex (64 digits today). */
const TOK_1 = 'a1'.repeat(32);
const TOK_2 = 'a2'.repeat(32);
const PUSH_A = 'b1'.repeat(32);
const PUSH_B = 'b2'.repeat(32);
const DEVICE = 'device-library-0001';
const web = (path: string) => `/v1/wallet/apple/v1${path}`;
const auth = (token: string) => ({ authorization: `ApplePass ${token}` });

describe("Apple's pass update web service", () => {
  it('registers a device with the pass token only, lists changed serials by tag and serves the latest pass', async () => {
    const vip = await vipOf('alice@example.com');
    const pass = passJson(
      (await t.app.inject({ url: `/v1/tickets/${vip}/wallet/apple`, headers: bearer(alice) })).rawPayload,
    );
    const reg = web(`/devices/${DEVICE}/registrations/${PTI}/${pass.serialNumber}`);

    const wrong = await t.app.inject({
      method: 'POST',
      url: reg,
      headers: auth('x'.repeat(32)),
      payload: { pushToken: TOK_1 },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'api.unauthorized' });
    const otherType = web(`/devices/${DEVICE}/registrations/pass.other/${pass.serialNumber}`);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: otherType,
          headers: auth(pass.authenticationToken),
          payload: { pushToken: TOK_1 },
        })
      ).statusCode,
    ).toBe(401);

    const first = await t.app.inject({
      method: 'POST',
      url: reg,
      headers: auth(pass.authenticationToken),
      payload: { pushToken: TOK_1 },
    });
    expect(first.statusCode, first.body).toBe(201);
    const again = await t.app.inject({
      method: 'POST',
      url: reg,
      headers: auth(pass.authenticationToken),
      payload: { pushToken: TOK_2 },
    });
    expect(again.statusCode).toBe(200);

    const serials = await t.app.inject({ url: web(`/devices/${DEVICE}/registrations/${PTI}`) });
    expect(serials.statusCode).toBe(200);
    const { serialNumbers, lastUpdated } = serials.json<{ serialNumbers: string[]; lastUpdated: string }>();
    expect(serialNumbers).toEqual([pass.serialNumber]);
    const since = await t.app.inject({
      url: web(`/devices/${DEVICE}/registrations/${PTI}?passesUpdatedSince=${lastUpdated}`),
    });
    expect(since.statusCode).toBe(204);

    const latest = await t.app.inject({
      url: web(`/passes/${PTI}/${pass.serialNumber}`),
      headers: auth(pass.authenticationToken),
    });
    expect(latest.statusCode).toBe(200);
    expect(latest.headers['content-type']).toBe('application/vnd.apple.pkpass');
    expect(latest.headers['last-modified']).toBeTruthy();
    const now = passJson(latest.rawPayload);
    expect(now.voided).toBeUndefined();
    expect(now.barcodes?.[0].message).toBe(pass.barcodes?.[0].message);
    expect((await t.app.inject({ url: web(`/passes/${PTI}/${pass.serialNumber}`) })).statusCode).toBe(401);
    // If-Modified-Since (issue 41, point 10): the Last-Modified the device has answers 304, no body; an older date
    // or one that is not a date, the pass. Still behind the ApplePass token.
    const fetchSince = (date: string, token = pass.authenticationToken) =>
      t.app.inject({
        url: web(`/passes/${PTI}/${pass.serialNumber}`),
        headers: { ...auth(token), 'if-modified-since': date },
      });
    t.clock.advance(2000);
    const current = await fetchSince(new Date(0).toUTCString());
    expect(current.statusCode).toBe(200);
    const lastModified = current.headers['last-modified'] as string;
    const unchanged = await fetchSince(lastModified);
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.rawPayload).toHaveLength(0);
    expect(unchanged.headers['last-modified']).toBe(lastModified);
    expect((await fetchSince(new Date(Date.parse(lastModified) - 1000).toUTCString())).statusCode).toBe(200);
    expect((await fetchSince('not a date')).statusCode).toBe(200);
    expect((await fetchSince(lastModified, 'wrong-token')).statusCode).toBe(401);

    const log = await t.app.inject({ method: 'POST', url: web('/log'), payload: { logs: ['Web service error'] } });
    expect(log.statusCode).toBe(200);

    const gone = await t.app.inject({ method: 'DELETE', url: reg, headers: auth(pass.authenticationToken) });
    expect(gone.statusCode).toBe(200);
    expect((await t.app.inject({ url: web(`/devices/${DEVICE}/registrations/${PTI}`) })).statusCode).toBe(204);
  });
});

describe('kept true after a move', () => {
  /** Registers two devices for alice's VIP pass and saves it to Google; answers the pass and the object id. */
  async function installed(vip: number) {
    const pass = passJson(
      (await t.app.inject({ url: `/v1/tickets/${vip}/wallet/apple`, headers: bearer(alice) })).rawPayload,
    );
    for (const [device, token] of [
      ['device-a', PUSH_A],
      ['device-b', PUSH_B],
    ])
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: web(`/devices/${device}/registrations/${PTI}/${pass.serialNumber}`),
            headers: auth(pass.authenticationToken),
            payload: { pushToken: token },
          })
        ).statusCode,
      ).toBe(201);
    expect((await t.app.inject({ url: `/v1/tickets/${vip}/wallet/google`, headers: bearer(alice) })).statusCode).toBe(
      200,
    );
    const [objectId] = [...google().objects.keys()];
    return { pass, objectId };
  }
  const google = () => t.app.services.googleWallet as unknown as { objects: Map<string, Row> };
  const queued = async () =>
    (await rawQuery<Row>(t.database.db, `select kind from jobs where kind like 'wallet.%' order by kind`)).rows.map(
      (r) => r.kind,
    );

  it('a gift enqueues the wallet jobs in its transaction; the worker pushes each device once, the service then serves a voided pass and the Google object is INACTIVE', async () => {
    const vip = await vipOf('alice@example.com');
    const { pass, objectId } = await installed(vip);
    const fake = t.app.services.fakeApns!;
    const before = (await t.app.inject({ url: web(`/devices/device-a/registrations/${PTI}`) })).json<{
      lastUpdated: string;
    }>();
    t.clock.advance(1000);

    // A refused gift (to oneself) commits nothing and queues nothing.
    const self = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: bearer(alice),
      payload: { userTicketId: vip, email: 'alice@example.com' },
    });
    expect(self.statusCode).not.toBe(200);
    expect(await queued()).toEqual([]);

    const gift = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: bearer(alice),
      payload: { userTicketId: vip, username: 'bob#7315' },
    });
    expect(gift.statusCode).toBe(200);
    // The receiver's mail links both wallets to the ticket's page in the panel (the pass needs their sign-in).
    await vi.waitFor(() => expect(t.mail.sent.some((m) => m.to === 'bob@example.com')).toBe(true));
    const mail = t.mail.sent.filter((m) => m.to === 'bob@example.com').at(-1)!;
    const ticketPage = `PANEL_TAB=TICKET&amp;USER_TICKET_ID=${vip}`;
    expect(mail.html).toContain('Add to Apple Wallet');
    expect(mail.html).toContain('Add to Google Wallet');
    expect(mail.html).toContain(ticketPage);
    expect(mail.text).toContain(`PANEL_TAB=TICKET&USER_TICKET_ID=${vip}`);
    // The worker (woken by the enqueue) runs both jobs; runDue picks up any it has not claimed yet.
    await vi.waitFor(
      async () => {
        await t.app.services.jobs.runDue();
        expect(fake.pushes).toHaveLength(2);
        expect(google().objects.get(objectId)).toMatchObject({ state: 'INACTIVE' });
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(fake.pushes.map((p) => [p.pushToken, p.topic]).sort()).toEqual([
      [PUSH_A, PTI],
      [PUSH_B, PTI],
    ]);
    expect(await queued()).toEqual([]);
    // A retried job pushes nothing more.
    expect(await t.app.services.wallet.appleUpdate([vip])).toBe(0);
    expect(fake.pushes).toHaveLength(2);

    const changed = await t.app.inject({
      url: web(`/devices/device-a/registrations/${PTI}?passesUpdatedSince=${before.lastUpdated}`),
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<{ serialNumbers: string[] }>().serialNumbers).toEqual([pass.serialNumber]);
    const latest = await t.app.inject({
      url: web(`/passes/${PTI}/${pass.serialNumber}`),
      headers: auth(pass.authenticationToken),
    });
    expect(latest.statusCode).toBe(200);
    const voided = passJson(latest.rawPayload);
    expect(voided.voided).toBe(true);
    expect(voided.barcodes ?? []).toEqual([]);

    // The new holder's pass is a new serial with a barcode.
    const bob = (await t.signIn('bob@example.com')).accessToken;
    const bobs = passJson(
      (await t.app.inject({ url: `/v1/tickets/${vip}/wallet/apple`, headers: bearer(bob) })).rawPayload,
    );
    expect(bobs.serialNumber).not.toBe(pass.serialNumber);
    expect(bobs.barcodes?.[0].message).toMatch(/^TP2\./);
  });

  it('GET /v1/wallet/test-fakes answers what the fakes received (test mode only), for a journey in another process', async () => {
    const vip = await vipOf('alice@example.com');
    const { objectId } = await installed(vip);
    expect(await t.app.services.wallet.appleUpdate([vip])).toBe(2);
    const r = await t.app.inject({ url: '/v1/wallet/test-fakes' });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json<{ apnsPushes: { pushToken: string; topic: string }[]; googleObjects: Row[] }>();
    expect(body.apnsPushes.map((p) => [p.pushToken, p.topic]).sort()).toEqual([
      [PUSH_A, PTI],
      [PUSH_B, PTI],
    ]);
    expect(body.googleObjects).toEqual([google().objects.get(objectId)]);

    const off = await createTestApp({ seed: true });
    try {
      const none = await off.app.inject({ url: '/v1/wallet/test-fakes' });
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual({ message: 'api.wallet.not_configured' });
    } finally {
      await off.close();
    }
  });

  it('the reminder before the event links both wallets to the ticket', async () => {
    const vip = await vipOf('alice@example.com');
    const soon = new Date(t.clock.now().getTime() + 2 * 3600_000);
    await rawQuery(
      t.database.db,
      `update events set starts_at = '${soon.toISOString()}' where id = (select tt.event_id from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id where ut.id = ${vip})`,
    );
    expect(await t.app.services.housekeeping.remindOnce()).toBeGreaterThanOrEqual(1);
    await t.app.services.jobs.runDue();
    // One reminder per held ticket: this ticket's links to its own page.
    const reminder = t.mail.sent.find(
      (m) =>
        m.to === 'alice@example.com' && m.subject.startsWith('Reminder') && m.text.includes(`USER_TICKET_ID=${vip}`),
    )!;
    expect(reminder.text).toContain(`PANEL_TAB=TICKET&USER_TICKET_ID=${vip}`);
    expect(reminder.html).toContain('Add to Apple Wallet');
    expect(reminder.html).toContain('Add to Google Wallet');
  });

  it("the swap-done mail links both wallets to the swapped ticket's page", async () => {
    const vip = await vipOf('alice@example.com');
    type Base = { id: number; name: string; userTicketIds: number[] };
    const bases = (await t.app.inject({ url: '/v1/ticket_swap/tickets', headers: bearer(alice) })).json<Base[]>();
    const base = bases.find((b) => b.userTicketIds.includes(vip))!;
    const [target] = (await t.app.inject({ url: `/v1/ticket_swap/tickets/${base.id}`, headers: bearer(alice) })).json<
      { id: number }[]
    >();
    const started = await t.app.inject({
      method: 'POST',
      url: '/v1/ticket_swap/start_swap',
      headers: bearer(alice),
      payload: { baseTicketId: base.id, swapPairId: target.id, swapQuantity: 1 },
    });
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json<{ orderIdentifier: string }>().orderIdentifier;
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/v1/ticket_swap/confirm_swap/${id}`,
      headers: bearer(alice),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const done = t.mail.sent.filter((m) => m.subject.startsWith('Swap done')).at(-1)!;
    expect(done.to).toBe('alice@example.com');
    expect(done.html).toContain('Add to Apple Wallet');
    expect(done.html).toContain('Add to Google Wallet');
    expect(done.text).toContain(`PANEL_TAB=TICKET&USER_TICKET_ID=${vip}`);
  });

  it('a revoked ticket is voided; a ticket still held (a swap changed it) is updated and pushed, not voided', async () => {
    const vip = await vipOf('alice@example.com');
    const { pass, objectId } = await installed(vip);
    const fake = t.app.services.fakeApns!;

    expect(await t.app.services.wallet.appleUpdate([vip])).toBe(2);
    expect(await t.app.services.wallet.googleUpdate([vip])).toBe(1);
    expect(google().objects.get(objectId)).toMatchObject({
      state: 'ACTIVE',
      ticketType: { defaultValue: { value: 'VIP' } },
    });
    const still = passJson(
      (await t.app.inject({ url: web(`/passes/${PTI}/${pass.serialNumber}`), headers: auth(pass.authenticationToken) }))
        .rawPayload,
    );
    expect(still.voided).toBeUndefined();
    expect(still.barcodes?.[0].message).toMatch(/^TP2\./);

    await rawQuery(t.database.db, `update user_tickets set revoked_at = now() where id = ${vip}`);
    expect(await t.app.services.wallet.appleUpdate([vip])).toBe(2);
    expect(fake.pushes).toHaveLength(4);
    expect(await t.app.services.wallet.googleUpdate([vip])).toBe(1);
    expect(google().objects.get(objectId)).toMatchObject({ state: 'INACTIVE' });
    const gone = passJson(
      (await t.app.inject({ url: web(`/passes/${PTI}/${pass.serialNumber}`), headers: auth(pass.authenticationToken) }))
        .rawPayload,
    );
    expect(gone.voided).toBe(true);
  });

  it('a ticket returned to the exchange queue shows no code in either wallet until it is withdrawn or the queue closes unsold (issue 45)', async () => {
    const vip = await vipOf('alice@example.com');
    const { pass, objectId } = await installed(vip);
    const fake = t.app.services.fakeApns!;
    const { organisationId } = (
      await rawQuery<{ organisationId: number }>(
        t.database.db,
        `select organisation_id as "organisationId" from events where name = 'Laneway Sessions'`,
      )
    ).rows[0];
    const { apiKey } = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/admin/organisations/${organisationId}/api-keys`,
        headers: bearer(ADMIN),
      })
    ).json<{ apiKey: string }>();
    const closesAt = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    const on = await t.app.inject({
      method: 'PUT',
      url: '/v1/org/events/demo-laneway-sessions/exchange',
      headers: bearer(apiKey),
      payload: { enabled: true, offerMinutes: 20, order: 'first_come', maxQuantity: 4, closesAt },
    });
    expect(on.statusCode, on.body).toBe(200);
    const payout = await onboardSandboxSeller(t.app, alice);
    expect(payout.statusCode, payout.body).toBeLessThan(300);
    const latest = async () =>
      passJson(
        (
          await t.app.inject({
            url: web(`/passes/${PTI}/${pass.serialNumber}`),
            headers: auth(pass.authenticationToken),
          })
        ).rawPayload,
      );
    /** Runs the queued wallet jobs until `pushes` pushes were sent and the Google object is in `state`. */
    const settled = (pushes: number, state: string) =>
      vi.waitFor(
        async () => {
          await t.app.services.jobs.runDue();
          expect(fake.pushes).toHaveLength(pushes);
          expect(google().objects.get(objectId)).toMatchObject({ state });
        },
        { timeout: 10_000, interval: 100 },
      );
    const status = (p: PassJson) => JSON.stringify(p).includes('Returned to the exchange queue: does not admit');

    const giveBack = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/exchange/returns',
        headers: bearer(alice),
        payload: { userTicketId: vip },
      });
    expect((await giveBack()).statusCode).toBe(201);
    await settled(2, 'INACTIVE');
    const returned = await latest();
    expect(returned.voided).toBeUndefined();
    expect(returned.barcodes ?? []).toEqual([]);
    expect(status(returned)).toBe(true);
    // A pass downloaded meanwhile shows no code either.
    const fresh = passJson(
      (await t.app.inject({ url: `/v1/tickets/${vip}/wallet/apple`, headers: bearer(alice) })).rawPayload,
    );
    expect(fresh.barcodes ?? []).toEqual([]);
    expect(status(fresh)).toBe(true);

    t.clock.advance(1000);
    const withdrawn = await t.app.inject({
      method: 'DELETE',
      url: `/v1/exchange/returns/${vip}`,
      headers: bearer(alice),
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(204);
    await settled(4, 'ACTIVE');
    const back = await latest();
    expect(back.barcodes?.[0].message).toMatch(/^TP2\./);
    expect(status(back)).toBe(false);

    // Returned again, and the queue closes with it unsold: it admits again, and both wallets say so.
    t.clock.advance(1000);
    expect((await giveBack()).statusCode).toBe(201);
    await settled(6, 'INACTIVE');
    t.clock.advance(3600_000);
    await settled(8, 'ACTIVE');
    const closed = await latest();
    expect(closed.barcodes?.[0].message).toMatch(/^TP2\./);
    expect(status(closed)).toBe(false);
  });
});
