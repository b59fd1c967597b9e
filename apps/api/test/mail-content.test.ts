/**
 * Issue 23, the e-mails a holder receives, read from the mail transport the app sends through: HTML and text in
 * the holder's language, under the organisation's brand (name, logo, colour at 4.5:1) or the product's, ticket
 * e-mails with the event's facts (its time in its own zone, venue with a map link, ticket type) and an `.ics` that
 * a maintained parser (ical.js) reads with the right start in the event's zone, every panel link with `?org=`; the
 * reminder before the event (once per ticket, never for a used or revoked ticket, one instance at a time); the
 * holders told when the organiser moves the event.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { formatEventDateTime } from '@tp/contract/format';
import { accentPalette, contrastRatio } from '../src/modules/branding/brand-colors.js';
import type { MailMessage } from '../src/providers/mail/mail.provider.js';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const HOUR = 3_600_000;
const PANEL = 'http://panel.test';
let t: TestApp;
beforeEach(async () => {
  // A whole second: event times round-trip exactly (ical has no milliseconds).
  t = await createTestApp({ config: { adminKey: ADMIN, reminderHours: 24 }, start: new Date('2026-11-20T00:00:00Z') });
});
afterEach(async () => {
  await t.close();
});

/** The event's times (30 hours after the test clock's start): 17:00 in Sydney (AEDT). */
const START = '2026-11-21T06:00:00.000Z';
const END = '2026-11-21T10:00:00.000Z';
const put = (key: string, path: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(key), payload });

/** The Sydney event, at START unless `extra` says otherwise. */
const eventBody = (extra: Record<string, unknown> = {}) => ({
  name: 'Harbour Lights',
  venue: 'The Domain',
  address: 'Art Gallery Rd',
  city: 'Sydney',
  country: 'AU',
  latitude: -33.869,
  longitude: 151.217,
  startsAt: START,
  endsAt: END,
  timeZone: 'Australia/Sydney',
  ...extra,
});

/** An organisation with a logo and a light orange, one event `evt-1` and one ticket type `ga`. */
async function acme() {
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug: 'acme', name: 'Acme Events', primaryColor: '#ff9900', logoUrl: 'https://acme.example/logo.png' },
  });
  expect(r.statusCode, r.body).toBe(201);
  const { apiKey } = r.json<{ apiKey: string }>();
  const ev = await put(apiKey, 'events/evt-1', eventBody());
  expect(ev.statusCode, ev.body).toBe(201);
  const type = {
    eventExternalId: 'evt-1',
    name: 'Early Bird',
    priceCents: 5000,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  };
  const tt = await put(apiKey, 'ticket-types/ga', type);
  expect(tt.statusCode, tt.body).toBe(201);
  return apiKey;
}

/** Makes `email` a Spanish account: it signs in from the Spanish panel (issue 29). */
async function spanishAccount(email: string) {
  const r1 = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/signInOrRegisterAndSignIn',
    headers: { 'accept-language': 'es' },
    payload: { email, locale: 'es' },
  });
  expect(r1.statusCode).toBe(200);
  const r2 = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/verifyLoginRequest',
    payload: { email, session: r1.json<{ sessionId: string }>().sessionId, otp: t.mail.lastCodeFor(email) },
  });
  expect(r2.statusCode).toBe(200);
  t.clock.advance(61_000);
}

const issue = (key: string, externalId: string, holderEmail: string) =>
  put(key, `tickets/${externalId}`, { ticketTypeExternalId: 'ga', holderEmail });
const drain = () => t.app.services.jobs.runDue();
const mailsTo = (email: string) => t.mail.sent.filter((m) => m.to === email);
const lastTo = (email: string) => mailsTo(email).at(-1)!;

/** Every link of a mail (HTML hrefs and srcs, and URLs of the text part). */
const linksOf = (m: MailMessage) => [
  ...[...(m.html ?? '').matchAll(/href="([^"]+)"/g)].map((x) => x[1].replace(/&amp;/g, '&')),
  ...[...m.text.matchAll(/https?:\/\/[^\s>]+/g)].map((x) => x[0]),
];
/** Asserts that the mail opens the panel at least once and that every panel link names the organisation. */
function expectPanelLinksWithOrg(m: MailMessage, slug: string) {
  const panel = linksOf(m).filter((l) => l.startsWith(PANEL));
  expect(panel.length).toBeGreaterThan(0);
  for (const l of panel) expect(new URL(l).searchParams.get('org'), l).toBe(slug);
}

