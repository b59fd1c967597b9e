/**
 * Webhook fairness (issue 19, break 4): one organisation's slow or timing-out receiver, with a long backlog of
 * due deliveries, never delays another organisation's due delivery by more than 5 s; nor do 100 slow endpoints of
 * one organisation (issue 39, break 4: it waited 86 s behind them). The worker runs on its timer
 * (1 s ticks, 1 s attempt timeout) over a real receiver on 127.0.0.1 that answers after 1.5 s.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';
import {
  createOutboundDeliveryWorker,
  type OutboundDeliveryWorker,
} from '../src/modules/outbound-webhooks/delivery-worker.js';
import { enqueueOutboundEvent } from '../src/modules/outbound-webhooks/outbound-events.js';

/** A `ticket.issued` payload as the document describes it (payloads are checked as they are queued). */
const issued = (ticketExternalId: string, userTicketId: number) => ({
  ...{ ticketExternalId, eventExternalId: null, ticketTypeExternalId: null, userTicketId },
  ...{ holderEmail: 'holder@example.test', reissued: false },
});

const ADMIN = 'admin-key-for-tests';

/** A receiver on 127.0.0.1 answering `status` after `delayMs`; `got` holds each request's arrival (ms, wall clock). */
async function receiver(delayMs: number, status = 200) {
  const got: number[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      got.push(Date.now());
      const answer = setTimeout(() => res.writeHead(status).end('ok'), delayMs);
      res.on('close', () => clearTimeout(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let t: TestApp;
let receivers: Awaited<ReturnType<typeof receiver>>[] = [];
let w: OutboundDeliveryWorker | null = null;
beforeEach(async () => {
  t = await createTestApp({ seed: true, config: { adminKey: ADMIN, webhookWorkerIntervalSeconds: 0 } });
});
afterEach(async () => {
  await w?.stop();
  w = null;
  for (const r of receivers) await r.close();
  receivers = [];
  await t.close();
});

/** A new organisation with one endpoint subscribed to `ticket.issued` at `url`. @returns the organisation's id. */
async function organisationWithEndpoint(slug: string, url: string): Promise<number> {
  const made = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug, name: slug },
  });
  expect(made.statusCode, made.body).toBe(201);
  const key = made.json<{ apiKey: string }>().apiKey;
  const hook = await t.app.inject({
    method: 'POST',
    url: '/v1/org/webhooks',
    headers: bearer(key),
    payload: { url, events: ['ticket.issued'] },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  const [org] = (await rawQuery<{ id: number }>(t.database.db, `select id from organisations where slug = '${slug}'`))
    .rows;
  return Number(org.id);
}

/** The worker on its timer: 1 s ticks, 1 s attempt timeout, 20 rows a claim. */
const timedWorker = () =>
  createOutboundDeliveryWorker({
    database: t.database,
    now: t.clock.now,
    intervalSeconds: 1,
    batchSize: 20,
    timeoutSeconds: 1,
    maxAttempts: 16,
    allowLocalUrls: true,
    random: () => 0.5,
    log: () => {},
  });

describe('webhooks: fairness between organisations', () => {
  it("a slow organisation's 200-delivery backlog never delays another organisation's due delivery by more than 5 s", async () => {
    const slow = await receiver(1500);
    const fast = await receiver(0);
    receivers = [slow, fast];
    const orgA = await organisationWithEndpoint('slow-org', slow.url);
    const orgB = await organisationWithEndpoint('fast-org', fast.url);
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 200; i++)
        await enqueueOutboundEvent(tx, orgA, 'ticket.issued', issued(`A-${i}`, i + 1), t.clock.now());
    });
    w = timedWorker();
    w.start();
    // Organisation A's receiver is busy timing out when organisation B's delivery becomes due.
    const deadline = Date.now() + 5000;
    while (!slow.got.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(slow.got.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    const due = Date.now();
    await t.database.db.transaction((tx) =>
      enqueueOutboundEvent(tx, orgB, 'ticket.issued', issued('B-1', 100_001), t.clock.now()),
    );
    while (!fast.got.length && Date.now() < due + 8000) await new Promise((r) => setTimeout(r, 50));
    expect(fast.got, 'organisation B received nothing within 8 s').toHaveLength(1);
    const waitedMs = fast.got[0] - due;
    expect(waitedMs).toBeLessThan(5000);
    await w.stop();
    // Drained: nothing stays leased in flight after stop, A's attempts are recorded failures (timeouts) with
    // the usual backoff, and B's delivery is DELIVERED.
    const states = (
      await rawQuery<{ slug: string; status: string; n: number }>(
        t.database.db,
        `select o.slug, d.status, count(*)::int as n from webhook_deliveries d
           join webhook_endpoints e on e.id = d.endpoint_id join organisations o on o.id = e.organisation_id
          group by o.slug, d.status order by o.slug, d.status`,
      )
    ).rows.map((r) => ({ ...r, n: Number(r.n) }));
    expect(states).toContainEqual({ slug: 'fast-org', status: 'DELIVERED', n: 1 });
    const [timeouts] = (
      await rawQuery<{ n: number }>(
        t.database.db,
        `select count(*)::int as n from webhook_delivery_attempts where error = 'timeout'`,
      )
    ).rows;
    expect(Number(timeouts.n)).toBe(slow.got.length);
  }, 30_000);

  it("100 timing-out endpoints of one organisation (1,000 due deliveries) never delay another organisation's by more than 5 s", async () => {
    const slow = await receiver(1500);
    const fast = await receiver(0);
    receivers = [slow, fast];
    const orgA = await organisationWithEndpoint('many-org', `${slow.url}/0`);
    const orgB = await organisationWithEndpoint('fast-org', fast.url);
    // More endpoints than the API lets one organisation register: straight into the database.
    await rawQuery(
      t.database.db,
      `insert into webhook_endpoints (organisation_id, url, events, secret)
         select ${orgA}, '${slow.url}/' || i, '["ticket.issued"]'::jsonb, 'whsec_${Buffer.from('x'.repeat(24)).toString('base64')}'
           from generate_series(1, 99) as i`,
    );
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 10; i++)
        await enqueueOutboundEvent(tx, orgA, 'ticket.issued', issued(`A-${i}`, i + 1), t.clock.now());
    });
    w = timedWorker();
    w.start();
    // Organisation A's endpoints are timing out when organisation B's delivery becomes due.
    const deadline = Date.now() + 5000;
    while (slow.got.length < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    const due = Date.now();
    await t.database.db.transaction((tx) =>
      enqueueOutboundEvent(tx, orgB, 'ticket.issued', issued('B-1', 100_001), t.clock.now()),
    );
    while (!fast.got.length && Date.now() < due + 12_000) await new Promise((r) => setTimeout(r, 50));
    expect(fast.got, 'organisation B received nothing within 12 s').toHaveLength(1);
    const waitedMs = fast.got[0] - due;
    console.log(`webhook fairness: organisation B waited ${waitedMs} ms behind 100 timing-out endpoints`);
    // On an idle machine: ≤ one 1 s tick (86 s in issue 39 with the default 10 s timeout; 10 s here before the fix).
    expect(waitedMs, `organisation B waited ${waitedMs} ms`).toBeLessThan(5000);
    await w.stop();
  }, 40_000);

  it("another organisation's delivery queued behind 200 slowly failing ones (500 after 0.9 s) leaves within 5 s", async () => {
    const failing = await receiver(900, 500);
    const fast = await receiver(0);
    receivers = [failing, fast];
    const orgA = await organisationWithEndpoint('failing-org', failing.url);
    const orgB = await organisationWithEndpoint('fast-org', fast.url);
    // All due at the same instant, organisation B's last: the oldest-first claim of 20 would take A's only.
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 200; i++)
        await enqueueOutboundEvent(tx, orgA, 'ticket.issued', issued(`A-${i}`, i + 1), t.clock.now());
      await enqueueOutboundEvent(tx, orgB, 'ticket.issued', issued('B-1', 100_001), t.clock.now());
    });
    w = timedWorker();
    const started = Date.now();
    w.start();
    while (!fast.got.length && Date.now() < started + 9000) await new Promise((r) => setTimeout(r, 50));
    expect(fast.got, 'organisation B received nothing within 9 s').toHaveLength(1);
    // The first tick comes after 1 s; the claim it makes must already include B's delivery.
    expect(fast.got[0] - started).toBeLessThan(5000);
    await w.stop();
    const [failed] = (
      await rawQuery<{ n: number }>(
        t.database.db,
        `select count(*)::int as n from webhook_delivery_attempts where status_code = 500`,
      )
    ).rows;
    expect(Number(failed.n)).toBe(failing.got.length);
  }, 30_000);
});
