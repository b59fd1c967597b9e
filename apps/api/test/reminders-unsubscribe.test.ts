/**
 * Issue 41 point 9: the reminder e-mail carries `List-Unsubscribe` (RFC 2369) with one-click unsubscribe (RFC 8058,
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click`), read with mailparser from the message SMTP would carry; a POST
 * to its URL turns that holder's reminders off (idempotent, no sign-in) and no further reminder is sent to them, a
 * GET only shows a page that asks; a forged, expired or malformed token is refused with a message key; the holder
 * sees the switch in GET /auth/me and turns reminders back on with PUT /auth/reminders; transactional mails (the
 * sign-in code, the issued ticket) carry no List-Unsubscribe.
 */
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUnsubscribeTokens } from '../src/modules/auth/auth.tokens.js';
import type { MailMessage } from '../src/providers/mail/mail.provider.js';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const HOUR = 3_600_000;
const START = new Date('2026-11-21T06:00:00.000Z');
let t: TestApp;
let key: string;

beforeEach(async () => {
  t = await createTestApp({ config: { adminKey: ADMIN, reminderHours: 24 }, start: new Date('2026-11-20T00:00:00Z') });
  key = await acme();
});
afterEach(async () => {
  await t.close();
});

const put = (path: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(key), payload });
/** The Sydney event `evt-1`, starting at `startsAt`. */
const moveEvent = (startsAt: Date) =>
  put('events/evt-1', {
    name: 'Harbour Lights',
    venue: 'The Domain',
    address: 'Art Gallery Rd',
    city: 'Sydney',
    country: 'AU',
    startsAt: startsAt.toISOString(),
    endsAt: new Date(startsAt.getTime() + 4 * HOUR).toISOString(),
    timeZone: 'Australia/Sydney',
  });

/** An organisation `acme` with the event 30 hours after the clock's start, a ticket type, and tickets of ann and bob. */
async function acme(): Promise<string> {
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug: 'acme', name: 'Acme Events', primaryColor: '#ff9900' },
  });
  expect(r.statusCode, r.body).toBe(201);
  key = r.json<{ apiKey: string }>().apiKey;
  expect((await moveEvent(START)).statusCode).toBe(201);
  const type = {
    eventExternalId: 'evt-1',
    name: 'Early Bird',
    priceCents: 5000,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  };
  expect((await put('ticket-types/ga', type)).statusCode).toBe(201);
  for (const [id, email] of [
    ['t-ann', 'ann@example.com'],
    ['t-bob', 'bob@example.com'],
  ])
    expect((await put(`tickets/${id}`, { ticketTypeExternalId: 'ga', holderEmail: email })).statusCode).toBe(201);
  await t.app.services.jobs.runDue();
  return key;
}

/** Claims and sends the reminders due now; answers the reminder mails sent, by recipient. */
async function remind(): Promise<Record<string, MailMessage[]>> {
  const before = t.mail.sent.length;
  await t.app.services.housekeeping.remindOnce();
  await t.app.services.jobs.runDue();
  const sent = t.mail.sent.slice(before).filter((m) => /^Reminder: /.test(m.subject));
  const by: Record<string, MailMessage[]> = {};
  for (const m of sent) (by[m.to] ??= []).push(m);
  return by;
}

/** The raw message nodemailer would hand to the SMTP server, parsed by mailparser. */
async function parsed(m: MailMessage) {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = await transport.sendMail({ from: 'Ticket Panel <no-reply@panel.test>', ...m });
  return simpleParser(info.message);
}

/** The List-Unsubscribe URL and List-Unsubscribe-Post value of a mail as a mail client reads them (raw header lines). */
async function listHeaders(m: MailMessage): Promise<{ url: string | null; post: string | null }> {
  const mail = await parsed(m);
  const line = (name: string) =>
    mail.headerLines
      .find((h) => h.key === name)
      ?.line.replace(/^[^:]+:\s*/, '')
      .replace(/\r?\n\s+/g, '') ?? null;
  const list = line('list-unsubscribe');
  return { url: list?.match(/^<(https?:\/\/[^>]+)>$/)?.[1] ?? list, post: line('list-unsubscribe-post') };
}

const offAt = async (email: string) =>
  (
    await rawQuery<{ off: string | null }>(
      t.database.db,
      `select reminders_off_at as off from users where email = '${email}'`,
    )
  ).rows[0].off;