/** The calendar attachment parsed by ical.js: the event's start as the calendar reads it. */
function calendarOf(m: MailMessage) {
  const ics = m.attachments?.find((a) => a.filename.endsWith('.ics'));
  expect(ics?.contentType).toMatch(/^text\/calendar/);
  const parsed: unknown = ICAL.parse(ics!.content.toString('utf8'));
  const cal = new ICAL.Component(parsed as unknown[]);
  const zone = cal.getFirstSubcomponent('vtimezone');
  expect(zone).not.toBeNull();
  ICAL.TimezoneService.register(zone!);
  const vevent = cal.getFirstSubcomponent('vevent')!;
  const ev = new ICAL.Event(vevent);
  return {
    tzid: ev.startDate.zone?.tzid,
    localStart: ev.startDate.toString(),
    start: ev.startDate.toJSDate(),
    location: ev.location,
    uid: ev.uid,
    sequence: ev.sequence,
  };
}

/** Sydney's wall clock of an instant, `YYYY-MM-DDTHH:MM:SS` (the form ical.js writes a zoned time in). */
const sydneyWallClock = (at: Date) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Australia/Sydney',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  })
    .format(at)
    .replace(' ', 'T');

describe('ticket e-mails (issue 23)', () => {
  it('the issued ticket mail is branded, names the event, time in its zone, venue map and type, and carries an .ics, in en and es', async () => {
    const key = await acme();
    await spanishAccount('lucia@example.com');
    expect((await issue(key, 't-1', 'ann@example.com')).statusCode).toBe(201);
    expect((await issue(key, 't-2', 'lucia@example.com')).statusCode).toBe(201);
    await drain();
    const startsAt = new Date(START);
    const accent = accentPalette('#ff9900', 'light')!.accent;
    expect(contrastRatio(accent, '#ffffff')).toBeGreaterThanOrEqual(4.5);

    for (const [email, lang] of [
      ['ann@example.com', 'en'],
      ['lucia@example.com', 'es'],
    ] as const) {
      const m = lastTo(email);
      const html = m.html!;
      // The organisation's brand: its name as text, its colour (made AA). Its logo URL does not resolve here, so
      // the logo was never fetched: the name alone, never the remote URL (issue 41 point 9; the logo as an inline
      // part, with its empty alt text, is mail-logo.test.ts's).
      expect(html).toContain(`lang="${lang}"`);
      expect(html).toContain('Acme Events');
      expect(html).not.toContain('acme.example/logo.png');
      expect(html).not.toContain('alt="Acme Events"');
      expect(html.toLowerCase()).toContain(accent);
      // The facts: event, date and time in Sydney's zone, venue with its map link, ticket type; text part too.
      for (const part of [m.text, html]) {
        expect(part).toContain('Harbour Lights');
        expect(part).toContain(formatEventDateTime(lang, startsAt, 'Australia/Sydney'));
        expect(part).toContain('The Domain, Art Gallery Rd, Sydney');
        expect(part).toContain('Early Bird');
      }
      expect(m.text).toContain('https://www.openstreetmap.org/?mlat=-33.869&mlon=151.217');
      expect(html).toContain('href="https://www.openstreetmap.org/?mlat=-33.869&amp;mlon=151.217');
      expect(m.text).toContain(lang === 'es' ? 'Tipo de entrada: Early Bird' : 'Ticket type: Early Bird');
      expect(m.subject).toBe(lang === 'es' ? 'Tu entrada para Harbour Lights' : 'Your ticket for Harbour Lights');
      // No tracking: no image at all (the logo, when fetched, is the only one).
      expect([...html.matchAll(/<img\b/g)]).toHaveLength(0);
      expectPanelLinksWithOrg(m, 'acme');
      expect(linksOf(m)).toContain(`${PANEL}/${lang}/?org=acme&PANEL_TAB=MY_TICKET`);
      // The calendar: the start in the event's zone, as Sydney's wall clock, and the same instant.
      const cal = calendarOf(m);
      expect(cal.tzid).toBe('Australia/Sydney');
      expect(cal.localStart).toBe(sydneyWallClock(startsAt));
      expect(cal.start.getTime()).toBe(startsAt.getTime());
      expect(cal.location).toBe('The Domain, Art Gallery Rd, Sydney');
    }
  });

  it("the gift received mail carries the organisation (?org=) and the .ics; the giver's cancels their entry", async () => {
    const key = await acme();
    expect((await issue(key, 't-1', 'ann@example.com')).statusCode).toBe(201);
    await drain();
    // The calendar entry ann's ticket mail put in her calendar.
    const issued = calendarOf(lastTo('ann@example.com'));
    const { accessToken } = await t.signIn('ann@example.com');
    const [tk] = (
      await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(accessToken) })
    ).json<{ userTicketId: number }[]>();
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: bearer(accessToken),
      payload: { userTicketId: tk.userTicketId, username: 'bea@example.com' },
    });
    expect(r.statusCode, r.body).toBe(200);
    const m = lastTo('bea@example.com');
    expect(m.html).not.toContain('acme.example/logo.png');
    expectPanelLinksWithOrg(m, 'acme');
    expect(calendarOf(m).uid).toMatch(new RegExp(`^ticket-${tk.userTicketId}@`));
    // The giver's confirmation (issue 40) wears the same brand and links to the organisation's panel.
    const g = lastTo('ann@example.com');
    expect(g.subject).toBe('You gifted a ticket to bea[@]example[.]com');
    expect(g.html).not.toContain('acme.example/logo.png');
    expectPanelLinksWithOrg(g, 'acme');
    // Its .ics takes the event out of ann's calendar (issue 40 point 11): the entry her ticket mail made (same UID),
    // cancelled (METHOD:CANCEL, STATUS:CANCELLED) with a higher SEQUENCE, so calendars apply it.
    expect(g.text).toContain('The attached calendar file removes the event from your calendar.');
    const ics = g.attachments?.find((a) => a.filename === 'event.ics');
    expect(ics?.contentType).toBe('text/calendar; charset=utf-8; method=CANCEL');
    const parsed = new ICAL.Component(ICAL.parse(ics!.content.toString('utf8')) as unknown[]);
    expect(parsed.getFirstPropertyValue('method')).toBe('CANCEL');
    const cancel = new ICAL.Event(parsed.getFirstSubcomponent('vevent')!);
    expect(cancel.uid).toBe(issued.uid);
    expect(cancel.component.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(cancel.sequence).toBeGreaterThan(issued.sequence);
  });
});

