/**
 * Issue 46 refund requests under races (decision 046): 20 parallel requests of one ticket make one request (one
 * 201, the rest 409); an approve and a decline of one request at once: exactly one wins; a request and a gift of the
 * same ticket at once: never both; a withdrawal and a decision of one request at once: one wins, and no deadlock (both
 * take the ticket's row lock, then the request's).
 *
 * On PostgreSQL each race runs on two app instances on one database, and each has a control that runs the same race
 * with the row locks off (`refundLocks.enabled = false`; for the 20 requests also without the pending check and the
 * one-pending index): it must find the violation, which shows the test can catch what the lock prevents. On the
 * embedded database one connection runs one transaction at a time, so nothing races and there is no control.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.js';
import type { Database } from '../src/db/client.js';
import { refundLocks } from '../src/modules/refunds/refunds.service.js';
import { bearer, createTestApp, createTestApps, onPostgres, rawQuery, untilRaceLost } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const DAY = 86_400_000;
const config = { adminKey: ADMIN, refundRequestsPerMinute: 1000, giftsPerMinute: 1000 };

interface Race {
  apps: BuiltApp[];
  db: Database['db'];
  signIn: (email: string) => Promise<string>;
  now: () => Date;
  close: () => Promise<void>;
}
let race: Race | undefined;

async function startRace(): Promise<Race> {
  if (onPostgres()) {
    const t = await createTestApps(2, { config });
    return {
      apps: t.apps,
      db: t.databases[0].db,
      signIn: async (email) => (await t.signIn(email)).accessToken,
      now: () => t.clock.now(),
      close: () => t.close(),
    };
  }
  const t = await createTestApp({ config });
  return {
    apps: [t.app],
    db: t.database.db,
    signIn: async (email) => (await t.signIn(email)).accessToken,
    now: () => t.clock.now(),
    close: () => t.close(),
  };
}

const rows = async <T = Record<string, unknown>>(sql: string) => (await rawQuery<T>(race!.db, sql)).rows;
/** A request on instance `i % instances`. */
const call = (i: number, key: string, method: 'PUT' | 'POST' | 'GET' | 'DELETE', url: string, payload?: object) =>
  race!.apps[i % race!.apps.length].inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });

/** The event `gig` with a policy `until` in 5 days, `tickets` GA tickets of h1; the API key and the tickets' ids. */
async function setUp(tickets: number): Promise<{ apiKey: string; ids: number[]; h1: string }> {
  const { apiKey } = (await call(0, ADMIN, 'POST', '/v1/admin/organisations', { slug: 'shows', name: 'Shows' })).json<{
    apiKey: string;
  }>();
  const start = race!.now().getTime() + 10 * DAY;
  await call(0, apiKey, 'PUT', '/v1/org/events/gig', {
    name: 'Harbour Gig',
    venue: 'The Pier',
    city: 'Sydney',
    country: 'AU',
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(start + 3_600_000).toISOString(),
    timeZone: 'Australia/Sydney',
  });
  await call(0, apiKey, 'PUT', '/v1/org/ticket-types/ga', {
    eventExternalId: 'gig',
    name: 'GA',
    priceCents: 5000,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  });
  for (let i = 1; i <= tickets; i++)
    await call(0, apiKey, 'PUT', `/v1/org/tickets/t${i}`, {
      ticketTypeExternalId: 'ga',
      holderEmail: 'h1@example.com',
    });
  const until = new Date(race!.now().getTime() + 5 * DAY).toISOString();
  expect((await call(0, apiKey, 'PUT', '/v1/org/events/gig/refund-policy', { mode: 'until', until })).statusCode).toBe(
    200,
  );
  const ids = (await rows<{ id: number }>(`select id from user_tickets order by id`)).map((r) => Number(r.id));
  return { apiKey, ids, h1: await race!.signIn('h1@example.com') };
}

afterEach(async () => {
  refundLocks.enabled = true;
  await race?.close();
  race = undefined;
});

/** 20 requests of one ticket at once: their status codes, and the pending requests made. */
async function twentyRequests(): Promise<{ codes: number[]; pending: number }> {
  const { ids, h1 } = await setUp(1);
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => call(i, h1, 'POST', `/v1/tickets/${ids[0]}/refund-request`, {})),
  );
  const [{ n }] = await rows<{ n: number }>(`select count(*)::int as n from refund_requests where status = 'pending'`);
  return { codes: answers.map((a) => a.statusCode).sort(), pending: Number(n) };
}

/**
 * Approve and decline of one request at once, for `n` requests (all pairs at once): each pair's status codes, and the
 * decisions recorded (audit entries).
 */
async function approveAndDecline(n: number): Promise<{ codes: number[][]; decisions: number }> {
  const { apiKey, ids, h1 } = await setUp(n);
  for (const id of ids)
    expect((await call(0, h1, 'POST', `/v1/tickets/${id}/refund-request`, {})).statusCode).toBe(201);
  const requests = (await rows<{ id: number }>(`select id from refund_requests order by id`)).map((r) => r.id);
  const codes = await Promise.all(
    requests.map(async (id) =>
      (
        await Promise.all([
          call(0, apiKey, 'POST', `/v1/org/refund-requests/${id}/approve`, { reference: 'R-1' }),
          call(1, apiKey, 'POST', `/v1/org/refund-requests/${id}/decline`, { reason: 'No.' }),
        ])
      )
        .map((a) => a.statusCode)
        .sort(),
    ),
  );
  const [{ n: decisions }] = await rows<{ n: number }>(
    `select count(*)::int as n from audit_log where action like 'refund_request.%'`,
  );
  return { codes, decisions: Number(decisions) };
}

