/**
 * Changes are announced on purpose (issue 46): GET /v1/org/events/{externalId}/holders counts the people a change of
 * the event's time or place would e-mail (distinct holders of live tickets); PUT with `notify=false` saves the change
 * and tells nobody (audited `notified: false`); the "event changed" mail lists each changed field with its old and
 * its new value, in the holder's language, the times in the event's zone, and keeps its `.ics` (same UID, higher
 * SEQUENCE).
 */
import type { Locale } from '@tp/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatEventDateTime } from '@tp/contract/format';
import type { MailMessage } from '../src/providers/mail/mail.provider.js';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const ZONE = 'Australia/Sydney';
/** The event's times: 17:00 to 21:00 in Sydney (AEDT), a day after the test clock's start. */
const START = '2026-11-21T06:00:00.000Z';
const END = '2026-11-21T10:00:00.000Z';

let t: TestApp;
let key: string;

const put = (path: string, payload: object, query = '') =>
  t.app.inject({ method: 'PUT', url: `/v1/org/${path}${query}`, headers: bearer(key), payload });
const get = (path: string) => t.app.inject({ method: 'GET', url: `/v1/org/${path}`, headers: bearer(key) });

/** The Sydney event `evt-1`, as first saved unless `extra` says otherwise. */
const eventBody = (extra: Record<string, unknown> = {}) => ({
  name: 'Harbour Lights',
  venue: 'The Domain',
  address: 'Art Gallery Rd',
  city: 'Sydney',
  country: 'AU',
  startsAt: START,
  endsAt: END,
  timeZone: ZONE,
  ...extra,
});

beforeEach(async () => {
  t = await createTestApp({ config: { adminKey: ADMIN }, start: new Date('2026-11-20T00:00:00Z') });
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { name: 'Acme Events', slug: 'acme' },
  });
  expect(created.statusCode, created.body).toBe(201);
  key = created.json<{ apiKey: string }>().apiKey;
  expect((await put('events/evt-1', eventBody())).statusCode).toBe(201);
  const type = {
    eventExternalId: 'evt-1',
    name: 'General admission',
    priceCents: 5000,
    currency: 'AUD',
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
};
const drain = () => t.app.services.jobs.runDue();
/** The "event changed" mails, an ordinary change's or a new date's (decision 047). */
const changeMails = () =>
  t.mail.sent.filter((m) => /^(Change to|Cambio en|New date for|Nueva fecha para) /.test(m.subject));
const holders = async (externalId = 'evt-1') => {
  const r = await get(`events/${externalId}/holders`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ holders: number }>().holders;
};
/** The `event.updated` audit entries of evt-1, newest first. */
const updates = async () => {
  const r = await get('audit-log?action=event.updated');
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ items: { detail: Record<string, unknown> }[] }>().items;
};
const sequenceOf = (m: MailMessage) => {
  const ics = m.attachments!.find((a) => a.filename.endsWith('.ics'))!.content.toString('utf8');
  return { uid: /^UID:(.*)$/m.exec(ics)?.[1].trim(), sequence: Number(/^SEQUENCE:(\d+)/m.exec(ics)?.[1]) };
};

describe('holders told on purpose (issue 46)', () => {
  it('counts the distinct holders of live tickets: not a used or revoked ticket, a holder of two once; 0 once ended', async () => {
    expect(await holders()).toBe(0);
    await issue('t-1', 'ann@example.com');
    await issue('t-2', 'ann@example.com');
    await issue('t-3', 'bob@example.com');
    await issue('t-used', 'used@example.com');
    await issue('t-revoked', 'gone@example.com');
    await rawQuery(t.database.db, `update user_tickets set event_access_used_at = now() where external_id = 't-used'`);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/v1/org/tickets/t-revoked', headers: bearer(key) })).statusCode,
    ).toBe(204);
    expect(await holders()).toBe(2);

    // The count is the mails' recipients: a change mails exactly those people (Ann once per ticket she holds).
    await drain();
    const before = t.mail.sent.length;
    expect((await put('events/evt-1', eventBody({ venue: 'The Cutaway' }))).statusCode).toBe(200);
    await drain();
    expect(new Set(t.mail.sent.slice(before).map((m) => m.to))).toEqual(
      new Set(['ann@example.com', 'bob@example.com']),
    );

    // Another organisation's event is not found; an event that has ended tells nobody.
    expect((await get('events/nope/holders')).statusCode).toBe(404);
    t.clock.advance(2 * 86_400_000);
    expect(await holders()).toBe(0);
  });

  it('notify=false saves a change of time and place and mails nobody, audited notified: false; the default tells', async () => {
    await issue('t-1', 'ann@example.com');
    await drain();
    const later = { startsAt: '2026-11-22T06:00:00.000Z', endsAt: '2026-11-22T10:00:00.000Z' };
    const quiet = await put('events/evt-1', eventBody(later), '?notify=false');
    expect(quiet.statusCode, quiet.body).toBe(200);
    expect(quiet.json()).toMatchObject({ status: 'updated' });
    await drain();
    expect(changeMails()).toHaveLength(0);
    expect((await get('events/evt-1')).json()).toMatchObject(later);
    // A day later is a new date (decision 047).
    expect((await updates())[0].detail).toEqual({ fields: ['startsAt', 'endsAt'], notified: false, rescheduled: true });

    // Control: the same kind of change without the parameter tells the holder (today's behaviour for API callers).
    expect((await put('events/evt-1', eventBody({ venue: 'The Cutaway', ...later }))).statusCode).toBe(200);
    await drain();
    expect(changeMails().map((m) => m.to)).toEqual(['ann@example.com']);
    expect((await updates())[0].detail).toEqual({ fields: ['venue'], notified: true });

    // A change that is neither time nor place says nothing of notifying.
    expect((await put('events/evt-1', eventBody({ name: 'Lights', venue: 'The Cutaway', ...later }))).statusCode).toBe(
      200,
    );
    expect((await updates())[0].detail).toEqual({ fields: ['name'] });
    expect((await put('events/evt-1', eventBody(later), '?notify=maybe')).statusCode).toBe(400);
  });
});