describe('the sign-in code mail (issue 23)', () => {
  const ask = (headers: Record<string, string>, email: string) =>
    t.app.inject({ method: 'POST', url: '/v1/auth/signInOrRegisterAndSignIn', headers, payload: { email } });

  it("names the organisation on its panel (X-Organisation) and the product on the product's", async () => {
    await acme();
    expect((await ask({ 'x-organisation': 'acme', 'accept-language': 'es' }, 'a@example.com')).statusCode).toBe(200);
    const branded = lastTo('a@example.com');
    expect(branded.subject).toMatch(/^\d{6} es tu código para iniciar sesión en Acme Events$/);
    // The name as text; the logo (its URL does not resolve here) never fetched: no image (the logo beside the name
    // with an empty alt text is mail-logo.test.ts's).
    expect(branded.html).toMatch(/<span[^>]*>Acme Events<\/span>/);
    expect(branded.html).not.toContain('<img');
    expect(branded.html).not.toContain('alt="Acme Events"');
    expect(branded.html).toContain('lang="es"');

    expect((await ask({}, 'b@example.com')).statusCode).toBe(200);
    const plain = lastTo('b@example.com');
    expect(plain.subject).toMatch(/^Your Ticket Panel sign-in code: \d{6}$/);
    expect(plain.html).not.toContain('<img');
    expect(plain.html).toContain(accentPalette('#3b5bfd', 'light')!.accent);
  });

  it('answers 404 for an unknown organisation and mails nothing', async () => {
    const r = await ask({ 'x-organisation': 'nobody' }, 'c@example.com');
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ message: 'api.organisation.not_found' });
    expect(mailsTo('c@example.com')).toHaveLength(0);
  });
});

