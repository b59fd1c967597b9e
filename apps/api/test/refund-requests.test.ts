/**
 * Issue 46 "Refund requests" (decision 046): the organiser's per-event policy (its rule, its route, the console's read
 * of the event), the holder's request and withdrawal with every refusal, `MyTicket.refund` shown at once through the
 * listing's cache, a pending ticket that does not move but still admits, and the organiser's queue and decisions
 * (approve voids the ticket so the doors answer `refunded` and queues its wallet passes' updates, decline shows the
 * reason; both e-mail the holder in their language).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { access, MyTicket, refunds } from '@tp/contract';
import { refundWindow } from '../src/lib/refund-policy.js';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const DOOR = 'door-key-for-tests';
const DAY = 86_400_000;
let t: TestApp;

type Row = Record<string, unknown>;
type RequestPage = { items: refunds.RefundRequestItem[]; nextCursor: string | null };
const rows = async <T extends Row = Row>(sql: string) => (await rawQuery<T>(t.database.db, sql)).rows;
type Method = 'PUT' | 'POST' | 'GET' | 'DELETE';
const call = (key: string, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
/** Our id of the ticket `externalId` of the organisation `shows`. */
const ticketId = async (externalId: string) =>
  Number(
    (
      await rows(
        `select ut.id from user_tickets ut join organisations o on o.id = ut.organisation_id where o.slug = 'shows' and ut.external_id = '${externalId}'`,
      )
    )[0].id,
  );
const gigId = async () =>
  Number(
    (
      await rows(
        `select e.id from events e join organisations o on o.id = e.organisation_id where o.slug = 'shows' and e.external_id = 'gig'`,
      )
    )[0].id,
  );
const userId = async (email: string) => Number((await rows(`select id from users where email = '${email}'`))[0].id);
const passOf = async (email: string) =>
  t.app.services.access.codeFor(await userId(email), Math.floor(t.clock.now().getTime() / 1000 / 30));
/** The holder's upcoming tickets of the organisation `shows` (its header). */
const listing = async (token: string) =>
  (
    await t.app.inject({
      url: '/v1/list/ticket_listing?status=UPCOMING',
      headers: { ...bearer(token), 'x-organisation': 'shows' },
    })
  ).json<MyTicket[]>();
/** A refused answer's status and message key. */
const refusal = (res: { statusCode: number; json: <T>() => T }) => [
  res.statusCode,
  res.json<{ message: string }>().message,
];
const inFuture = (days: number) => new Date(t.clock.now().getTime() + days * DAY).toISOString();

/** An organisation with the event `gig` (GA tickets t1, t2 for h1; t3 for h2); its API key. */
async function setUp(slug = 'shows'): Promise<string> {
  const created = await call(ADMIN, 'POST', '/v1/admin/organisations', { slug, name: 'Shows' });
  const { apiKey } = created.json<{ apiKey: string }>();
  const start = t.clock.now().getTime() + 10 * DAY;
  const event = await call(apiKey, 'PUT', '/v1/org/events/gig', {
    name: 'Harbour Gig',
    venue: 'The Pier',
    city: 'Sydney',
    country: 'AU',
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(start + 4 * 3_600_000).toISOString(),
    timeZone: 'Australia/Sydney',
  });
  expect(event.statusCode).toBeLessThan(300);
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
  ])
    expect(
      (await call(apiKey, 'PUT', `/v1/org/tickets/${id}`, { ticketTypeExternalId: 'ga', holderEmail: email }))
        .statusCode,
    ).toBeLessThan(300);
  return apiKey;
}

afterEach(async () => {
  await t?.close();
});