/**
 * A refund request and a gift of the same ticket at once, for each of `rounds` tickets: the rounds where both
 * succeeded (a pending request on a ticket that moved).
 */
async function requestAndGift(rounds: number): Promise<number> {
  const { ids, h1 } = await setUp(rounds);
  await race!.signIn('h2@example.com');
  let both = 0;
  for (const id of ids) {
    const [asked, gift] = await Promise.all([
      call(0, h1, 'POST', `/v1/tickets/${id}/refund-request`, {}),
      call(1, h1, 'POST', '/v1/mobile/giftTicket', { userTicketId: id, username: 'h2@example.com' }),
    ]);
    if (asked.statusCode === 201 && gift.statusCode === 200) both++;
  }
  return both;
}

/**
 * The holder's withdrawal and the organiser's decision (approve for odd requests, decline for even) of each of `n`
 * requests at once, on two instances: each pair's answers (status and message key, sorted).
 */
async function withdrawAndDecide(n: number): Promise<string[][]> {
  const { apiKey, ids, h1 } = await setUp(n);
  for (const id of ids)
    expect((await call(0, h1, 'POST', `/v1/tickets/${id}/refund-request`, {})).statusCode).toBe(201);
  const requests = await rows<{ id: number; user_ticket_id: number }>(
    `select id, user_ticket_id from refund_requests order by id`,
  );
  const answer = (a: { statusCode: number; json: <T>() => T }) =>
    `${a.statusCode}${a.statusCode === 200 ? '' : ` ${a.json<{ message: string }>().message}`}`;
  return Promise.all(
    requests.map(async (r, i) =>
      (
        await Promise.all([
          call(0, h1, 'DELETE', `/v1/tickets/${r.user_ticket_id}/refund-request`),
          i % 2
            ? call(1, apiKey, 'POST', `/v1/org/refund-requests/${r.id}/approve`, {})
            : call(1, apiKey, 'POST', `/v1/org/refund-requests/${r.id}/decline`, { reason: 'No.' }),
        ])
      )
        .map(answer)
        .sort(),
    ),
  );
}

describe('refund requests under races (issue 46)', () => {
  it('20 requests of one ticket at once: one 201, the rest 409', async () => {
    race = await startRace();
    const { codes, pending } = await twentyRequests();
    expect(codes).toEqual([201, ...Array<number>(19).fill(409)]);
    expect(pending).toBe(1);
  });

  it('approve and decline of one request at once: exactly one wins', async () => {
    race = await startRace();
    const { codes, decisions } = await approveAndDecline(10);
    expect(codes).toEqual(Array.from({ length: 10 }, () => [200, 409]));
    expect(decisions).toBe(10);
  });

  it('a request and a gift of the same ticket at once: never both', async () => {
    race = await startRace();
    expect(await requestAndGift(10)).toBe(0);
  });

  it('a withdrawal and a decision of one request at once: exactly one wins, neither waits on the other (deadlock)', async () => {
    race = await startRace();
    const pairs = await withdrawAndDecide(20);
    // The decision's refusal: decided (the withdrawal won); the withdrawal's: nothing pending (a decline won) or no
    // live ticket (an approve won).
    const lost = ['404 api.refund.not_found', '404 api.refund.ticket_not_found', '409 api.org.refund_request_decided'];
    for (const pair of pairs) {
      expect(
        pair.filter((a) => a === '200'),
        pair.join(),
      ).toHaveLength(1);
      expect(lost, pair.join()).toContain(pair.find((a) => a !== '200'));
    }
    const [{ n }] = await rows<{ n: number }>(
      `select count(*)::int as n from refund_requests where status = 'pending'`,
    );
    expect(Number(n)).toBe(0);
  });

  describe.runIf(onPostgres())('controls: without the locks the same races break', () => {
    /** A fresh race with the locks off, up to five times until `lost` (`untilRaceLost`). */
    const unlocked = <T>(run: () => Promise<T>, lost: (result: T) => boolean) =>
      untilRaceLost(async () => {
        await race?.close();
        race = await startRace();
        refundLocks.enabled = false;
        return run();
      }, lost);

    it('20 requests without the lock, the pending check and the one-pending index make more than one', async () => {
      const { codes, pending } = await unlocked(
        async () => {
          await rows(`drop index refund_requests_pending_uq`);
          return twentyRequests();
        },
        (r) => r.pending > 1,
      );
      expect(codes.filter((c) => c === 201).length).toBeGreaterThan(1);
      expect(pending).toBeGreaterThan(1);
    });

    it('approve and decline without the request lock: both win for some request', async () => {
      const { decisions } = await unlocked(
        () => approveAndDecline(10),
        (r) => r.decisions > 10,
      );
      expect(decisions).toBeGreaterThan(10);
    });

    it('a request and a gift without the ticket lock: both succeed', async () => {
      expect(
        await unlocked(
          () => requestAndGift(10),
          (n) => n > 0,
        ),
      ).toBeGreaterThan(0);
    });
  });
});