describe('the "event changed" mail says what changed (issue 46)', () => {
  const at = (iso: string, lang: Locale, zone = ZONE) => formatEventDateTime(lang, new Date(iso), zone);

  it('a new start: its old and its new value, in en and es; the .ics keeps its UID with a higher SEQUENCE', async () => {
    await issue('t-1', 'ann@example.com');
    await issue('t-2', 'lucia@example.com', 'es');
    await drain();
    const issued = t.mail.sent.find((m) => m.to === 'ann@example.com')!;
    const newStart = '2026-11-21T08:30:00.000Z';
    expect((await put('events/evt-1', eventBody({ startsAt: newStart }))).statusCode).toBe(200);
    await drain();
    const en = changeMails().find((m) => m.to === 'ann@example.com')!;
    const es = changeMails().find((m) => m.to === 'lucia@example.com')!;
    expect(en.text).toContain('What changed:');
    expect(en.text).toContain(`Start: was ${at(START, 'en')}; now ${at(newStart, 'en')}`);
    expect(es.text).toContain('Qué ha cambiado:');
    expect(es.text).toContain(`Inicio: antes ${at(START, 'es')}; ahora ${at(newStart, 'es')}`);
    for (const m of [en, es]) {
      expect(m.text).not.toMatch(/^(End|Fin): /m);
      expect(m.html).toContain(at(START, m === en ? 'en' : 'es'));
    }
    expect(sequenceOf(en).uid).toBe(sequenceOf(issued).uid);
    expect(sequenceOf(en).sequence).toBeGreaterThan(sequenceOf(issued).sequence);
  });

  it('an end-only change shows the end, old and new (not the unchanged start), in en and es', async () => {
    await issue('t-1', 'ann@example.com');
    await issue('t-2', 'lucia@example.com', 'es');
    await drain();
    const newEnd = '2026-11-21T12:00:00.000Z';
    expect((await put('events/evt-1', eventBody({ endsAt: newEnd }))).statusCode).toBe(200);
    await drain();
    const en = changeMails().find((m) => m.to === 'ann@example.com')!;
    const es = changeMails().find((m) => m.to === 'lucia@example.com')!;
    expect(en.text).toContain(`End: was ${at(END, 'en')}; now ${at(newEnd, 'en')}`);
    expect(es.text).toContain(`Fin: antes ${at(END, 'es')}; ahora ${at(newEnd, 'es')}`);
    expect(en.text).not.toMatch(/^Start: /m);
    expect(es.text).not.toMatch(/^Inicio: /m);
  });

  it('place fields, the time zone and the map position, each old and new; a queued mail tells the change it was made for', async () => {
    await issue('t-1', 'lucia@example.com', 'es');
    await drain();
    const { address: _gone, ...withoutAddress } = eventBody();
    const moved = {
      ...withoutAddress,
      venue: 'Te Papa',
      city: 'Wellington',
      country: 'NZ',
      timeZone: 'Pacific/Auckland',
      latitude: -41.29,
      longitude: 174.78,
    };
    expect((await put('events/evt-1', moved)).statusCode).toBe(200);
    // A second change before the first mail is sent: the first mail still tells the first change.
    expect((await put('events/evt-1', { ...moved, venue: 'Shed 6' })).statusCode).toBe(200);
    await drain();
    const [first, second] = changeMails();
    // The same instants in another zone: the zone changed, not the start.
    expect(first.text).not.toMatch(/^Inicio: /m);
    expect(first.text).toContain('Zona horaria: antes Australia/Sydney; ahora Pacific/Auckland');
    expect(first.text).toContain('Lugar: antes The Domain; ahora Te Papa');
    expect(first.text).toContain('Dirección: antes Art Gallery Rd; ahora (sin indicar)');
    expect(first.text).toContain('Ciudad: antes Sydney; ahora Wellington');
    expect(first.text).toContain('País: antes Australia; ahora Nueva Zelanda');
    expect(first.text).toContain('Posición en el mapa: antes (sin indicar); ahora -41.29, 174.78');
    expect(second.text).toContain('Lugar: antes Te Papa; ahora Shed 6');
    expect(second.text).not.toContain('Ciudad:');
  });
});
