/** My tickets listing (spec section 3, My-ticket item and Benefit). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helper.js';
import type { MyTicket } from '@tp/contract';

let t: TestApp;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  alice = (await t.signIn('alice@example.com')).accessToken;
  bob = (await t.signIn('bob@example.com')).accessToken;
});
afterAll(async () => {
  await t.close();
});

const list = async (token: string, status: string) =>
  t.app.inject({ url: `/v1/list/ticket_listing?status=${status}`, headers: bearer(token) });

describe('ticket listing', () => {
  it('UPCOMING holds live and future events, soonest first; PAST ended ones, latest first', async () => {
    const up: MyTicket[] = (await list(alice, 'UPCOMING')).json();
    const past: MyTicket[] = (await list(alice, 'PAST')).json();
    const now = t.clock.now().getTime();
    expect(up.length).toBe(5);
    expect(past.length).toBe(2);
    for (const x of up) expect(new Date(x.eventEndDateTime).getTime()).toBeGreaterThan(now);
    for (const x of past) expect(new Date(x.eventEndDateTime).getTime()).toBeLessThanOrEqual(now);
    const starts = up.map((x) => x.eventStartDateTime);
    expect([...starts].sort()).toEqual(starts);
    const pastStarts = past.map((x) => x.eventStartDateTime);
    expect([...pastStarts].sort().reverse()).toEqual(pastStarts);
  });

  it('marks the running event live and nothing else', async () => {
    const up: MyTicket[] = (await list(alice, 'UPCOMING')).json();
    expect(up.filter((x) => x.isLive).map((x) => x.eventName)).toEqual(['Harbour Lights Festival']);
    const past: MyTicket[] = (await list(alice, 'PAST')).json();
    expect(past.some((x) => x.isLive)).toBe(false);
  });

  it('moves an event to PAST once it ends', async () => {
    const app = await createTestApp({ seed: true });
    try {
      app.clock.advance(7 * 3600_000);
      const token = (await app.signIn('alice@example.com')).accessToken;
      const up: MyTicket[] = (
        await app.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(token) })
      ).json();
      expect(up.map((x) => x.eventName)).not.toContain('Harbour Lights Festival');
    } finally {
      await app.close();
    }
  });

  it('returns every field of the My-ticket item with counts of event access and benefits', async () => {
    const up: MyTicket[] = (await list(alice, 'UPCOMING')).json();
    const live = up.find((x) => x.isLive)!;
    expect(live).toMatchObject({
      eventCity: 'Sydney',
      eventVenue: 'Sydney Opera House Forecourt',
      ticketName: 'General Admission',
      eventAccessStatus: 'USED',
      // Event access used: no move is allowed any more (spec section 6, db/predicates.ts).
      isGiftable: false,
      isResellable: false,
      isSwappable: false,
      eventTimeZone: 'Australia/Sydney',
    });
    expect(live.eventAccessUsedOn).not.toBeNull();
    // event access (used) + drink voucher (used)
    expect([live.totalBenefitUsedCount, live.totalBenefitCount]).toEqual([2, 2]);
    const vip = up.find((x) => x.eventName === 'Laneway Sessions' && x.ticketName === 'VIP')!;
    expect([vip.totalBenefitUsedCount, vip.totalBenefitCount]).toEqual([0, 4]);
    const digital = vip.benefits.find((b) => b.type === 'benefits.digital')!;
    expect(digital).toMatchObject({ isUnlockable: true, redeemCode: null, purchasedAmount: 1, usedAmount: 0 });
    for (const key of [
      'ticketLogo',
      'eventLatitude',
      'eventLongitude',
      'eventAddress1',
      'eventDescription',
      'ticketDescription',
      'eventLogo',
      'eventImage',
    ]) {
      expect(live).toHaveProperty(key);
    }
  });

  it('counts only benefits with purchasedAmount above 0', async () => {
    const app = await createTestApp({ seed: true });
    try {
      const token = (await app.signIn('bob@example.com')).accessToken;
      await app.database.db.execute('update user_ticket_benefits set purchased_amount = 0');
      const up: MyTicket[] = (
        await app.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(token) })
      ).json();
      for (const x of up) {
        expect(x.benefits).toEqual([]);
        expect(x.totalBenefitCount).toBe(1);
      }
    } finally {
      await app.close();
    }
  });

  it('shows each holder only their own tickets', async () => {
    const mine: MyTicket[] = (await list(bob, 'UPCOMING')).json();
    expect(mine.map((x) => x.eventName).sort()).toEqual(['Capital Beats', 'Laneway Sessions', 'River Nights']);
    const alices: MyTicket[] = (await list(alice, 'UPCOMING')).json();
    const one = await t.app.inject({ url: `/v1/list/ticket_listing/${alices[0].userTicketId}`, headers: bearer(bob) });
    expect(one.statusCode).toBe(404);
    expect(one.json()).toEqual({ message: 'api.ticket.not_found' });
  });

  it('returns one ticket by id', async () => {
    const alices: MyTicket[] = (await list(alice, 'UPCOMING')).json();
    const one = await t.app.inject({
      url: `/v1/list/ticket_listing/${alices[1].userTicketId}`,
      headers: bearer(alice),
    });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(alices[1]);
  });

  it('validates the status and the id', async () => {
    expect((await list(alice, 'SOON')).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/v1/list/ticket_listing', headers: bearer(alice) })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/v1/list/ticket_listing/abc', headers: bearer(alice) })).statusCode).toBe(400);
    expect(
      (await t.app.inject({ url: '/v1/list/ticket_listing/99999999999', headers: bearer(alice) })).statusCode,
    ).toBe(400);
    expect((await list('nope', 'UPCOMING')).statusCode).toBe(401);
  });
});
