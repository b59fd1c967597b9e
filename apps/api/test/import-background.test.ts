/**
 * Imports of a stadium (issue 44, decision 040): a CSV file over `IMPORT_BACKGROUND_ROWS` rows answers 202 with an
 * `importId` and is carried out by a job of the durable queue in chunks of short transactions; GET
 * /v1/org/imports/{importId} says where it is. All or nothing: a bad row anywhere (an externalId twice in two
 * chunks too) fails the whole import and nothing is written; a second file for the same event is refused while
 * one runs; another organisation cannot read the import; two runs of the job at once (a lease overrun) never
 * write a chunk twice. The thresholds are small here (5 rows, chunks of 4) so that small files take every path;
 * the 50,000-row figures are measured by import-no-freeze.test.ts (IMPORT_NO_FREEZE_ROWS=50000).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { organisations } from '@tp/contract';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({
    config: { adminKey: ADMIN, importBackgroundRows: 5, importChunkRows: 4, orgApiPerMinute: 100_000 },
    runJobs: false,
  });
});
afterEach(async () => {
  await t.close();
});

const DAY = 86_400_000;
const iso = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
const count = async (sql: string) => Number((await rawQuery<{ n: string }>(t.database.db, sql)).rows[0].n);

/** An organisation with events `evt-1` and `evt-2`, ticket types `ga` (evt-1) and `vip` (evt-2), and a webhook. */
async function organisation(slug: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug, name: `Org ${slug}` },
  });
  expect(created.statusCode, created.body).toBe(201);
  const org = created.json<{ id: number; apiKey: string }>();
  const put = (path: string, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(org.apiKey), payload });
  for (const evt of ['evt-1', 'evt-2'])
    expect(
      (
        await put(`events/${evt}`, {
          name: 'Stadium',
          venue: 'Arena',
          city: 'Sydney',
          country: 'AU',
          startsAt: iso(10 * DAY),
          endsAt: iso(10 * DAY + 8 * 3600_000),
          timeZone: 'Australia/Sydney',
        })
      ).statusCode,
    ).toBe(201);
  const type = { name: 'GA', priceCents: 8900, currency: 'AUD', isGiftable: true, isResellable: true };
  expect((await put('ticket-types/ga', { ...type, eventExternalId: 'evt-1', isSwappable: false })).statusCode).toBe(
    201,
  );
  expect((await put('ticket-types/vip', { ...type, eventExternalId: 'evt-2', isSwappable: false })).statusCode).toBe(
    201,
  );
  const hook = await t.app.inject({
    method: 'POST',
    url: '/v1/org/webhooks',
    headers: bearer(org.apiKey),
    payload: { url: 'https://hooks.example.com/tp', events: ['ticket.issued'] },
  });
  expect(hook.statusCode).toBe(201);
  return { ...org, put };
}

const csv = (lines: string[]) => ['externalId,ticketTypeExternalId,holderEmail', ...lines].join('\n');
const fans = (n: number, type = 'ga', prefix = 't') =>
  Array.from({ length: n }, (_, i) => `${prefix}${i},${type},fan${i}@example.com`);
const importCsv = (key: string, body: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/org/tickets/import',
    headers: { ...bearer(key), 'content-type': 'text/csv' },
    payload: body,
  });
const statusOf = (key: string, importId: string) =>
  t.app.inject({ url: `/v1/org/imports/${importId}`, headers: bearer(key) });

