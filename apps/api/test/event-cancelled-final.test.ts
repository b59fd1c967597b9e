/**
 * Issue 46 (decision 045, "a cancelled event cannot be changed"): after the cancel the organiser API refuses every
 * change of the event's own things with 409 `api.org.event_cancelled` and writes nothing: its ticket types (an edit,
 * a new one), its tickets (a new one, a re-issue, a repeat), an import into it (small, a dry run, and one in the
 * background, whose job fails), its exchange queue (settings that would open it again, a
 * release). Its refund policy is still set (`on_cancel` is chosen after a cancel too) and reads still answer. Each
 * refused call is first made to succeed on the event before its cancel, the control that the refusal is the cancel's.
 */
import { afterEach, expect, it } from 'vitest';
import type { organisations } from '@tp/contract';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const DAY = 86_400_000;
let t: TestApp;
afterEach(async () => {
  await t?.close();
});

type Row = Record<string, unknown>;
const rows = async <T extends Row = Row>(sql: string) => (await rawQuery<T>(t.database.db, sql)).rows;
const call = (key: string, method: 'PUT' | 'POST' | 'GET', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
const importCsv = (key: string, lines: string[], dryRun = false) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/org/tickets/import${dryRun ? '?dryRun=true' : ''}`,
    headers: { ...bearer(key), 'content-type': 'text/csv' },
    payload: ['externalId,ticketTypeExternalId,holderEmail', ...lines].join('\n'),
  });
/** The background import's state once it is done or failed (the app's own worker runs its job). */
async function finished(key: string, importId: string): Promise<organisations.ImportStatus> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await t.app.services.jobs.runDue();
    const s = (await call(key, 'GET', `/v1/org/imports/${importId}`)).json<organisations.ImportStatus>();
    if (s.status === 'done' || s.status === 'failed') return s;
    if (Date.now() > deadline) throw new Error(`import still ${s.status} after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
const refusal = (r: { statusCode: number; json: () => unknown }) => [
  r.statusCode,
  (r.json() as { message: string }).message,
];
const CANCELLED = [409, 'api.org.event_cancelled'];
const gaType = {
  eventExternalId: 'gig',
  name: 'GA',
  priceCents: 5000,
  currency: 'AUD',
  isGiftable: true,
  isResellable: true,
  isSwappable: false,
};
const exchangeOn = (closesInDays: number) => ({
  enabled: true,
  offerMinutes: 20,
  order: 'first_come',
  maxQuantity: 2,
  closesAt: new Date(t.clock.now().getTime() + closesInDays * DAY).toISOString(),
});

it("refuses every change of a cancelled event's types, tickets, imports and exchange queue; its refund policy still changes", async () => {
  t = await createTestApp({ config: { adminKey: ADMIN, importBackgroundRows: 5, importChunkRows: 4 } });
  const created = await call(ADMIN, 'POST', '/v1/admin/organisations', { slug: 'shows', name: 'Shows' });
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
  expect(event.statusCode, event.body).toBe(201);
  const payout = await call(apiKey, 'POST', '/v1/org/payout-account/sandbox-onboarding', {
    country: 'AU',
    firstName: 'A',
    lastName: 'B',
    birthdate: '1990-01-02',
    bankAccount: '062-000 12345678',
  });
  expect(payout.statusCode, payout.body).toBe(204);

  // The control: each change is taken while the event stands.
  expect((await call(apiKey, 'PUT', '/v1/org/ticket-types/ga', gaType)).statusCode).toBe(201);
  expect((await call(apiKey, 'PUT', '/v1/org/ticket-types/ga', { ...gaType, name: 'General' })).statusCode).toBe(200);
  expect(
    (await call(apiKey, 'PUT', '/v1/org/tickets/t1', { ticketTypeExternalId: 'ga', holderEmail: 'h1@example.com' }))
      .statusCode,
  ).toBe(201);
  expect(
    (await call(apiKey, 'PUT', '/v1/org/tickets/t1', { ticketTypeExternalId: 'ga', holderEmail: 'h2@example.com' }))
      .statusCode,
  ).toBe(200);
  expect((await importCsv(apiKey, ['t2,ga,h3@example.com'])).statusCode).toBe(200);
  expect((await call(apiKey, 'PUT', '/v1/org/events/gig/exchange', exchangeOn(5))).statusCode).toBe(200);
  const released = await call(apiKey, 'POST', '/v1/org/events/gig/exchange/releases', {
    ticketTypeExternalId: 'ga',
    quantity: 1,
    priceCents: 5000,
  });
  expect(released.statusCode, released.body).toBe(201);

  expect((await call(apiKey, 'POST', '/v1/org/events/gig/cancel', { reason: 'Flooded.' })).statusCode).toBe(200);
  const audited = (await rows(`select count(*)::int as n from audit_log`))[0].n;
  const tickets = async () => rows(`select external_id from user_tickets order by external_id`);
  const before = await tickets();

  // Ticket types: an edit, a new type.
  expect(refusal(await call(apiKey, 'PUT', '/v1/org/ticket-types/ga', { ...gaType, name: 'GA late' }))).toEqual(
    CANCELLED,
  );
  expect(refusal(await call(apiKey, 'PUT', '/v1/org/ticket-types/vip', { ...gaType, name: 'VIP' }))).toEqual(CANCELLED);
  expect(await rows(`select external_id, name from ticket_types`)).toEqual([{ external_id: 'ga', name: 'General' }]);
  // Tickets: a new one, a re-issue, the same issue again.
  const issue = (id: string, email: string) =>
    call(apiKey, 'PUT', `/v1/org/tickets/${id}`, { ticketTypeExternalId: 'ga', holderEmail: email });
  expect(refusal(await issue('t9', 'h9@example.com'))).toEqual(CANCELLED);
  expect(refusal(await issue('t1', 'h4@example.com'))).toEqual(CANCELLED);
  expect(refusal(await issue('t1', 'h2@example.com'))).toEqual(CANCELLED);
  // An import, small and dry: each row refused at its type.
  for (const dry of [true, false]) {
    const r = await importCsv(apiKey, ['t3,ga,h5@example.com'], dry);
    expect(r.statusCode, r.body).toBe(422);
    expect(r.json()).toMatchObject({
      message: 'api.org.import.invalid_rows',
      errors: [{ row: 2, message: 'api.org.event_cancelled', field: 'ticketTypeExternalId', value: 'ga' }],
    });
  }
  // A file over 5 rows is checked by the background import's job (202 first): the job fails, writing nothing.
  const late = await importCsv(
    apiKey,
    Array.from({ length: 6 }, (_, i) => `b${i},ga,fan${i}@example.com`),
  );
  expect(late.statusCode, late.body).toBe(202);
  const status = await finished(apiKey, late.json<organisations.ImportAccepted>().importId);
  expect(status).toMatchObject({ status: 'failed', rowsDone: 0 });
  // Its refused rows (all of them, or those of the chunk that found it): each names the cancel.
  expect(status.errors?.length).toBeGreaterThan(0);
  expect(new Set(status.errors?.map((e) => e.message))).toEqual(new Set(['api.org.event_cancelled']));
  expect(await tickets()).toEqual(before);
  // The exchange queue: settings that would open it again, a release.
  expect(refusal(await call(apiKey, 'PUT', '/v1/org/events/gig/exchange', exchangeOn(6)))).toEqual(CANCELLED);
  expect(
    refusal(
      await call(apiKey, 'POST', '/v1/org/events/gig/exchange/releases', {
        ticketTypeExternalId: 'ga',
        quantity: 1,
        priceCents: 5000,
      }),
    ),
  ).toEqual(CANCELLED);
  const queue = await call(apiKey, 'GET', '/v1/org/events/gig/exchange');
  expect(queue.json<{ settings: { closedAt: string | null } }>().settings.closedAt).not.toBeNull();
  // Nothing refused reached the audit trail.
  expect((await rows(`select count(*)::int as n from audit_log`))[0].n).toBe(audited);

  // The refund policy is the one thing still set (holders of a cancelled show may ask for their money), and reads
  // answer.
  const policy = await call(apiKey, 'PUT', '/v1/org/events/gig/refund-policy', { mode: 'on_cancel' });
  expect(policy.statusCode, policy.body).toBe(200);
  expect((await call(apiKey, 'GET', '/v1/org/events/gig')).json()).toMatchObject({
    refundPolicy: { mode: 'on_cancel' },
  });
  expect((await call(apiKey, 'GET', '/v1/org/ticket-types?event=gig')).statusCode).toBe(200);
});