describe('the refund policy rule (refundWindow)', () => {
  const now = new Date('2027-03-01T00:00:00Z');
  const before = new Date('2027-02-01T00:00:00Z');
  const after = new Date('2027-04-01T00:00:00Z');
  const event = { refundUntil: null, refundDeadline: null, cancelledAt: null, rescheduledAt: null };
  it.each([
    ['none never', { refundPolicy: 'none', cancelledAt: before, refundUntil: after }, false, null],
    ['until: before the date', { refundPolicy: 'until', refundUntil: after }, true, after],
    ['until: not at or after it', { refundPolicy: 'until', refundUntil: now }, false, now],
    ['on_cancel: not before the cancel', { refundPolicy: 'on_cancel' }, false, null],
    ['on_cancel: cancelled, no deadline', { refundPolicy: 'on_cancel', cancelledAt: before }, true, null],
    [
      'on_cancel: cancelled, before the deadline',
      { refundPolicy: 'on_cancel', cancelledAt: before, refundDeadline: after },
      true,
      after,
    ],
    [
      'on_cancel: cancelled, past the deadline',
      { refundPolicy: 'on_cancel', cancelledAt: before, refundDeadline: before },
      false,
      before,
    ],
    ['on_reschedule: not before the new date', { refundPolicy: 'on_reschedule', refundDeadline: after }, false, after],
    [
      'on_reschedule: moved, before the deadline',
      { refundPolicy: 'on_reschedule', rescheduledAt: before, refundDeadline: after },
      true,
      after,
    ],
    [
      'on_reschedule: moved, at the deadline',
      { refundPolicy: 'on_reschedule', rescheduledAt: before, refundDeadline: now },
      false,
      now,
    ],
    ['on_reschedule: moved, no deadline', { refundPolicy: 'on_reschedule', rescheduledAt: before }, false, null],
  ] as const)('%s', (_name, fields, open, until) => {
    expect(refundWindow({ ...event, ...fields }, now)).toEqual({ open, until });
  });
});