/** The unsubscribe link's path and query (what app.inject takes). */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe('the reminder e-mail’s unsubscribe link (issue 41 point 9)', () => {
  it('carries List-Unsubscribe with one-click; a POST stops that holder’s reminders, a GET changes nothing', async () => {
    t.clock.advance(7 * HOUR);
    const first = await remind();
    const ann = first['ann@example.com']?.[0];
    expect(ann).toBeDefined();
    const { url, post } = await listHeaders(ann);
    expect(post).toBe('List-Unsubscribe=One-Click');
    expect(url).toMatch(/^http:\/\/panel\.test\/v1\/reminders\/unsubscribe\?token=[\w.-]+&lang=en&org=acme$/);
    // mailparser's own reading of the header: the same URL.
    expect((await parsed(ann)).headers.get('list')).toMatchObject({ unsubscribe: { url } });
    // The small print links to the same page, in the HTML and the text part.
    expect(ann.text).toContain(`Stop reminder e-mails: ${url}`);
    expect(ann.html).toContain(`href="${url!.replace(/&/g, '&amp;')}"`);
    // Each holder has their own link.
    const bobUrl = (await listHeaders(first['bob@example.com'][0])).url;
    expect(bobUrl).not.toBe(url);

    // A GET (a link scanner, or the holder's browser) only asks.
    const page = await t.app.inject({ method: 'GET', url: local(url!) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Stop reminder e-mails?');
    expect(page.body).toMatch(/<form method="post" action="\/v1\/reminders\/unsubscribe\?token=[\w.-]+&amp;lang=en/);
    expect(await offAt('ann@example.com')).toBeNull();

    // The mail client's one-click POST (RFC 8058), twice: 204 both times, no sign-in.
    for (let i = 0; i < 2; i++) {
      const r = await t.app.inject({
        method: 'POST',
        url: local(url!),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(r.statusCode, r.body).toBe(204);
    }
    const since = await offAt('ann@example.com');
    expect(since).not.toBeNull();
    // As multipart/form-data (RFC 8058 allows both): still 204, and the first time stays.
    const multipart = await t.app.inject({
      method: 'POST',
      url: local(url!),
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
    });
    expect(multipart.statusCode, multipart.body).toBe(204);
    expect(await offAt('ann@example.com')).toEqual(since);
    // The page now says so.
    const after = await t.app.inject({ method: 'GET', url: local(url!), headers: { 'accept-language': 'es' } });
    expect(after.body).toContain('Reminders are off');

    // The organiser moves the event: a new start is a new reminder, for bob only.
    t.clock.advance(HOUR);
    expect((await moveEvent(new Date(START.getTime() + HOUR))).statusCode).toBe(200);
    const second = await remind();
    expect(Object.keys(second)).toEqual(['bob@example.com']);

    // Ann sees the switch and turns reminders back on: the next move reminds her again.
    const { accessToken } = await t.signIn('ann@example.com');
    const me = await t.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(accessToken) });
    expect(me.json<{ reminders: boolean }>().reminders).toBe(false);
    const on = await t.app.inject({
      method: 'PUT',
      url: '/v1/auth/reminders',
      headers: bearer(accessToken),
      payload: { reminders: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json<{ reminders: boolean }>().reminders).toBe(true);
    expect(await offAt('ann@example.com')).toBeNull();
    expect((await moveEvent(new Date(START.getTime() + 90 * 60_000))).statusCode).toBe(200);
    expect(Object.keys(await remind()).sort()).toEqual(['ann@example.com', 'bob@example.com']);
  });

  it('the page’s own button (a browser) answers the page saying reminders are off, in the link’s language', async () => {
    t.clock.advance(7 * HOUR);
    const { url } = await listHeaders((await remind())['bob@example.com'][0]);
    const es = local(url!).replace('lang=en', 'lang=es');
    const r = await t.app.inject({
      method: 'POST',
      url: es,
      headers: { accept: 'text/html,*/*', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('Recordatorios desactivados');
    expect(r.body).toContain('Acme Events');
    expect(await offAt('bob@example.com')).not.toBeNull();
  });

  it('refuses a forged, expired, malformed or other kind of token with a message key, and changes nothing', async () => {
    t.clock.advance(7 * HOUR);
    const { url } = await listHeaders((await remind())['ann@example.com'][0]);
    const token = new URL(url!).searchParams.get('token')!;
    const annId = (
      await rawQuery<{ id: number }>(t.database.db, `select id from users where email = 'ann@example.com'`)
    ).rows[0].id;
    const other = createUnsubscribeTokens({
      secret: new TextEncoder().encode('another-secret-'.padEnd(48, 'y')),
      issuer: 'http://panel.test',
      ttlSeconds: 3600,
    });
    const { accessToken } = await t.signIn('bob@example.com');
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const bad = [
      other.sign(annId, t.clock.now()), // signed with another key
      tampered, // signature changed
      accessToken, // an access token: another audience
      'not-a-token',
      '',
    ];
    for (const b of bad) {
      const r = await t.app.inject({ method: 'POST', url: `/v1/reminders/unsubscribe?token=${encodeURIComponent(b)}` });
      expect(r.statusCode, b).toBe(400);
      expect(r.json()).toEqual({ message: 'api.reminders.unsubscribe_invalid' });
      const page = await t.app.inject({
        method: 'GET',
        url: `/v1/reminders/unsubscribe?token=${encodeURIComponent(b)}`,
      });
      expect(page.statusCode).toBe(400);
      expect(page.body).toContain('This link does not work');
    }
    // No token at all: the request is malformed.
    const none = await t.app.inject({ method: 'POST', url: '/v1/reminders/unsubscribe' });
    expect(none.statusCode).toBe(400);
    expect(none.json<{ message: string }>().message).toBe('api.invalid_request_body');
    expect(await offAt('ann@example.com')).toBeNull();

    // The genuine link, past its 90 days: expired.
    t.clock.advance(91 * 24 * HOUR);
    const late = await t.app.inject({ method: 'POST', url: local(url!) });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({ message: 'api.reminders.unsubscribe_invalid' });
    expect(await offAt('ann@example.com')).toBeNull();
  });

  it('transactional mails (the sign-in code, the issued ticket) carry no List-Unsubscribe', async () => {
    const before = t.mail.sent.length;
    await t.signIn('carol@example.com');
    const code = t.mail.sent.slice(before).find((m) => m.to === 'carol@example.com')!;
    expect(code.subject).toMatch(/sign-in code/);
    const issued = t.mail.sent.find((m) => m.to === 'ann@example.com' && /^Your ticket/.test(m.subject))!;
    expect(issued).toBeDefined();
    for (const m of [code, issued]) {
      const mail = await parsed(m);
      expect(mail.headers.has('list-unsubscribe')).toBe(false);
      expect(mail.headers.has('list-unsubscribe-post')).toBe(false);
      expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
      expect(m.text).not.toContain('/v1/reminders/unsubscribe');
    }
  });
});
