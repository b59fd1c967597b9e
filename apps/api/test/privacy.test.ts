/** Privacy rules of issue 13 (item 5): default nickname, username search, benefit codes across holders. */
import { afterEach, describe, expect, it } from 'vitest';
import type { Locale, MyTicket, User } from '@tp/contract';
import { bearer, createTestApp, type TestApp } from './helper.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const me = async (token: string): Promise<User> =>
  (await t.app.inject({ url: '/v1/auth/me', headers: bearer(token) })).json();
const search = (token: string, q: string) =>
  t.app.inject({ url: `/v1/mobile/users/?username=${encodeURIComponent(q)}`, headers: bearer(token) });
const listOf = async (token: string, status = 'UPCOMING'): Promise<MyTicket[]> =>
  (await t.app.inject({ url: `/v1/list/ticket_listing?status=${status}`, headers: bearer(token) })).json();

/** Signs in with the code flow, sending the panel's `locale` and/or an Accept-Language header. */
async function signInWith(email: string, opts: { locale?: Locale; acceptLanguage?: string }) {
  const r1 = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/signInOrRegisterAndSignIn',
    headers: opts.acceptLanguage ? { 'accept-language': opts.acceptLanguage } : {},
    payload: { email, ...(opts.locale ? { locale: opts.locale } : {}) },
  });
  const r2 = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/verifyLoginRequest',
    payload: { email, session: r1.json<{ sessionId: string }>().sessionId, otp: t.mail.lastCodeFor(email) },
  });
  t.clock.advance(61_000);
  return r2.json<{ accessToken: string }>().accessToken;
}

describe('a new account', () => {
  it('gets a neutral default nickname that does not reveal its e-mail address', async () => {
    t = await createTestApp();
    const u = await me((await t.signIn('zoe.private-name@example.com')).accessToken);
    expect(u.nickname).toBe('guest');
    expect(u.preferredUsername).toMatch(/^guest#\d{4,}$/);
    expect(JSON.stringify({ ...u, email: '' })).not.toMatch(/zoe|private/i);
  });

  it('takes the language of the sign-in: the panel locale, else Accept-Language', async () => {
    t = await createTestApp();
    const es = await me(await signInWith('ana@example.com', { locale: 'es' }));
    expect(es).toMatchObject({ locale: 'es', nickname: 'invitado' });
    const header = await me(await signInWith('luis@example.com', { acceptLanguage: 'es-AR,es;q=0.9,en;q=0.5' }));
    expect(header.locale).toBe('es');
    const both = await me(await signInWith('kim@example.com', { locale: 'en', acceptLanguage: 'es' }));
    expect(both.locale).toBe('en');
    expect((await me(await signInWith('max@example.com', {}))).locale).toBe('en');
  });
});

describe('username search', () => {
  it('needs at least 3 characters (shorter: an empty list)', async () => {
    t = await createTestApp({ seed: true });
    const alice = (await t.signIn('alice@example.com')).accessToken;
    await t.signIn('bob@example.com');
    expect((await search(alice, 'bo')).json()).toEqual([]);
    expect((await search(alice, 'b')).json()).toEqual([]);
    expect((await search(alice, 'bob')).json()).toEqual([{ username: 'bob#7315', picture: null }]);
  });

  it('lists only accounts whose owners have signed in at least once', async () => {
    t = await createTestApp({ seed: true });
    const alice = (await t.signIn('alice@example.com')).accessToken;
    // Bob is seeded but never signed in; a gift to a new e-mail creates an account nobody signed in to.
    expect((await search(alice, 'bob')).json()).toEqual([]);
    const tk = (await listOf(alice)).find((x) => x.eventName === 'Aotearoa Sound')!;
    const gift = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: bearer(alice),
      payload: { userTicketId: tk.userTicketId, username: 'newcomer@example.com' },
    });
    expect(gift.statusCode).toBe(200);
    expect((await search(alice, 'guest')).json()).toEqual([]);
    await t.signIn('bob@example.com');
    const newcomer = await me((await t.signIn('newcomer@example.com')).accessToken);
    expect((await search(alice, 'bob')).json()).toEqual([{ username: 'bob#7315', picture: null }]);
    expect((await search(alice, 'guest')).json()).toEqual([{ username: newcomer.preferredUsername, picture: null }]);
  });

  it('is rate-limited per account, whatever the token, not per token', async () => {
    t = await createTestApp({ seed: true, config: { userSearchesPerMinute: 3 } });
    const first = (await t.signIn('alice@example.com')).accessToken;
    const second = (await t.signIn('alice@example.com')).accessToken;
    const bob = (await t.signIn('bob@example.com')).accessToken;
    for (const token of [first, second, first]) expect((await search(token, 'bob')).statusCode).toBe(200);
    const limited = await search(second, 'bob');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ message: 'api.too_many_requests' });
    expect((await search(bob, 'ali')).statusCode).toBe(200);
  });
});

describe('a benefit code revealed by one holder', () => {
  it('shows as claimed (used, no code) to the next holder, who cannot unlock it again', async () => {
    t = await createTestApp({ seed: true });
    const alice = (await t.signIn('alice@example.com')).accessToken;
    const bob = (await t.signIn('bob@example.com')).accessToken;
    const vip = (await listOf(alice)).find((x) => x.eventName === 'Laneway Sessions' && x.ticketName === 'VIP')!;
    const digital = vip.benefits.find((b) => b.type === 'benefits.digital')!;
    expect(digital).toMatchObject({ usedAmount: 0, redeemCode: null });
    const unlock = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/mobile/unlock/${vip.userTicketId}`,
        headers: bearer(token),
        payload: { userTicketBenefitId: digital.userTicketBenefitId },
      });
    expect((await unlock(alice)).json()).toEqual({ redeemCode: 'SLL-MEL-MERCH20' });
    const gift = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: bearer(alice),
      payload: { userTicketId: vip.userTicketId, username: 'bob#7315' },
    });
    expect(gift.statusCode).toBe(200);
    const held = (await listOf(bob)).find((x) => x.userTicketId === vip.userTicketId)!;
    const claimed = held.benefits.find((b) => b.userTicketBenefitId === digital.userTicketBenefitId)!;
    expect(claimed.redeemCode).toBeNull();
    expect(claimed.usedAmount).toBe(claimed.purchasedAmount);
    expect(claimed.lastUsedDate).not.toBeNull();
    const again = await unlock(bob);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'api.unlock.already_claimed' });
  });
});