describe('refund requests (issue 46)', () => {
  it('the policy: checked, set, audited, shown on the event; the holder asks, withdraws, is refused where due', async () => {
    t = await createTestApp({
      config: { adminKey: ADMIN, scannerKey: DOOR, qrTtlSeconds: 30, accessTokenTtlSeconds: 30 * 86_400 },
    });
    const apiKey = await setUp();
    await rows(`insert into webhook_endpoints (organisation_id, url, events, secret)
      select id, 'http://127.0.0.1:9/hook', '["refund_request.created"]'::jsonb, 'whsec_x' from organisations where slug = 'shows'`);
    const h1 = (await t.signIn('h1@example.com')).accessToken;
    const h2 = (await t.signIn('h2@example.com')).accessToken;
    const [t1, t2, t3] = [await ticketId('t1'), await ticketId('t2'), await ticketId('t3')];

    // The policy's body is checked; another organisation's event is not found.
    const bad = await call(apiKey, 'PUT', '/v1/org/events/gig/refund-policy', { mode: 'until' });
    expect(bad.statusCode).toBe(400);
    // Year 0 and year 10000 in UTC (here through the offset): refused, where they were a 500 (the audit of issue 46).
    for (const until of ['0001-01-01T00:00:00+01:00', '9999-12-31T23:59:59-01:00'])
      expect(refusal(await call(apiKey, 'PUT', '/v1/org/events/gig/refund-policy', { mode: 'until', until }))).toEqual([
        400,
        'api.invalid_request_body',
      ]);
    const none = await call(apiKey, 'PUT', '/v1/org/events/nope/refund-policy', { mode: 'none' });
    expect(refusal(none)).toEqual([404, 'api.org.event_not_found']);
    expect((await call(apiKey, 'GET', '/v1/org/events/gig')).json()).toMatchObject({
      refundPolicy: { mode: 'none', until: null, deadline: null },
    });

    // Policy `none`: the listing says nothing, a request is not allowed.
    const first = await listing(h1);
    expect(first.map((x) => x.refund)).toEqual([undefined, undefined]);
    const refused = await call(h1, 'POST', `/v1/tickets/${t1}/refund-request`, {});
    expect(refusal(refused)).toEqual([409, 'api.refund.not_allowed']);

    // `until`: set, audited, read back, and shown to the holder at once (the listing's kept rows are stale).
    const until = inFuture(5);
    const set = await call(apiKey, 'PUT', '/v1/org/events/gig/refund-policy', { mode: 'until', until });
    expect([set.statusCode, set.json()]).toEqual([200, { mode: 'until', until, deadline: null }]);
    expect((await call(apiKey, 'GET', '/v1/org/events/gig')).json()).toMatchObject({
      refundPolicy: { mode: 'until', until },
    });
    expect(await rows(`select action, resource_id from audit_log where action = 'event.refund_policy'`)).toEqual([
      { action: 'event.refund_policy', resource_id: 'gig' },
    ]);
    expect((await listing(h1)).map((x) => x.refund)).toEqual([
      { requestable: true, until, request: null },
      { requestable: true, until, request: null },
    ]);

    // Not mine: not found.
    const notMine = await call(h1, 'POST', `/v1/tickets/${t3}/refund-request`, {});
    expect(refusal(notMine)).toEqual([404, 'api.refund.ticket_not_found']);

    // The request: 201 with the pending request; the organiser's webhook; the listing shows it and the ticket
    // no longer moves; a second request is refused.
    const asked = await call(h1, 'POST', `/v1/tickets/${t1}/refund-request`, { reason: 'I moved away.' });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json<refunds.TicketRefund>()).toEqual({
      requestable: false,
      until,
      request: { status: 'pending', createdAt: t.clock.now().toISOString(), declineReason: null },
    });
    const [delivery] = await rows<{ payload: string }>(
      `select payload from webhook_deliveries where event_type = 'refund_request.created'`,
    );
    const [request] = await rows<{ id: number }>(`select id from refund_requests where user_ticket_id = ${t1}`);
    expect((JSON.parse(delivery.payload) as { data: unknown }).data).toEqual({
      ticketExternalId: 't1',
      eventExternalId: 'gig',
      ticketTypeExternalId: 'ga',
      userTicketId: t1,
      refundRequestId: request.id,
      reason: 'I moved away.',
    });
    const pending = (await listing(h1)).find((x) => x.userTicketId === t1)!;
    expect(pending.refund).toMatchObject({ requestable: false, request: { status: 'pending' } });
    expect([pending.isGiftable, pending.isResellable]).toEqual([false, false]);
    const twice = await call(h1, 'POST', `/v1/tickets/${t1}/refund-request`, {});
    expect(refusal(twice)).toEqual([409, 'api.refund.already_requested']);
    const gift = await call(h1, 'POST', '/v1/mobile/giftTicket', { userTicketId: t1, username: 'h2@example.com' });
    expect(refusal(gift)).toEqual([409, 'gift_tickets.cannot_be_gifted']);

    // A pending ticket still admits at the door (the holder may change their mind and go).
    const scan = await t.app.inject({
      method: 'POST',
      url: '/v1/access/check-in',
      headers: { 'x-scanner-key': DOOR },
      payload: { code: await passOf('h2@example.com'), eventId: await gigId() },
    });
    expect(scan.statusCode, scan.body).toBe(200);
    // Checked in: not eligible.
    const used = await call(h2, 'POST', `/v1/tickets/${t3}/refund-request`, {});
    expect(refusal(used)).toEqual([409, 'api.refund.not_eligible']);

    // Withdrawn: the listing shows it at once and the ticket moves again; nothing left to withdraw.
    const back = await call(h1, 'DELETE', `/v1/tickets/${t1}/refund-request`);
    expect([back.statusCode, back.json()]).toEqual([200, { requestable: true, until, request: null }]);
    const freed = (await listing(h1)).find((x) => x.userTicketId === t1)!;
    expect([freed.refund?.request, freed.isGiftable]).toEqual([null, true]);
    const gone = await call(h1, 'DELETE', `/v1/tickets/${t1}/refund-request`);
    expect(refusal(gone)).toEqual([404, 'api.refund.not_found']);

    // Past `until`: no longer allowed, and the listing says so.
    t.clock.advance(6 * DAY);
    const late = await call(h1, 'POST', `/v1/tickets/${t2}/refund-request`, {});
    expect(refusal(late)).toEqual([409, 'api.refund.not_allowed']);
    expect((await listing(h1)).map((x) => x.refund?.requestable)).toEqual([false, false]);
  });

  it('on_reschedule opens with the new date; the organiser lists, declines and approves', async () => {
    t = await createTestApp({ config: { adminKey: ADMIN, scannerKey: DOOR, qrTtlSeconds: 30 } });
    const apiKey = await setUp();
    const other = await setUp('others');
    const h1 = (await t.signIn('h1@example.com')).accessToken;
    const h2 = (await t.signIn('h2@example.com')).accessToken;
    // h2 reads Spanish (set after the sign-in, which keeps the panel's language).
    await rows(`update users set locale = 'es' where email = 'h2@example.com'`);
    const [t1, t2, t3] = [await ticketId('t1'), await ticketId('t2'), await ticketId('t3')];
    const deadline = inFuture(3);
    await call(apiKey, 'PUT', '/v1/org/events/gig/refund-policy', { mode: 'on_reschedule', deadline });
    expect(refusal(await call(h1, 'POST', `/v1/tickets/${t1}/refund-request`, {}))).toEqual([
      409,
      'api.refund.not_allowed',
    ]);
    expect((await listing(h1))[0].refund).toEqual({ requestable: false, until: deadline, request: null });
    // The event moves to a new date (another part of issue 46 sets it; here SQL): requests open.
    await rows(`update events set rescheduled_at = now() where id = ${await gigId()}`);
    expect((await listing(h1))[0].refund?.requestable).toBe(true);
    for (const [token, id] of [
      [h1, t1],
      [h2, t3],
      [h1, t2],
    ] as const) {
      expect(
        (await call(token, 'POST', `/v1/tickets/${id}/refund-request`, { reason: `about ${id}` })).statusCode,
      ).toBe(201);
      t.clock.advance(60_000);
    }

    // The queue: pending oldest first, paged; other statuses empty; another organisation sees none.
    const page1 = (await call(apiKey, 'GET', '/v1/org/refund-requests?limit=2')).json<RequestPage>();
    expect(page1.items.map((i) => i.userTicketId)).toEqual([t1, t3]);
    expect(page1.items[0]).toMatchObject({
      status: 'pending',
      eventExternalId: 'gig',
      eventName: 'Harbour Gig',
      ticketExternalId: 't1',
      ticketTypeName: 'GA',
      holderEmail: 'h1@example.com',
      reason: `about ${t1}`,
      decidedAt: null,
    });
    const page2 = (
      await call(apiKey, 'GET', `/v1/org/refund-requests?limit=2&cursor=${page1.nextCursor}`)
    ).json<RequestPage>();
    expect([page2.items.map((i) => i.userTicketId), page2.nextCursor]).toEqual([[t2], null]);
    expect((await call(apiKey, 'GET', '/v1/org/refund-requests?status=approved')).json()).toEqual({
      items: [],
      nextCursor: null,
    });
    expect((await call(other, 'GET', '/v1/org/refund-requests')).json()).toEqual({ items: [], nextCursor: null });
    const [r1, r3, r2] = [...page1.items, ...page2.items].map((i) => i.id);
    const foreign = await call(other, 'POST', `/v1/org/refund-requests/${r1}/approve`, {});
    expect(refusal(foreign)).toEqual([404, 'api.org.refund_request_not_found']);

    // Decline: a reason is required; the holder sees it in their list and in an e-mail in their language.
    expect((await call(apiKey, 'POST', `/v1/org/refund-requests/${r3}/decline`, {})).statusCode).toBe(400);
    const declined = await call(apiKey, 'POST', `/v1/org/refund-requests/${r3}/decline`, { reason: 'Too late.' });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toMatchObject({ id: r3, status: 'declined', declineReason: 'Too late.' });
    expect((await listing(h2))[0].refund).toMatchObject({
      requestable: true,
      request: { status: 'declined', declineReason: 'Too late.' },
    });
    const again = await call(apiKey, 'POST', `/v1/org/refund-requests/${r3}/approve`, {});
    expect(refusal(again)).toEqual([409, 'api.org.refund_request_decided']);

    // Approve: the ticket is void as refunded, leaves the list, the doors answer `refunded`; the holder is told with
    // the reference; the audit trail records both decisions.
    const approved = await call(apiKey, 'POST', `/v1/org/refund-requests/${r1}/approve`, { reference: 'SHOP-991' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'approved',
      reference: 'SHOP-991',
      decidedAt: t.clock.now().toISOString(),
    });
    expect((await listing(h1)).map((x) => x.userTicketId)).toEqual([t2]);
    expect(await rows(`select revoked_reason from user_tickets where id = ${t1}`)).toEqual([
      { revoked_reason: 'refunded' },
    ]);
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
            userTicketIds: [t1],
          },
        ],
      },
    });
    expect(sync.json<access.SyncResponse>().results[0]).toMatchObject({
      admitted: [],
      conflicts: [{ userTicketId: t1, reason: 'refunded' }],
    });

    // t2 checked in after asking: approving answers `api.org.ticket_used` and the request stays pending.
    const scan = await t.app.inject({
      method: 'POST',
      url: '/v1/access/check-in',
      headers: { 'x-scanner-key': DOOR },
      payload: { code: await passOf('h1@example.com'), eventId: await gigId() },
    });
    // The refunded ticket does not admit online (only the other one does; offline: `refunded` above).
    expect(scan.json<access.CheckInResponse>().admitted.map((a) => a.userTicketId)).toEqual([t2]);
    const usedApprove = await call(apiKey, 'POST', `/v1/org/refund-requests/${r2}/approve`, {});
    expect(refusal(usedApprove)).toEqual([409, 'api.org.ticket_used']);
    expect(await rows(`select status from refund_requests where id = ${r2}`)).toEqual([{ status: 'pending' }]);

    await t.app.services.jobs.runDue();
    const mails = (to: string) => t.mail.sent.filter((m) => m.to === to && /refund|reembolso/i.test(m.subject));
    expect(mails('h1@example.com').map((m) => m.subject)).toEqual(['Your refund for Harbour Gig was approved']);
    expect(mails('h1@example.com')[0].text).toContain('SHOP-991');
    expect(mails('h2@example.com').map((m) => m.subject)).toEqual([
      'Tu solicitud de reembolso para Harbour Gig ha sido rechazada',
    ]);
    expect(mails('h2@example.com')[0].text).toContain('Too late.');
    expect(
      await rows(
        `select action, resource_type, resource_id from audit_log where action like 'refund_request.%' order by id`,
      ),
    ).toEqual([
      { action: 'refund_request.declined', resource_type: 'refund_request', resource_id: String(r3) },
      { action: 'refund_request.approved', resource_type: 'refund_request', resource_id: String(r1) },
    ]);
  });

  it('a ticket revoked while its request is pending: approve refuses it (the revoke kept), decline still answers', async () => {
    t = await createTestApp({ config: { adminKey: ADMIN } });
    const apiKey = await setUp();
    const h1 = (await t.signIn('h1@example.com')).accessToken;
    const [t1, t2] = [await ticketId('t1'), await ticketId('t2')];
    await call(apiKey, 'PUT', '/v1/org/events/gig/refund-policy', { mode: 'until', until: inFuture(5) });
    for (const id of [t1, t2])
      expect((await call(h1, 'POST', `/v1/tickets/${id}/refund-request`, {})).statusCode).toBe(201);
    // The organiser revokes t1 (its own revoke, not a refund) and a dispute voids t2 (decision 044) meanwhile.
    expect((await call(apiKey, 'DELETE', '/v1/org/tickets/t1')).statusCode).toBe(204);
    await rows(`update user_tickets set revoked_at = now(), revoked_reason = 'disputed' where id = ${t2}`);
    const [r1, r2] = (await rows<{ id: number }>(`select id from refund_requests order by id`)).map((r) => r.id);

    // Approving would record a refund of a ticket already void, and turn its revoke into "refunded" (a dispute won
    // could then not reinstate it): refused, nothing changed, no e-mail.
    const sent = t.mail.sent.length;
    for (const id of [r1, r2])
      expect(
        refusal(await call(apiKey, 'POST', `/v1/org/refund-requests/${id}/approve`, { reference: 'R-9' })),
      ).toEqual([409, 'api.org.ticket_revoked']);
    expect(await rows(`select revoked_reason from user_tickets where id in (${t1}, ${t2}) order by id`)).toEqual([
      { revoked_reason: null },
      { revoked_reason: 'disputed' },
    ]);
    expect(await rows(`select status, reference from refund_requests order by id`)).toEqual([
      { status: 'pending', reference: null },
      { status: 'pending', reference: null },
    ]);
    expect(t.mail.sent.length).toBe(sent);
    // The organiser closes it with a decline.
    expect(
      (await call(apiKey, 'POST', `/v1/org/refund-requests/${r1}/decline`, { reason: 'Revoked.' })).statusCode,
    ).toBe(200);
  });

  it('requests and withdrawals share one limit per account a minute (429); another account is not held back', async () => {
    t = await createTestApp({ config: { adminKey: ADMIN, refundRequestsPerMinute: 2 } });
    const apiKey = await setUp();
    const h1 = (await t.signIn('h1@example.com')).accessToken;
    const h2 = (await t.signIn('h2@example.com')).accessToken;
    const [t1, t3] = [await ticketId('t1'), await ticketId('t3')];
    await call(apiKey, 'PUT', '/v1/org/events/gig/refund-policy', { mode: 'until', until: inFuture(5) });
    expect((await call(h1, 'POST', `/v1/tickets/${t1}/refund-request`, {})).statusCode).toBe(201);
    expect((await call(h1, 'DELETE', `/v1/tickets/${t1}/refund-request`)).statusCode).toBe(200);
    // The third in the minute, a request or a withdrawal: refused before anything is written (each route counting
    // on its own let an account alternate them at twice the limit, a webhook per request; the audit of issue 46).
    expect(refusal(await call(h1, 'POST', `/v1/tickets/${t1}/refund-request`, {}))).toEqual([
      429,
      'api.too_many_requests',
    ]);
    expect(refusal(await call(h1, 'DELETE', `/v1/tickets/${t1}/refund-request`))).toEqual([
      429,
      'api.too_many_requests',
    ]);
    expect((await rows(`select status from refund_requests`)).map((r) => r.status)).toEqual(['withdrawn']);
    // The control: the limit is per account.
    expect((await call(h2, 'POST', `/v1/tickets/${t3}/refund-request`, {})).statusCode).toBe(201);
  });

  it('approving queues the wallet updates of the voided ticket; declining queues none', async () => {
    // The test clock a day behind the database's: the queued jobs (due at the database's now) wait to be read.
    t = await createTestApp({ config: { adminKey: ADMIN }, start: new Date(Date.now() - DAY) });
    const apiKey = await setUp();
    const h1 = (await t.signIn('h1@example.com')).accessToken;
    const [t1, t2] = [await ticketId('t1'), await ticketId('t2')];
    const walletJobs = () => rows(`select kind, payload from jobs where kind like 'wallet.%' order by id`);
    await call(apiKey, 'PUT', '/v1/org/events/gig/refund-policy', { mode: 'until', until: inFuture(3) });
    for (const id of [t1, t2])
      expect((await call(h1, 'POST', `/v1/tickets/${id}/refund-request`, {})).statusCode).toBe(201);
    const [r1, r2] = (await call(apiKey, 'GET', '/v1/org/refund-requests')).json<RequestPage>().items.map((i) => i.id);
    expect(await walletJobs()).toEqual([]);

    // The control: a decline leaves the ticket valid, so its passes stay as they are.
    const declined = await call(apiKey, 'POST', `/v1/org/refund-requests/${r2}/decline`, { reason: 'Final sale.' });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(await walletJobs()).toEqual([]);

    const approved = await call(apiKey, 'POST', `/v1/org/refund-requests/${r1}/approve`, { reference: 'SHOP-1' });
    expect(approved.statusCode, approved.body).toBe(200);
    // One job of each kind naming the voided ticket (as a revoke and a payment that went back queue them): Apple's
    // pass voided and its devices pushed, Google's object set INACTIVE.
    expect(await walletJobs()).toEqual([
      { kind: 'wallet.apple_update', payload: { userTicketIds: [t1] } },
      { kind: 'wallet.google_update', payload: { userTicketIds: [t1] } },
    ]);
  });

  it('on_cancel: requests open when the event is cancelled, until the deadline', async () => {
    t = await createTestApp({ config: { adminKey: ADMIN } });
    const apiKey = await setUp();
    const h1 = (await t.signIn('h1@example.com')).accessToken;
    const t1 = await ticketId('t1');
    const deadline = inFuture(2);
    await call(apiKey, 'PUT', '/v1/org/events/gig/refund-policy', { mode: 'on_cancel', deadline });
    expect(refusal(await call(h1, 'POST', `/v1/tickets/${t1}/refund-request`, {}))).toEqual([
      409,
      'api.refund.not_allowed',
    ]);
    expect((await call(apiKey, 'POST', '/v1/org/events/gig/cancel', { reason: 'Storm.' })).statusCode).toBe(200);
    expect((await listing(h1))[0].refund).toEqual({ requestable: true, until: deadline, request: null });
    expect((await call(h1, 'POST', `/v1/tickets/${t1}/refund-request`, {})).statusCode).toBe(201);
  });
});