/** Polls the import until it is done or failed (the app's own worker runs it); every answer seen, in order. */
async function untilFinished(key: string, importId: string) {
  const seen: organisations.ImportStatus[] = [];
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await statusOf(key, importId);
    expect(r.statusCode, r.body).toBe(200);
    const s = r.json<organisations.ImportStatus>();
    seen.push(s);
    if (s.status === 'done' || s.status === 'failed') return seen;
    if (Date.now() > deadline) throw new Error(`import still ${s.status} after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it('a file over IMPORT_BACKGROUND_ROWS answers 202, its import is followed to done with its counts, in chunks', async () => {
  const org = await organisation('big');
  // t0 is re-issued to someone else, t1 stays with its holder: 1 updated, 1 unchanged, 8 created.
  expect(
    (await org.put('tickets/t0', { ticketTypeExternalId: 'ga', holderEmail: 'first@example.com' })).statusCode,
  ).toBe(201);
  expect(
    (await org.put('tickets/t1', { ticketTypeExternalId: 'ga', holderEmail: 'fan1@example.com' })).statusCode,
  ).toBe(201);
  const small = await importCsv(org.apiKey, csv(fans(5)));
  expect(small.statusCode, 'five rows: at once, as before').toBe(200);
  const accepted = await importCsv(org.apiKey, csv(fans(10).map((l, i) => (i === 0 ? 't0,ga,second@example.com' : l))));
  expect(accepted.statusCode, accepted.body).toBe(202);
  const { importId } = accepted.json<organisations.ImportAccepted>();
  const seen = await untilFinished(org.apiKey, importId);
  expect(seen.at(-1)).toEqual({
    importId,
    status: 'done',
    rowsDone: 10,
    rowsTotal: 10,
    created: 5,
    updated: 1,
    unchanged: 4,
  });
  for (let i = 1; i < seen.length; i++) expect(seen[i].rowsDone).toBeGreaterThanOrEqual(seen[i - 1].rowsDone);
  expect(seen.every((s) => s.rowsTotal === 10 && !('errors' in s))).toBe(true);
  expect(await count(`select count(*) as n from user_tickets where organisation_id = ${org.id}`)).toBe(10);
  // The planner's statistics see the import (decision 051): ANALYZE counted the tickets (-1 or 0 before it).
  await expect
    .poll(() => count(`select reltuples as n from pg_class where relname = 'user_tickets'`))
    .toBe(await count(`select count(*) as n from user_tickets`));
  // Two PUTs, the small import's 1 re-issue and 3 new tickets, the large one's 1 re-issue and 5 new tickets.
  expect(await count(`select count(*) as n from webhook_deliveries`)).toBe(2 + 4 + 6);
  expect(
    await count(
      `select count(*) as n from audit_log where action = 'import.completed' and resource_id = '${importId}'`,
    ),
  ).toBe(1);
  // The holders' mails are queued like a small import's (bulk class), one per ticket issued.
  await t.app.services.jobs.runDue();
  expect(t.mail.sent.filter((m) => m.to === 'second@example.com')).toHaveLength(1);
  expect(t.mail.sent.filter((m) => m.to === 'fan9@example.com')).toHaveLength(1);
  // Sent again: nothing changes.
  const again = await importCsv(org.apiKey, csv(fans(10).map((l, i) => (i === 0 ? 't0,ga,second@example.com' : l))));
  const redone = await untilFinished(org.apiKey, again.json<organisations.ImportAccepted>().importId);
  expect(redone.at(-1)).toMatchObject({ status: 'done', rowsDone: 10, created: 0, updated: 0, unchanged: 10 });
});

it('a failing row fails the whole import and nothing is written: a bad row in the last chunk, an id twice in two chunks', async () => {
  const org = await organisation('bad');
  const tickets = () => count(`select count(*) as n from user_tickets where organisation_id = ${org.id}`);
  const users = await count('select count(*) as n from users');
  for (const [lines, error] of [
    [[...fans(11), 't11,nope,fan11@example.com'], { row: 13, message: 'api.org.ticket_type_not_found' }],
    [[...fans(11), 't0,ga,other@example.com'], { row: 13, message: 'api.org.import.duplicate_external_id' }],
  ] as const) {
    const accepted = await importCsv(org.apiKey, csv([...lines]));
    expect(accepted.statusCode, accepted.body).toBe(202);
    const { importId } = accepted.json<organisations.ImportAccepted>();
    const seen = await untilFinished(org.apiKey, importId);
    expect(seen.at(-1)).toMatchObject({ status: 'failed', rowsDone: 0, rowsTotal: 12, errors: [error] });
    expect(seen.every((s) => s.rowsDone === 0)).toBe(true);
    expect(await tickets()).toBe(0);
    expect(await count('select count(*) as n from webhook_deliveries')).toBe(0);
    expect(await count(`select count(*) as n from jobs where kind = 'mail'`)).toBe(0);
  }
  expect(await count('select count(*) as n from users')).toBe(users);
  // A row the parser refuses (an address that is not one) answers 422 at once, as for a small file.
  const refused = await importCsv(org.apiKey, csv([...fans(9), 't9,ga,not-an-address']));
  expect(refused.statusCode).toBe(422);
  expect(refused.json()).toMatchObject({ message: 'api.org.import.invalid_rows', errors: [{ row: 11 }] });
  expect(await count('select count(*) as n from ticket_imports')).toBe(2);
});

it('a second file for the same event is refused (409 naming the running import) until it is done; another event is taken', async () => {
  const org = await organisation('twice');
  const eventId = (await rawQuery<{ id: number }>(t.database.db, `select id from events where external_id = 'evt-1'`))
    .rows[0].id;
  const running = '6b0d9c55-0f0e-4c64-9b3f-0e8f8b3f1a01';
  await rawQuery(
    t.database.db,
    `insert into ticket_imports (id, organisation_id, status, event_ids, actor, rows_total)
       values ('${running}', ${org.id}, 'running', '[${eventId}]', '{"kind":"api_key","id":null,"ip":null}', 10)`,
  );
  const refused = await importCsv(org.apiKey, csv(fans(8)));
  expect(refused.statusCode).toBe(409);
  expect(refused.json()).toMatchObject({ message: 'api.org.import.in_progress', importId: running });
  expect(await count(`select count(*) as n from ticket_imports where organisation_id = ${org.id}`)).toBe(1);
  // Another event's file goes ahead.
  const other = await importCsv(org.apiKey, csv(fans(8, 'vip', 'v')));
  expect(other.statusCode, other.body).toBe(202);
  expect((await untilFinished(org.apiKey, other.json<organisations.ImportAccepted>().importId)).at(-1)).toMatchObject({
    status: 'done',
    created: 8,
  });
  await rawQuery(t.database.db, `update ticket_imports set status = 'done' where id = '${running}'`);
  const taken = await importCsv(org.apiKey, csv(fans(8)));
  expect(taken.statusCode).toBe(202);
  await untilFinished(org.apiKey, taken.json<organisations.ImportAccepted>().importId);
  // Two files sent at once: the second sees the first (the organisation's row is locked while one is recorded).
  const [a, b] = await Promise.all([
    importCsv(org.apiKey, csv(fans(40, 'ga', 'x'))),
    importCsv(org.apiKey, csv(fans(40, 'ga', 'y'))),
  ]);
  expect([a.statusCode, b.statusCode].sort()).toEqual([202, 409]);
  const first = (a.statusCode === 202 ? a : b).json<organisations.ImportAccepted>().importId;
  expect((a.statusCode === 409 ? a : b).json()).toMatchObject({ importId: first });
  expect((await untilFinished(org.apiKey, first)).at(-1)).toMatchObject({ status: 'done', created: 40 });
});

it("another organisation cannot read an import's status; an unknown id is not found", async () => {
  const org = await organisation('mine');
  const stranger = await organisation('theirs');
  const accepted = await importCsv(org.apiKey, csv(fans(6)));
  const { importId } = accepted.json<organisations.ImportAccepted>();
  for (const id of [importId, '6b0d9c55-0f0e-4c64-9b3f-0e8f8b3f1a02', 'not-an-id']) {
    const r = await statusOf(stranger.apiKey, id);
    expect(r.statusCode, id).toBe(404);
    expect(r.json()).toMatchObject({ message: 'api.org.import.not_found' });
  }
  expect((await t.app.inject({ url: `/v1/org/imports/${importId}` })).statusCode).toBe(401);
  expect((await untilFinished(org.apiKey, importId)).at(-1)).toMatchObject({ status: 'done', created: 6 });
});

it('two runs of one import at once (a lease overrun, a claim after a crash) write each chunk once', async () => {
  const org = await organisation('twice-run');
  const accepted = await importCsv(org.apiKey, csv(fans(40)));
  const { importId } = accepted.json<organisations.ImportAccepted>();
  const run = () => t.app.services.organisations.org.runImportJob({ importId });
  await Promise.all([run(), run(), run()]);
  const seen = await untilFinished(org.apiKey, importId);
  expect(seen.at(-1)).toMatchObject({ status: 'done', rowsDone: 40, created: 40, updated: 0, unchanged: 0 });
  expect(await count(`select count(*) as n from user_tickets where organisation_id = ${org.id}`)).toBe(40);
  expect(await count(`select count(*) as n from ticket_history`)).toBe(40);
  expect(await count(`select count(*) as n from webhook_deliveries`)).toBe(40);
  expect(await count(`select count(*) as n from audit_log where resource_id = '${importId}'`)).toBe(1);
});

it('an import whose job fails on its last attempt ends failed, never left running', async () => {
  const org = await organisation('broken');
  const id = '6b0d9c55-0f0e-4c64-9b3f-0e8f8b3f1a03';
  // Rows the job cannot read: every attempt throws.
  await rawQuery(
    t.database.db,
    `insert into ticket_imports (id, organisation_id, status, event_ids, actor, rows_total, rows)
       values ('${id}', ${org.id}, 'queued', '[]', '{"kind":"api_key","id":null,"ip":null}', 1, '"x"')`,
  );
  const run = (attempt: number) => t.app.services.organisations.org.runImportJob({ importId: id }, attempt);
  await expect(run(1)).rejects.toThrow();
  expect((await statusOf(org.apiKey, id)).json()).toMatchObject({ status: 'running' });
  await expect(run(t.config.jobMaxAttempts)).rejects.toThrow();
  expect((await statusOf(org.apiKey, id)).json()).toMatchObject({ status: 'failed', rowsDone: 0, errors: [] });
});
