/**
 * A new date (issue 46, decision 047): moving an event's start or end by more than the organisation's
 * `reschedule_threshold_minutes` marks it rescheduled (`events.rescheduled_at`, audited `rescheduled: true`); a
 * smaller move is an ordinary change. What follows a new date, told or not: the wallet passes are updated (Apple pushed,
 * Google's object and class carry the new times) and the reminder goes again before the new start. With `notify`, the
 * mail says it is a new date and, under the policy `on_reschedule` with its deadline ahead, until when a refund may be
 * asked for.
 */
import type { Locale } from '@tp/contract';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatEventAt, formatEventDateTime } from '@tp/contract/format';
import { loadConfig } from '../src/config.js';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const ZONE = 'Australia/Melbourne';
/** The event's times: a day after the test clock's start. */
const START = '2026-11-21T18:00:00.000Z';
const END = '2026-11-21T22:00:00.000Z';
const NOW = new Date('2026-11-20T00:00:00Z');
const minutes = (iso: string, n: number) => new Date(new Date(iso).getTime() + n * 60_000).toISOString();

let t: TestApp;
let key: string;

const put = (path: string, payload: object, query = '') =>
  t.app.inject({ method: 'PUT', url: `/v1/org/${path}${query}`, headers: bearer(key), payload });
const get = (path: string) => t.app.inject({ method: 'GET', url: `/v1/org/${path}`, headers: bearer(key) });

const eventBody = (extra: Record<string, unknown> = {}) => ({
  name: 'Noche de Verbena',
  venue: 'Sala Sol',
  address: 'Calle Mayor 1',
  city: 'Melbourne',
  country: 'AU',
  startsAt: START,
  endsAt: END,
  timeZone: ZONE,
  ...extra,
});
const move = async (extra: Record<string, unknown>, query = '') => {
  const r = await put('events/evt-1', eventBody(extra), query);
  expect(r.statusCode, r.body).toBe(200);
};
const rescheduledAt = async () =>
  (
    await rawQuery<{ at: Date | null }>(
      t.database.db,
      `select rescheduled_at as at from events where external_id = 'evt-1'`,
    )
  ).rows[0].at;
const lastUpdate = async () => {
  const r = await get('audit-log?action=event.updated');
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ items: { detail: Record<string, unknown> }[] }>().items[0].detail;
};

beforeEach(async () => {
  const wallet = loadConfig(
    { WALLET_TEST_MODE: 'true' },
    { dataDir: mkdtempSync(join(tmpdir(), 'tp-wallet-')) },
  ).wallet;
  t = await createTestApp({ config: { adminKey: ADMIN, wallet }, start: NOW });
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { name: 'Acme Events', slug: 'acme' },
  });
  expect(created.statusCode, created.body).toBe(201);
  key = created.json<{ apiKey: string }>().apiKey;
  const event = await put('events/evt-1', eventBody());
  expect(event.statusCode, event.body).toBe(201);
  const type = {
    eventExternalId: 'evt-1',
    name: 'General',
    priceCents: 3000,
    currency: 'EUR',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  };
  expect((await put('ticket-types/ga', type)).statusCode).toBe(201);
});
afterEach(() => t.close());

const issue = async (externalId: string, holderEmail: string, holderLanguage: Locale = 'en') => {
  const r = await put(`tickets/${externalId}`, { ticketTypeExternalId: 'ga', holderEmail, holderLanguage });
  expect(r.statusCode, r.body).toBe(201);
  return Number(
    (await rawQuery<{ id: number }>(t.database.db, `select id from user_tickets where external_id = '${externalId}'`))
      .rows[0].id,
  );
};
const drain = () => t.app.services.jobs.runDue();
const walletJobs = async () =>
  (
    await rawQuery<{ kind: string; payload: { userTicketIds: number[] } }>(
      t.database.db,
      `select kind, payload from jobs where kind like 'wallet.%' order by id`,
    )
  ).rows;

describe('rescheduled (issue 46)', () => {
  it('a move of the start by the threshold (60 minutes) is an ordinary change; one minute more is a new date', async () => {
    await move({ startsAt: minutes(START, 60) });
    expect(await rescheduledAt()).toBeNull();
    expect(await lastUpdate()).toEqual({ fields: ['startsAt'], notified: true });

    t.clock.advance(1000);
    await move({ startsAt: minutes(START, 60 + 60 + 1) });
    expect(new Date((await rescheduledAt())!).getTime()).toBe(NOW.getTime() + 1000);
    expect(await lastUpdate()).toEqual({ fields: ['startsAt'], notified: true, rescheduled: true });
  });

  it('the end alone counts too, with notify=false as well; a later small change keeps the mark', async () => {
    await move({ endsAt: minutes(END, -90) }, '?notify=false');
    expect(new Date((await rescheduledAt())!).getTime()).toBe(NOW.getTime());
    expect(await lastUpdate()).toEqual({ fields: ['endsAt'], notified: false, rescheduled: true });

    t.clock.advance(60_000);
    await move({ endsAt: minutes(END, -80) });
    expect(await lastUpdate()).toEqual({ fields: ['endsAt'], notified: true });
    expect(new Date((await rescheduledAt())!).getTime()).toBe(NOW.getTime());
  });

  it("follows the organisation's threshold: 0 makes any move a new date, a day lets a two-hour move pass", async () => {
    await rawQuery(t.database.db, `update organisations set reschedule_threshold_minutes = 1440`);
    await move({ startsAt: minutes(START, 120), endsAt: minutes(END, 120) });
    expect(await rescheduledAt()).toBeNull();

    await rawQuery(t.database.db, `update organisations set reschedule_threshold_minutes = 0`);
    await move({ startsAt: minutes(START, 121), endsAt: minutes(END, 120) });
    expect(await rescheduledAt()).not.toBeNull();
  });

  it('a change of anything else (venue, name) is not a new date', async () => {
    await rawQuery(t.database.db, `update organisations set reschedule_threshold_minutes = 0`);
    await move({ venue: 'Sala Luna', name: 'Verbena' });
    expect(await rescheduledAt()).toBeNull();
  });
});

