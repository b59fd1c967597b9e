/** Issue 13, item 4 (server side): past tickets cannot move, the spec's profile payload, swap cancel releases stock. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MyTicket, User } from '@tp/contract';
import { bearer, createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ seed: true });
});
afterEach(async () => {
  await t.close();
});

const DAY = 24 * 3600 * 1000;
const listOf = async (token: string, status: 'UPCOMING' | 'PAST') =>
  (await t.app.inject({ url: `/v1/list/ticket_listing?status=${status}`, headers: bearer(token) })).json<MyTicket[]>();
const post = (token: string, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(token), ...(payload ? { payload } : {}) });

describe('past tickets', () => {
  it('are marked neither giftable, resellable nor swappable, and gift, resale and swap refuse them', async () => {
    let alice = (await t.signIn('alice@example.com')).accessToken;
    const upcoming = (await listOf(alice, 'UPCOMING')).find(
      (x) => x.eventName === 'Laneway Sessions' && x.ticketName === 'General Admission',
    )!;
    expect(upcoming).toMatchObject({ isGiftable: true, isResellable: true, isSwappable: true });
    const [swapBase] = (await t.app.inject({ url: '/v1/ticket_swap/tickets', headers: bearer(alice) })).json<
      { id: number; userTicketIds: number[] }[]
    >();
    const [target] = (
      await t.app.inject({ url: `/v1/ticket_swap/tickets/${swapBase.id}`, headers: bearer(alice) })
    ).json<{ id: number }[]>();
    await post(alice, '/v1/resell/sandbox-onboarding', {
      country: 'AU',
      firstName: 'A',
      lastName: 'B',
      birthdate: '1990-01-02',
      bankAccount: '062-000 12345678',
    });

    // A year later every seeded event is over.
    t.clock.advance(400 * DAY);
    alice = (await t.signIn('alice@example.com')).accessToken;
    const past = (await listOf(alice, 'PAST')).find((x) => x.userTicketId === upcoming.userTicketId)!;
    expect(past).toMatchObject({ isGiftable: false, isResellable: false, isSwappable: false });
    expect((await listOf(alice, 'PAST')).every((x) => !x.isGiftable && !x.isResellable && !x.isSwappable)).toBe(true);

    const gift = await post(alice, '/v1/mobile/giftTicket', {
      userTicketId: upcoming.userTicketId,
      username: 'bob#7315',
    });
    expect(gift.json()).toEqual({ message: 'gift_tickets.cannot_be_gifted' });
    const resale = await post(alice, '/v1/resell', {
      userTicketId: upcoming.userTicketId,
      amountCount: 1,
      price: 50,
      currencyCode: 'AUD',
      currencySymbol: 'A$',
    });
    expect(resale.json()).toEqual({ message: 'api.resell.create.not_resellable' });
    const swap = await post(alice, '/v1/ticket_swap/start_swap', {
      baseTicketId: swapBase.id,
      swapPairId: target.id,
      swapQuantity: 1,
    });
    expect(swap.json()).toEqual({ message: 'api.swap.not_swappable' });
  });
});

describe('POST /auth/profile with the stored user merged with the change (spec section 7)', () => {
  it('applies the change and ignores read-only fields', async () => {
    const alice = (await t.signIn('alice@example.com')).accessToken;
    const stored = (await t.app.inject({ url: '/v1/auth/me', headers: bearer(alice) })).json<User>();
    const r = await post(alice, '/v1/auth/profile', {
      ...stored,
      givenName: 'Alicia',
      email: 'someone-else@example.com',
      preferredUsername: 'admin#1',
      uniqueID: '#1',
      picture: '/media/avatars/not-mine.webp',
      name: 'Changed Name',
    });
    expect(r.statusCode).toBe(200);
    const after = r.json<User>();
    expect(after).toMatchObject({
      givenName: 'Alicia',
      familyName: stored.familyName,
      email: 'alice@example.com',
      preferredUsername: stored.preferredUsername,
      uniqueID: stored.uniqueID,
      picture: stored.picture,
      nickname: stored.nickname,
    });
    expect((await t.app.inject({ url: '/v1/auth/me', headers: bearer(alice) })).json<User>()).toEqual(after);
  });

  it('null clears an optional field; unknown fields are refused', async () => {
    const alice = (await t.signIn('alice@example.com')).accessToken;
    await post(alice, '/v1/auth/profile', { phoneNumber: '+61 400 123 456' });
    const stored = (await t.app.inject({ url: '/v1/auth/me', headers: bearer(alice) })).json<User>();
    expect(stored.phoneNumber).toBe('+61400123456');
    const cleared = await post(alice, '/v1/auth/profile', { ...stored, phoneNumber: null, familyName: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json<User>()).toMatchObject({ phoneNumber: null, familyName: null, givenName: stored.givenName });
    const unknown = await post(alice, '/v1/auth/profile', { ...stored, isAdmin: true });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ message: 'api.invalid_request_body' });
    const nullNickname = await post(alice, '/v1/auth/profile', { nickname: null });
    expect(nullNickname.statusCode).toBe(400);
  });
});

describe('cancelling a swap checkout', () => {
  async function startSwap(token: string) {
    const bases = (await t.app.inject({ url: '/v1/ticket_swap/tickets', headers: bearer(token) })).json<
      { id: number; name: string; eventId: number }[]
    >();
    const ga = bases.find((x) => x.name === 'General Admission')!;
    const stock = async () =>
      (await t.app.inject({ url: `/v1/ticket_swap/tickets/${ga.id}`, headers: bearer(token) })).json<
        { id: number; quantity: number }[]
      >()[0];
    const before = await stock();
    const started = await post(token, '/v1/ticket_swap/start_swap', {
      baseTicketId: ga.id,
      swapPairId: before.id,
      swapQuantity: 1,
    });
    expect(started.statusCode).toBe(200);
    expect((await stock()).quantity).toBe(before.quantity - 1);
    return { ga, before, stock, orderIdentifier: started.json<{ orderIdentifier: string }>().orderIdentifier };
  }

  it('on the sandbox checkout releases the held stock at once and returns to the panel', async () => {
    const alice = (await t.signIn('alice@example.com')).accessToken;
    const { ga, before, stock, orderIdentifier } = await startSwap(alice);
    const back = encodeURIComponent('http://panel.test/es/?PANEL_TAB=SWAP');
    const url = `/checkout/es/laneway-sessions-${ga.eventId}/${orderIdentifier}?redirectDomain=${back}&origin=ticket_swap`;
    const page = await t.app.inject({ url });
    expect(page.body).toContain(`action="/checkout/es/laneway-sessions-${ga.eventId}/${orderIdentifier}/cancel?`);
    const cancelled = await t.app.inject({
      method: 'POST',
      url: url.replace(`/${orderIdentifier}?`, `/${orderIdentifier}/cancel?`),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toBe('http://panel.test/es/?PANEL_TAB=SWAP');
    expect((await stock()).quantity).toBe(before.quantity);
    expect((await post(alice, `/v1/ticket_swap/confirm_swap/${orderIdentifier}`)).json()).toEqual({
      message: 'api.swap.expired',
    });
  });

  it('through POST /ticket_swap/cancel_swap/{id}: only the owner, released at once', async () => {
    const alice = (await t.signIn('alice@example.com')).accessToken;
    const bob = (await t.signIn('bob@example.com')).accessToken;
    const { before, stock, orderIdentifier } = await startSwap(alice);
    const notMine = await post(bob, `/v1/ticket_swap/cancel_swap/${orderIdentifier}`);
    expect(notMine.statusCode).toBe(404);
    expect((await stock()).quantity).toBe(before.quantity - 1);
    const r = await post(alice, `/v1/ticket_swap/cancel_swap/${orderIdentifier}`);
    expect(r.statusCode).toBe(204);
    expect((await stock()).quantity).toBe(before.quantity);
  });
});