describe('the reminder before the event (issue 23)', () => {
  it('is sent once per held ticket within REMINDER_HOURS, never for a used or revoked ticket', async () => {
    const key = await acme();
    await spanishAccount('lucia@example.com');
    for (const [id, email] of [
      ['t-ann', 'ann@example.com'],
      ['t-lucia', 'lucia@example.com'],
      ['t-used', 'used@example.com'],
      ['t-revoked', 'gone@example.com'],
    ])
      expect((await issue(key, id, email)).statusCode).toBe(201);
    await rawQuery(t.database.db, `update user_tickets set event_access_used_at = now() where external_id = 't-used'`);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/v1/org/tickets/t-revoked', headers: bearer(key) })).statusCode,
    ).toBe(204);
    await drain();
    const before = t.mail.sent.length;
    const { housekeeping } = t.app.services;

    // 30 hours before: not yet.
    expect(await housekeeping.remindOnce()).toBe(0);
    // 23 hours before: each held, unused ticket once, even when two runs race.
    t.clock.advance(7 * HOUR);
    const [a, b] = await Promise.all([housekeeping.remindOnce(), housekeeping.remindOnce()]);
    expect((a ?? 0) + (b ?? 0)).toBe(2);
    // Each claim committed with its mail job (decision 030): a process lost now loses no reminder. The app's own
    // worker may already have sent some: each reminder is still a job when counted, or was sent before (read after).
    const queued = await rawQuery<{ n: number }>(
      t.database.db,
      `select count(*)::int as n from jobs where kind = 'mail' and payload->>'template' = 'reminder'`,
    );
    const sentAlready = t.mail.sent.length - before;
    expect(queued.rows[0].n + sentAlready).toBeGreaterThanOrEqual(2);
    await drain();
    expect(await housekeeping.remindOnce()).toBe(0);
    t.clock.advance(HOUR);
    expect(await housekeeping.remindOnce()).toBe(0);
    await drain();

    const reminders = t.mail.sent.slice(before);
    expect(reminders.map((m) => m.to).sort()).toEqual(['ann@example.com', 'lucia@example.com']);
    const en = reminders.find((m) => m.to === 'ann@example.com')!;
    const es = reminders.find((m) => m.to === 'lucia@example.com')!;
    expect(en.subject).toMatch(/^Reminder: Harbour Lights, /);
    expect(es.subject).toMatch(/^Recordatorio: Harbour Lights, /);
    // Spanish review N19: the time inside the sentence reads «a las 20:00 (GMT+11)».
    expect(es.text).toMatch(/es para el [a-záéíóú]+, \d{1,2} de [a-z]+ de \d{4}, a las \d{2}:\d{2} \(GMT\+1[01]\)\./);
    // A link to the pass, on the organisation's panel.
    expect(linksOf(en)).toContain(`${PANEL}/en/?org=acme&PANEL_TAB=QR`);
    expect(linksOf(es)).toContain(`${PANEL}/es/?org=acme&PANEL_TAB=QR`);
    expectPanelLinksWithOrg(en, 'acme');
    expect(calendarOf(es).tzid).toBe('Australia/Sydney');

    // After the start, nothing more.
    t.clock.advance(24 * HOUR);
    expect(await housekeeping.remindOnce()).toBe(0);
  });
});

describe('an event moved by its organiser (issue 23)', () => {
  it('tells its holders the new time with an updated .ics; a change that is not time or place tells no one', async () => {
    const key = await acme();
    expect((await issue(key, 't-1', 'ann@example.com')).statusCode).toBe(201);
    expect((await issue(key, 't-used', 'used@example.com')).statusCode).toBe(201);
    await rawQuery(t.database.db, `update user_tickets set event_access_used_at = now() where external_id = 't-used'`);
    await drain();
    const before = t.mail.sent.length;

    const renamed = eventBody({ name: 'Harbour Lights!' });
    expect((await put(key, 'events/evt-1', renamed)).statusCode).toBe(200);
    await drain();
    expect(t.mail.sent.length).toBe(before);

    const later = { startsAt: '2026-11-22T07:30:00.000Z', endsAt: '2026-11-22T11:00:00.000Z' };
    expect((await put(key, 'events/evt-1', eventBody({ name: 'Harbour Lights!', ...later }))).statusCode).toBe(200);
    await drain();
    const told = t.mail.sent.slice(before);
    expect(told.map((m) => m.to)).toEqual(['ann@example.com']);
    const m = told[0];
    // A day later is a new date (decision 047): the subject says so.
    expect(m.subject).toBe('New date for Harbour Lights!');
    expectPanelLinksWithOrg(m, 'acme');
    const cal = calendarOf(m);
    expect(cal.start.toISOString()).toBe(later.startsAt);
    expect(cal.localStart).toBe('2026-11-22T18:30:00');
    expect(m.text).toContain(formatEventDateTime('en', new Date(later.startsAt), 'Australia/Sydney'));
    // Spanish review N18: "It is now:" / «Así queda:» comes right before the facts it announces.
    expect(m.text).toMatch(/It is now:\s+Event: /);
    expect(cal.sequence).toBeGreaterThan(0);
  });
});