describe('what follows a new date (issue 46)', () => {
  type Row = Record<string, unknown>;
  const google = () =>
    t.app.services.googleWallet as unknown as { objects: Map<string, Row>; classes: Map<string, Row> };

  it("updates the held tickets' wallet passes, told or not: Apple pushed, Google's object and class carry the new times", async () => {
    const id = await issue('t-1', 'ann@example.com');
    await drain();
    // The pass is shown from a day before the start (22 hours before here).
    t.clock.advance(20 * 3600_000);
    const ann = (await t.signIn('ann@example.com')).accessToken;
    const apple = await t.app.inject({ url: `/v1/tickets/${id}/wallet/apple`, headers: bearer(ann) });
    expect(apple.statusCode, apple.body).toBe(200);
    const [{ serial, token }] = (
      await rawQuery<{ serial: string; token: string }>(
        t.database.db,
        `select serial_number as serial, authentication_token as token from wallet_passes`,
      )
    ).rows;
    const register = await t.app.inject({
      method: 'POST',
      url: `/v1/wallet/apple/v1/devices/device-a/registrations/pass.test.ticketpanel/${serial}`,
      headers: { authorization: `ApplePass ${token}` },
      payload: { pushToken: 'c1'.repeat(32) },
    });
    expect(register.statusCode, register.body).toBe(201);
    const saved = await t.app.inject({ url: `/v1/tickets/${id}/wallet/google`, headers: bearer(ann) });
    expect(saved.statusCode, saved.body).toBe(200);
    const [objectId] = [...google().objects.keys()];
    const [classId] = [...google().classes.keys()];

    // Control: a move within the threshold queues no wallet update.
    await move({ startsAt: minutes(START, 30) }, '?notify=false');
    expect(await walletJobs()).toEqual([]);

    const newStart = minutes(START, 7 * 24 * 60);
    const newEnd = minutes(END, 7 * 24 * 60);
    await move({ startsAt: newStart, endsAt: newEnd }, '?notify=false');
    // Queued in the change's transaction, one job of each kind naming the ticket.
    expect(await walletJobs()).toEqual([
      { kind: 'wallet.apple_update', payload: { userTicketIds: [id] } },
      { kind: 'wallet.google_update', payload: { userTicketIds: [id] } },
    ]);
    // What their handlers do (the queue's jobs wait for the database's clock, not the test's).
    expect(await t.app.services.wallet.appleUpdate([id])).toBe(1);
    expect(await t.app.services.wallet.googleUpdate([id])).toBe(1);
    expect(t.app.services.fakeApns!.pushes.map((p) => p.pushToken)).toEqual(['c1'.repeat(32)]);
    expect(google().objects.get(objectId)).toMatchObject({
      state: 'ACTIVE',
      validTimeInterval: { end: { date: newEnd } },
    });
    expect(google().classes.get(classId)).toMatchObject({ dateTime: { start: newStart, end: newEnd } });
  });

  it('the reminder goes again before the new start, even when the event comes back to a start it was reminded for', async () => {
    await issue('t-1', 'ann@example.com');
    await drain();
    const remind = async () => {
      await t.app.services.housekeeping.remindOnce();
      await drain();
      return t.mail.sent.filter(
        (m) => /Noche de Verbena/.test(m.subject) && /^(Reminder|Recordatorio)/i.test(m.subject),
      ).length;
    };
    // The event starts within REMINDER_HOURS (24) of now (20 hours): reminded once, not twice.
    t.clock.advance(22 * 3600_000);
    expect(await remind()).toBe(1);
    expect(await remind()).toBe(1);

    // Three hours later (a new date, still within the window): reminded for the new start.
    await move({ startsAt: minutes(START, 180), endsAt: minutes(END, 180) }, '?notify=false');
    expect(await remind()).toBe(2);
    // Back to the first start: its reminder row was forgotten with the new date, so it goes again.
    await move({}, '?notify=false');
    expect(await remind()).toBe(3);
    expect(await remind()).toBe(3);
  });
});

