/**
 * Organiser swap offers (issue 21 point 4): a ticket type's `stock` and `swapTargets` make an organiser's
 * `isSwappable` ticket swappable in the holder's swap flow; the organiser's price difference is what the holder
 * pays; the target's stock is decremented by each swap and never goes below zero under 20 parallel swaps.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
beforeEach(async () => {
  // Twenty sign-ins a minute apart: the first one's step-up (issue 47, its own test) must outlast the last.
  t = await createTestApp({
    config: { adminKey: ADMIN, accessTokenTtlSeconds: 3 * 3600, stepUpMaxAgeSeconds: 3 * 3600 },
  });
});
afterEach(async () => {
  await t.close();
});

const DAY = 86_400_000;
const iso = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
const put = (key: string, path: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(key), payload });
const type = (name: string, priceCents: number, extra: object = {}) => ({
  eventExternalId: 'evt-1',
  name,
  priceCents,
  currency: 'AUD',
  isGiftable: true,
  isResellable: true,
  isSwappable: true,
  ...extra,
});
const organiser = async () => {
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug: 'acme', name: 'Acme' },
  });
  const { apiKey } = r.json<{ apiKey: string }>();
  const ev = await put(apiKey, 'events/evt-1', {
    name: 'Harbour Lights',
    venue: 'The Domain',
    city: 'Sydney',
    country: 'AU',
    startsAt: iso(10 * DAY),
    endsAt: iso(10 * DAY + 8 * 3600_000),
    timeZone: 'Australia/Sydney',
  });
  expect(ev.statusCode, ev.body).toBe(201);
  expect((await put(apiKey, 'ticket-types/vip', type('VIP', 15000, { stock: 5 }))).statusCode).toBe(201);
  const ga = await put(
    apiKey,
    'ticket-types/ga',
    type('General Admission', 9000, { swapTargets: [{ ticketTypeExternalId: 'vip', priceDifferenceCents: 0 }] }),
  );
  expect(ga.statusCode, ga.body).toBe(201);
  return apiKey;
};
type SwapTicket = { id: number; name: string; price: number; quantity: number };
const stockOf = async (externalId: string) =>
  Number(
    (
      await rawQuery<{ stock: number }>(
        t.database.db,
        `select stock from ticket_types where external_id = '${externalId}'`,
      )
    ).rows[0].stock,
  );

describe('organiser swap offers', () => {
  it("a holder of an organiser's isSwappable ticket sees the swap option and swaps; stock goes down", async () => {
    const key = await organiser();
    expect(
      (await put(key, 'tickets/t1', { ticketTypeExternalId: 'ga', holderEmail: 'h@example.com' })).statusCode,
    ).toBe(201);
    const types = await t.app.inject({ url: '/v1/org/ticket-types?event=evt-1', headers: bearer(key) });
    expect(types.json<{ items: unknown[] }>().items).toMatchObject([
      { externalId: 'vip', stock: 5, swapTargets: [] },
      { externalId: 'ga', stock: 0, swapTargets: [{ ticketTypeExternalId: 'vip', priceDifferenceCents: 0 }] },
    ]);
    const { accessToken } = await t.signIn('h@example.com');
    const bases = (await t.app.inject({ url: '/v1/ticket_swap/tickets', headers: bearer(accessToken) })).json<
      SwapTicket[]
    >();
    expect(bases.map((b) => b.name)).toEqual(['General Admission']);
    const targets = (
      await t.app.inject({ url: `/v1/ticket_swap/tickets/${bases[0].id}`, headers: bearer(accessToken) })
    ).json<SwapTicket[]>();
    // The organiser's price difference (0) is what the holder sees: the target at the base's price.
    expect(targets).toMatchObject([{ name: 'VIP', quantity: 5, price: 90 }]);
    const start = await t.app.inject({
      method: 'POST',
      url: '/v1/ticket_swap/start_swap',
      headers: bearer(accessToken),
      payload: { baseTicketId: bases[0].id, swapPairId: targets[0].id, swapQuantity: 1 },
    });
    expect(start.statusCode, start.body).toBe(200);
    const { swapType, orderIdentifier } = start.json<{ swapType: string; orderIdentifier: string }>();
    expect(swapType).toBe('DOWNGRADE'); // no payment: the organiser set no difference to pay
    const done = await t.app.inject({
      method: 'POST',
      url: `/v1/ticket_swap/confirm_swap/${orderIdentifier}`,
      headers: bearer(accessToken),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await stockOf('vip')).toBe(4);
    const ticket = await t.app.inject({ url: '/v1/org/tickets/t1', headers: bearer(key) });
    expect(ticket.json()).toMatchObject({ ticketTypeExternalId: 'vip' });
    expect(ticket.json<{ history: { kind: string }[] }>().history.map((h) => h.kind)).toEqual(['issued', 'swapped']);
  });

  it('refuses a target of another event, itself, or unknown', async () => {
    const key = await organiser();
    expect(
      (await put(key, 'ticket-types/ga', type('GA', 9000, { swapTargets: [{ ticketTypeExternalId: 'ga' }] }))).json(),
    ).toMatchObject({
      message: 'api.org.swap_target_invalid',
    });
    expect(
      (await put(key, 'ticket-types/ga', type('GA', 9000, { swapTargets: [{ ticketTypeExternalId: 'nope' }] })))
        .statusCode,
    ).toBe(404);
    expect((await put(key, 'ticket-types/ga', type('GA', 9000, { stock: -1 }))).statusCode).toBe(400);
  });

  it('20 parallel swaps for a stock of 5: five succeed, the stock ends at 0, never below', async () => {
    const key = await organiser();
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++) {
      await put(key, `tickets/t${i}`, { ticketTypeExternalId: 'ga', holderEmail: `h${i}@example.com` });
      tokens.push((await t.signIn(`h${i}@example.com`)).accessToken);
    }
    const base = (await t.app.inject({ url: '/v1/ticket_swap/tickets', headers: bearer(tokens[0]) })).json<
      SwapTicket[]
    >()[0];
    const target = (await t.app.inject({ url: `/v1/ticket_swap/tickets/${base.id}`, headers: bearer(tokens[0]) })).json<
      SwapTicket[]
    >()[0];
    const outcomes = await Promise.all(
      tokens.map(async (token) => {
        const start = await t.app.inject({
          method: 'POST',
          url: '/v1/ticket_swap/start_swap',
          headers: bearer(token),
          payload: { baseTicketId: base.id, swapPairId: target.id, swapQuantity: 1 },
        });
        if (start.statusCode !== 200) return start.json<{ message: string }>().message;
        const id = start.json<{ orderIdentifier: string }>().orderIdentifier;
        const done = await t.app.inject({
          method: 'POST',
          url: `/v1/ticket_swap/confirm_swap/${id}`,
          headers: bearer(token),
        });
        return done.statusCode === 200 ? 'swapped' : done.json<{ message: string }>().message;
      }),
    );
    expect(outcomes.filter((o) => o === 'swapped')).toHaveLength(5);
    expect(outcomes.filter((o) => o !== 'swapped').every((o) => o === 'api.swap.out_of_stock')).toBe(true);
    expect(await stockOf('vip')).toBe(0);
    const vip = await rawQuery<{ n: string }>(
      t.database.db,
      `select count(*) as n from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id where tt.external_id = 'vip'`,
    );
    expect(Number(vip.rows[0].n)).toBe(5);
  });
});
