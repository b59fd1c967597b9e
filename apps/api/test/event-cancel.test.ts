/**
 * Issue 46 "Cancel an event" (decision 045): the dry run touches nothing and counts; the cancel stops every ticket of
 * the event admitting (online 409 `api.access.event_cancelled`, offline sync `event_cancelled`, an empty admissions
 * list) and moving, takes its listings off sale, tells each holder once by e-mail (their language, the organiser's
 * words, the calendar entry withdrawn) even when the run stops halfway and is claimed again, and shows the holder the
 * state in their list; the organisation gets `event.cancelled` and an audit entry.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { access, MyTicket, organisations } from '@tp/contract';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const DOOR = 'door-key-for-tests';
const REASON = 'The venue flooded. Our shop refunds every ticket within 14 days.';
let t: TestApp;

type Row = Record<string, unknown>;
const rows = async <T extends Row = Row>(sql: string) => (await rawQuery<T>(t.database.db, sql)).rows;
const call = (key: string, method: 'PUT' | 'POST' | 'GET', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
const userId = async (email: string) => Number((await rows(`select id from users where email = '${email}'`))[0].id);
const passOf = async (email: string) =>
  t.app.services.access.codeFor(await userId(email), Math.floor(t.clock.now().getTime() / 1000 / 30));
const gigId = async () => Number((await rows(`select id from events where external_id = 'gig'`))[0].id);
const cancelMails = (email: string) =>
  t.mail.sent.filter((m) => m.to === email && /cancel/i.test(m.subject) && !/code/i.test(m.subject));

/** An organisation with the event `gig` (GA tickets t1..t4: h1 two, h2 and h3 (Spanish) one each); its API key. */
async function setUp(): Promise<string> {
  const created = await call(ADMIN, 'POST', '/v1/admin/organisations', { slug: 'shows', name: 'Shows' });
  const { apiKey } = created.json<{ apiKey: string }>();
  const day = 86_400_000;
  const start = t.clock.now().getTime() + 10 * day;
  expect(
    (
      await call(apiKey, 'PUT', '/v1/org/events/gig', {
        name: 'Harbour Gig',
        venue: 'The Pier',
        city: 'Sydney',
        country: 'AU',
        startsAt: new Date(start).toISOString(),
        endsAt: new Date(start + 4 * 3_600_000).toISOString(),
        timeZone: 'Australia/Sydney',
      })
    ).statusCode,
  ).toBeLessThan(300);
  await call(apiKey, 'PUT', '/v1/org/ticket-types/ga', {
    eventExternalId: 'gig',
    name: 'GA',
    priceCents: 5000,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  });
  for (const [id, email] of [
    ['t1', 'h1@example.com'],
    ['t2', 'h1@example.com'],
    ['t3', 'h2@example.com'],
    ['t4', 'h3@example.com'],
  ])
    expect(
      (await call(apiKey, 'PUT', `/v1/org/tickets/${id}`, { ticketTypeExternalId: 'ga', holderEmail: email }))
        .statusCode,
    ).toBeLessThan(300);
  await rows(`update users set locale = 'es' where email = 'h3@example.com'`);
  return apiKey;
}

afterEach(async () => {
  await t?.close();
});