describe('the new date mail (issue 46)', () => {
  const changeMails = () =>
    t.mail.sent.filter((m) => /^(Change to|Cambio en|New date for|Nueva fecha para) /.test(m.subject));
  const newStart = minutes(START, 24 * 60);
  /** A move of start and end by `n` minutes. */
  const by = (n: number) => ({ startsAt: minutes(START, n), endsAt: minutes(END, n) });
  const policy = (mode: string, deadline: string | null) =>
    rawQuery(
      t.database.db,
      `update events set refund_policy = '${mode}', refund_deadline = ${deadline ? `'${deadline}'` : 'null'}`,
    );

  it('says it is a new date in en and es, keeps the old and new lines and the .ics; under on_reschedule, until when to ask for a refund', async () => {
    const DEADLINE = '2026-11-25T12:59:00.000Z';
    await policy('on_reschedule', DEADLINE);
    await issue('t-1', 'ann@example.com');
    await issue('t-2', 'lucia@example.com', 'es');
    await drain();
    await move(by(24 * 60));
    await drain();
    const en = changeMails().find((m) => m.to === 'ann@example.com')!;
    const es = changeMails().find((m) => m.to === 'lucia@example.com')!;
    expect(en.subject).toBe('New date for Noche de Verbena');
    expect(es.subject).toBe('Nueva fecha para Noche de Verbena');
    expect(en.html).toContain('>New date for Noche de Verbena</h1>');
    expect(es.html).toContain('>Nueva fecha para Noche de Verbena</h1>');
    expect(en.text).toContain(
      `Start: was ${formatEventDateTime('en', START, ZONE)}; now ${formatEventDateTime('en', newStart, ZONE)}`,
    );
    expect(es.text).toContain(
      `Inicio: antes ${formatEventDateTime('es', START, ZONE)}; ahora ${formatEventDateTime('es', newStart, ZONE)}`,
    );
    expect(en.text).toContain(
      `Can't make the new date? You can ask for a refund in your account until ${formatEventAt('en', DEADLINE, ZONE)}.`,
    );
    expect(es.text).toContain(
      `¿No puedes ir en la nueva fecha? Puedes pedir el reembolso en tu cuenta hasta el ${formatEventAt('es', DEADLINE, ZONE)}.`,
    );
    // The deadline in the event's zone: 23:59 in Melbourne.
    expect(formatEventAt('en', DEADLINE, ZONE)).toContain('11:59');
    for (const m of [en, es]) {
      expect(m.text).toContain('PANEL_TAB=');
      const ics = m.attachments!.find((a) => a.filename.endsWith('.ics'))!.content.toString('utf8');
      expect(ics).toMatch(/^SEQUENCE:\d+/m);
      expect(ics).toContain('DTSTART;TZID=Australia/Melbourne:20261123T050000');
    }
  });

  it('no refund paragraph without on_reschedule or once its deadline passed; an ordinary change keeps its own subject', async () => {
    await issue('t-1', 'ann@example.com');
    await drain();
    await policy('until', null);
    await move(by(24 * 60));
    await policy('on_reschedule', '2026-11-19T00:00:00.000Z');
    await move(by(48 * 60));
    await move(by(48 * 60 + 30));
    await drain();
    const [first, second, third] = changeMails();
    expect(first.subject).toBe('New date for Noche de Verbena');
    expect(second.subject).toBe('New date for Noche de Verbena');
    for (const m of [first, second]) expect(m.text).not.toContain('refund');
    expect(third.subject).toBe('Change to Noche de Verbena: check the date and venue');
  });
});

describe("the holder's listing shows the new date (issue 46)", () => {
  type Listed = { userTicketId: number; eventStartDateTime: string; eventRescheduled?: { at: string } };

  it('list, change, list: the kept listing row gives way to the new date at once; a small move keeps no mark', async () => {
    const id = await issue('t-1', 'ann@example.com');
    const ann = (await t.signIn('ann@example.com')).accessToken;
    const list = async () => {
      const r = await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(ann) });
      expect(r.statusCode, r.body).toBe(200);
      return r.json<Listed[]>();
    };
    const [before] = await list();
    expect(before.userTicketId).toBe(id);
    expect(before).not.toHaveProperty('eventRescheduled');

    // A small move: the new start shows, no mark.
    await move({ startsAt: minutes(START, 30) }, '?notify=false');
    const [small] = await list();
    expect(small.eventStartDateTime).toBe(minutes(START, 30));
    expect(small).not.toHaveProperty('eventRescheduled');

    t.clock.advance(5000);
    const movedAt = t.clock.now().toISOString();
    const newStart = minutes(START, 3 * 24 * 60);
    await move({ startsAt: newStart, endsAt: minutes(END, 3 * 24 * 60) }, '?notify=false');
    const [after] = await list();
    expect(after.eventStartDateTime).toBe(newStart);
    expect(after.eventRescheduled).toEqual({ at: movedAt });
    const one = await t.app.inject({ url: `/v1/list/ticket_listing/${id}`, headers: bearer(ann) });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json<Listed>().eventRescheduled).toEqual(after.eventRescheduled);
  });
});
