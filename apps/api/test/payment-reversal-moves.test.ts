/**
 * Issue 46 "Payments that go back" (decision 044), tickets that moved after the payment went back or while it was
 * disputed: the organiser's revoke, a sale on. Through the sandbox's stand-in (`POST /v1/admin/sandbox/payment-events`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const HOUR = 3600_000;
const DAY = 24 * HOUR;
let t: TestApp;
let apiKey: string;
let h: string;

const SANDBOX_PAYOUT = {
  country: 'AU',
  firstName: 'A',
  lastName: 'B',
  birthdate: '1990-01-02',
  bankAccount: '062-000 12345678',
};
const call = (token: string | null, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
const iso = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
const sandboxEvent = async (payload: object) => {
  const r = await call(ADMIN, 'POST', '/v1/admin/sandbox/payment-events', payload);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ outcome: string }>().outcome;
};
const t1 = async () =>
  (
    await rawQuery<{ revoked: boolean; revoked_reason: string | null }>(
      t.database.db,
      `select revoked_at is not null as revoked, revoked_reason from user_tickets where external_id = 't1'`,
    )
  ).rows[0];

/** Organisation acme with event evt-1 (type ga, A$90, resellable) and ticket t1 of h, who may sell. */
beforeEach(async () => {
  t = await createTestApp({ config: { adminKey: ADMIN } });
  apiKey = (await call(ADMIN, 'POST', '/v1/admin/organisations', { slug: 'acme', name: 'Acme' })).json<{
    apiKey: string;
  }>().apiKey;
  const put = async (path: string, payload: object) => {
    const r = await call(apiKey, 'PUT', `/v1/org/${path}`, payload);
    expect(r.statusCode, r.body).toBeLessThan(300);
  };
  await put('events/evt-1', {
    name: 'Harbour Lights',
    venue: 'The Domain',
    city: 'Sydney',
    country: 'AU',
    startsAt: iso(10 * DAY),
    endsAt: iso(10 * DAY + 8 * HOUR),
    timeZone: 'Australia/Sydney',
  });
  await put('ticket-types/ga', {
    eventExternalId: 'evt-1',
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
    name: 'GA',
    priceCents: 9000,
  });
  await put('tickets/t1', { ticketTypeExternalId: 'ga', holderEmail: 'h@example.com' });
  h = (await t.signIn('h@example.com')).accessToken;
  expect((await call(h, 'POST', '/v1/resell/sandbox-onboarding', SANDBOX_PAYOUT)).statusCode).toBeLessThan(300);
});
afterEach(async () => {
  await t.close();
});

/** `seller` lists t1; `email` buys it through the sandbox checkout and redeems its code: the order id. */
async function sellT1(seller: string, email: string) {
  const [g] = (await call(seller, 'GET', '/v1/resell/tickets/available')).json<
    { userTicketId: number; currencyCode: string; currencySymbol: string }[]
  >();
  const listing = await call(seller, 'POST', '/v1/resell', {
    userTicketId: g.userTicketId,
    amountCount: 1,
    price: 90,
    currencyCode: g.currencyCode,
    currencySymbol: g.currencySymbol,
  });
  expect(listing.statusCode, listing.body).toBe(200);
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const started = await t.app.inject({
    method: 'POST',
    url: new URL(listing.json<{ shareLinkUrl: string }>().shareLinkUrl).pathname,
    headers: form,
    payload: new URLSearchParams({ quantity: '1', email, idempotencyKey: crypto.randomUUID() }).toString(),
  });
  const checkout = new URL(started.headers.location as string).pathname;
  const paid = await t.app.inject({ method: 'POST', url: checkout, headers: form, payload: '' });
  const code = /data-testid="resale-code">([^<]+)</.exec(paid.body)?.[1];
  const buyer = (await t.signIn(email)).accessToken;
  expect((await call(buyer, 'POST', `/v1/resell/redeem/${code}`, {})).statusCode).toBe(200);
  return { orderId: checkout.split('/').pop()!, buyer };
}

describe('tickets that moved while the payment was disputed', () => {
  it("the organiser's revoke of a disputed ticket stands when the dispute is won", async () => {
    const { orderId } = await sellT1(h, 'zed@example.com');
    expect(await sandboxEvent({ type: 'charge.dispute.created', orderId })).toBe('done');
    expect(await t1()).toEqual({ revoked: true, revoked_reason: 'disputed' });
    const revoked = await call(apiKey, 'DELETE', '/v1/org/tickets/t1');
    expect(revoked.statusCode).toBe(204);
    expect(await t1()).toEqual({ revoked: true, revoked_reason: null });
    expect(await sandboxEvent({ type: 'charge.dispute.closed', orderId, status: 'won' })).toBe('done');
    // Without the revoke taking over from the dispute: the won dispute makes it admit again (revoked false).
    expect(await t1()).toEqual({ revoked: true, revoked_reason: null });
    const audit = (await call(apiKey, 'GET', '/v1/org/audit-log?action=ticket.revoked')).json<{ items: unknown[] }>();
    expect(audit.items).toHaveLength(1);
    // Revoked again: nothing changes or is recorded.
    expect((await call(apiKey, 'DELETE', '/v1/org/tickets/t1')).statusCode).toBe(204);
    expect((await call(apiKey, 'GET', '/v1/org/audit-log?action=ticket.revoked')).json()).toMatchObject({
      items: [expect.anything()],
    });
  });
});
