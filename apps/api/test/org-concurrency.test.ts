/**
 * Concurrent upserts of organiser resources (issue 19, break 5): parallel PUTs and imports of one new
 * externalId answer 2xx or 409, never 5xx (on PostgreSQL `user_tickets_org_external_uq` escaped as a 500),
 * and the log lines carry ids, never e-mails, phone numbers or names.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({
    seed: true,
    logs: true,
    config: { adminKey: ADMIN },
    routes: (app) =>
      app.get('/test/fails-with-personal-data', () => {
        const pgError = Object.assign(
          new Error('duplicate key value violates unique constraint "users_email_unique"'),
          {
            code: '23502',
            detail: 'Key (email)=(carol.secret@example.com) already exists.',
          },
        );
        throw new Error(
          'Failed query: insert into "users" ("email", "phone_number") values ($1, $2)\nparams: carol.secret@example.com,+61 412 345 678',
          { cause: pgError },
        );
      }),
  });
});
afterEach(async () => {
  await t.close();
});

const DAY = 86_400_000;
const iso = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
const put = (key: string, path: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(key), payload });

async function orgWithType(): Promise<string> {
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug: 'acme', name: 'Acme' },
  });
  const { apiKey } = r.json<{ apiKey: string }>();
  const event = {
    name: 'Harbour Lights',
    venue: 'The Domain',
    city: 'Sydney',
    country: 'AU',
    startsAt: iso(10 * DAY),
    endsAt: iso(10 * DAY + 8 * 3600_000),
    timeZone: 'Australia/Sydney',
  };
  expect((await put(apiKey, 'events/evt-1', event)).statusCode).toBe(201);
  const type = {
    eventExternalId: 'evt-1',
    name: 'General Admission',
    priceCents: 8900,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  };
  expect((await put(apiKey, 'ticket-types/ga', type)).statusCode).toBe(201);
  return apiKey;
}

const ok = (s: number) => (s >= 200 && s < 300) || s === 409;

describe('concurrent organiser upserts', () => {
  it('parallel PUTs and imports of one new externalId answer 2xx or 409, never 5xx; logs hold no e-mail', async () => {
    const key = await orgWithType();
    const statuses: number[] = [];
    // Tickets: 20 PUTs of one new id, several holders.
    statuses.push(
      ...(
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            put(key, 'tickets/t-new', { ticketTypeExternalId: 'ga', holderEmail: `holder${i % 3}@example.com` }),
          ),
        )
      ).map((r) => r.statusCode),
    );
    // Imports: 10 at once, each issuing the same new id.
    statuses.push(
      ...(
        await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            t.app.inject({
              method: 'POST',
              url: '/v1/org/tickets/import',
              headers: { ...bearer(key), 'content-type': 'text/csv' },
              payload: `externalId,ticketTypeExternalId,holderEmail\nimp-1,ga,importer${i}@example.com\n`,
            }),
          ),
        )
      ).map((r) => r.statusCode),
    );
    // Events and ticket types: 10 PUTs each of one new id.
    const event = {
      name: 'Second',
      venue: 'Hall',
      city: 'Sydney',
      country: 'AU',
      startsAt: iso(20 * DAY),
      endsAt: iso(20 * DAY + 3600_000),
      timeZone: 'Australia/Sydney',
    };
    statuses.push(
      ...(await Promise.all(Array.from({ length: 10 }, () => put(key, 'events/evt-2', event)))).map(
        (r) => r.statusCode,
      ),
    );
    const type = {
      eventExternalId: 'evt-2',
      name: 'VIP',
      priceCents: 100,
      currency: 'AUD',
      isGiftable: true,
      isResellable: false,
      isSwappable: false,
    };
    statuses.push(
      ...(await Promise.all(Array.from({ length: 10 }, () => put(key, 'ticket-types/vip', type)))).map(
        (r) => r.statusCode,
      ),
    );
    const failures = t.logs.filter((l) => l.msg === 'request failed');
    expect(
      statuses.filter((s) => !ok(s)),
      JSON.stringify(failures),
    ).toEqual([]);
    expect(JSON.stringify(t.logs)).not.toMatch(/@example\.com/);
  });

  it('logs a server error with its cause but without e-mails, phone numbers or bound parameters', async () => {
    const r = await t.app.inject({ url: '/test/fails-with-personal-data' });
    expect(r.statusCode).toBe(500);
    const line = t.logs.find((l) => l.msg === 'request failed');
    expect(line).toBeDefined();
    const text = JSON.stringify(line);
    expect(text).toMatch(/Failed query: insert into/);
    expect(text).toMatch(/users_email_unique/);
    expect(text).not.toMatch(/carol\.secret|example\.com|412 345|\+61/);
  });

  it('redacts personal fields of any object logged', () => {
    t.app.log.warn(
      { holder: { id: 7, email: 'dave@example.com', phoneNumber: '+61412345678', givenName: 'Dave' } },
      'x',
    );
    const line = t.logs.find((l) => l.msg === 'x') as unknown as { holder: Record<string, unknown> };
    expect(line.holder).toEqual({ id: 7, email: '[redacted]', phoneNumber: '[redacted]', givenName: '[redacted]' });
  });
});