describe('cancelling an event (issue 46)', () => {
  it('dry run first, then the cancel: nothing admits or moves, each holder is told once, the organiser hears', async () => {
    t = await createTestApp({ config: { adminKey: ADMIN, scannerKey: DOOR, qrTtlSeconds: 30 } });
    const apiKey = await setUp();
    await rows(`insert into webhook_endpoints (organisation_id, url, events, secret)
      select id, 'http://127.0.0.1:9/hook', '["event.cancelled"]'::jsonb, 'whsec_x' from organisations where slug = 'shows'`);
    const h1 = (await t.signIn('h1@example.com')).accessToken;
    const sentBefore = t.mail.sent.length;

    const dry = await call(apiKey, 'POST', '/v1/org/events/gig/cancel', { dryRun: true });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toEqual({
      dryRun: true,
      cancelledAt: null,
      tickets: 4,
      holders: 3,
      listings: 0,
      openOrders: 0,
      exchangeEntries: 0,
      walletPasses: 0,
    });
    expect(await rows(`select cancelled_at from events where external_id = 'gig'`)).toEqual([{ cancelled_at: null }]);
    expect((await call(apiKey, 'GET', '/v1/org/events/gig')).json()).toMatchObject({
      cancelledAt: null,
      cancelReason: null,
    });
    expect(t.mail.sent.length).toBe(sentBefore);

    const done = await call(apiKey, 'POST', '/v1/org/events/gig/cancel', { reason: REASON });
    expect(done.statusCode, done.body).toBe(200);
    const answer = done.json<organisations.EventCancelResponse>();
    expect(answer).toMatchObject({ dryRun: false, tickets: 4, holders: 3 });
    expect(answer.cancelledAt).toBe(t.clock.now().toISOString());
    // The run's mails are sent by the mail lane, which on PostgreSQL runs beside the run's lane: once more.
    await t.app.services.jobs.runDue();

    // Told once per ticket, in their language, with the organiser's words and the calendar entry withdrawn.
    expect(cancelMails('h1@example.com').map((m) => m.subject)).toEqual([
      'Harbour Gig is cancelled',
      'Harbour Gig is cancelled',
    ]);
    expect(cancelMails('h2@example.com')).toHaveLength(1);
    const es = t.mail.sent.filter((m) => m.to === 'h3@example.com' && m.subject.includes('cancelado'));
    expect(es.map((m) => m.subject)).toEqual(['Harbour Gig se ha cancelado']);
    const mail = cancelMails('h2@example.com')[0];
    expect(mail.text).toContain(REASON);
    const ics = mail.attachments!.find((a) => a.filename.endsWith('.ics'))!;
    expect(String(ics.content)).toContain('METHOD:CANCEL');
    expect(String(ics.content)).toContain('STATUS:CANCELLED');

    // The holder sees it in their list; nothing moves.
    const mine = (await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(h1) })).json<
      MyTicket[]
    >();
    expect(mine).toHaveLength(2);
    for (const ticket of mine) {
      expect(ticket.eventCancelled).toEqual({ at: answer.cancelledAt, reason: REASON });
      expect([ticket.isGiftable, ticket.isResellable, ticket.isSwappable]).toEqual([false, false, false]);
    }

    // The door: online refused with the reason, offline sync a conflict, the admissions list empty.
    const scan = await t.app.inject({
      method: 'POST',
      url: '/v1/access/check-in',
      headers: { 'x-scanner-key': DOOR },
      payload: { code: await passOf('h1@example.com'), eventId: await gigId() },
    });
    expect(scan.statusCode).toBe(409);
    expect(scan.json()).toMatchObject({ message: 'api.access.event_cancelled' });
    const sync = await t.app.inject({
      method: 'POST',
      url: '/v1/access/sync',
      headers: { 'x-scanner-key': DOOR },
      payload: {
        eventId: await gigId(),
        items: [
          {
            id: randomUUID(),
            code: await passOf('h1@example.com'),
            scannedAt: t.clock.now().toISOString(),
            userTicketIds: mine.map((x) => x.userTicketId),
          },
        ],
      },
    });
    expect(sync.json<access.SyncResponse>().results[0]).toMatchObject({
      admitted: [],
      conflicts: mine.map((x) => ({ userTicketId: x.userTicketId, reason: 'event_cancelled' })),
    });
    const list = await t.app.inject({
      url: `/v1/access/events/${await gigId()}/admissions`,
      headers: { 'x-scanner-key': DOOR },
    });
    expect(list.json<access.AdmissionsPage>().holders).toEqual([]);

    // The organiser: the webhook, the audit trail; a second cancel changes nothing; the event can no longer change.
    const [delivery] = await rows<{ payload: string }>(
      `select payload from webhook_deliveries where event_type = 'event.cancelled'`,
    );
    expect((JSON.parse(delivery.payload) as { data: unknown }).data).toEqual({
      eventExternalId: 'gig',
      reason: REASON,
      tickets: 4,
    });
    expect(await rows(`select action, resource_id from audit_log where action = 'event.cancelled'`)).toEqual([
      { action: 'event.cancelled', resource_id: 'gig' },
    ]);
    const sent = t.mail.sent.length;
    t.clock.advance(60_000);
    const again = await call(apiKey, 'POST', '/v1/org/events/gig/cancel', { reason: 'other words' });
    expect(again.json()).toMatchObject({ cancelledAt: answer.cancelledAt });
    expect(t.mail.sent.length).toBe(sent);
    const edit = await call(apiKey, 'PUT', '/v1/org/events/gig', {
      name: 'Harbour Gig',
      venue: 'Elsewhere',
      city: 'Sydney',
      country: 'AU',
      startsAt: new Date(t.clock.now().getTime() + 20 * 86_400_000).toISOString(),
      endsAt: new Date(t.clock.now().getTime() + 21 * 86_400_000).toISOString(),
      timeZone: 'Australia/Sydney',
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json()).toMatchObject({ message: 'api.org.event_cancelled' });
    // Its tickets' "your ticket" mail is not sent again: it would contradict the cancellation.
    const resend = await call(apiKey, 'POST', '/v1/org/tickets/t1/resend');
    expect(resend.statusCode, resend.body).toBe(409);
    expect(resend.json()).toMatchObject({ message: 'api.org.event_cancelled' });
    // The ticket's read says so, and the console offers no resend (ticket-drawer.tsx).
    expect((await call(apiKey, 'GET', '/v1/org/tickets/t1')).json()).toMatchObject({ eventCancelled: true });
    await t.app.services.jobs.runDue();
    expect(t.mail.sent.length).toBe(sent);
    // The organiser's reads say it (the console's cancelled state): when, and the words of the first cancel.
    const read = await call(apiKey, 'GET', '/v1/org/events/gig');
    expect(read.json()).toMatchObject({ cancelledAt: answer.cancelledAt, cancelReason: REASON });
    const listed = await call(apiKey, 'GET', '/v1/org/events');
    expect(listed.json()).toMatchObject({ items: [{ externalId: 'gig', cancelledAt: answer.cancelledAt }] });
  });

  it('a listed ticket leaves sale; a run stopped after its first batch and claimed again tells everyone once', async () => {
    t = await createTestApp({ runJobs: false, config: { adminKey: ADMIN, scannerKey: DOOR, qrTtlSeconds: 30 } });
    const apiKey = await setUp();
    await t.app.services.jobs.runDue();
    await rows(`insert into resale_listings (seller_id, ticket_type_id, quantity, price_cents, fee_cents, currency_code, status, share_token, listed_at)
      select u.id, ut.ticket_type_id, 1, 5000, 500, 'AUD', 'LISTED', 'tok-gig', now() from user_tickets ut join users u on u.id = ut.holder_id where ut.external_id = 't3'`);
    await rows(`insert into resale_listing_tickets (listing_id, user_ticket_id, status)
      select l.id, ut.id, 'LISTED' from resale_listings l, user_tickets ut where l.share_token = 'tok-gig' and ut.external_id = 't3'`);
    expect((await call(apiKey, 'POST', '/v1/org/events/gig/cancel', { dryRun: true })).json()).toMatchObject({
      listings: 1,
    });
    const sent = t.mail.sent.length;
    expect((await call(apiKey, 'POST', '/v1/org/events/gig/cancel', {})).statusCode).toBe(200);
    expect(await rows(`select status from resale_listings where share_token = 'tok-gig'`)).toEqual([
      { status: 'DELISTED' },
    ]);
    // The run's first batch (two tickets), then the process "dies": the job is still queued, claimed again later.
    expect(await t.app.services.organisations.org.cancelRunStep(await gigId(), 2)).toBe(true);
    // Claimed again a minute later (jobs queued now are due by the database's clock, ahead of the test's).
    t.clock.advance(60_000);
    // The app's own workers run the job too (this app does not run them after each request): wait for the mails.
    const told = () => t.mail.sent.slice(sent).filter((m) => /cancel/i.test(m.subject));
    await vi.waitFor(
      async () => {
        await t.app.services.jobs.runDue();
        expect(
          told()
            .map((m) => m.to)
            .sort(),
        ).toEqual(['h1@example.com', 'h1@example.com', 'h2@example.com', 'h3@example.com']);
      },
      { timeout: 20_000, interval: 200 },
    );
    // No reason given: the mail has none.
    expect(told()[0].text).not.toContain('From Shows:');
    expect(await rows(`select cancel_cursor from events where external_id = 'gig'`)).toEqual([{ cancel_cursor: null }]);
  });

  it('an ended event is not cancelled (409 api.org.event_ended, nothing touched); one under way is, and stays so', async () => {
    t = await createTestApp({ config: { adminKey: ADMIN, scannerKey: DOOR } });
    const apiKey = await setUp();
    const hour = 3_600_000;
    // The show starts in 10 days and lasts 4 hours (setUp): at its end exactly, it has ended.
    t.clock.advance(10 * 86_400_000 + 4 * hour);
    const sent = t.mail.sent.length;
    const jobs = await rows(`select count(*)::int as n from jobs`);
    const late = await call(apiKey, 'POST', '/v1/org/events/gig/cancel', { reason: REASON });
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json()).toMatchObject({ message: 'api.org.event_ended' });
    expect(await rows(`select cancelled_at from events where external_id = 'gig'`)).toEqual([{ cancelled_at: null }]);
    expect(await rows(`select count(*)::int as n from jobs`)).toEqual(jobs);
    expect(await rows(`select count(*)::int as n from audit_log where action = 'event.cancelled'`)).toEqual([{ n: 0 }]);
    await t.app.services.jobs.runDue();
    expect(t.mail.sent.length).toBe(sent);
    // A dry run still answers what a cancel would touch.
    expect((await call(apiKey, 'POST', '/v1/org/events/gig/cancel', { dryRun: true })).statusCode).toBe(200);

    // The control: the same event an hour before its end (under way) is cancelled; after its end, cancelling again
    // answers the first cancel, not 409.
    t.clock.advance(-hour);
    const during = await call(apiKey, 'POST', '/v1/org/events/gig/cancel', { reason: REASON });
    expect(during.statusCode, during.body).toBe(200);
    t.clock.advance(2 * hour);
    const again = await call(apiKey, 'POST', '/v1/org/events/gig/cancel', {});
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ cancelledAt: during.json<organisations.EventCancelResponse>().cancelledAt });
  });
});
