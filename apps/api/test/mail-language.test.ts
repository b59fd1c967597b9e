/**
 * Issue 29: the language the holder uses travels with every request that can cause an e-mail. An account
 * begun in English that signs in from the Spanish panel gets every later mail in Spanish (code, gift
 * received, sold, bought); a gift from the Spanish panel to a new address makes a Spanish account.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Locale, MyTicket } from '@tp/contract';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ seed: true });
});
afterEach(async () => {
  await t.close();
});

/** What the Spanish panel sends: the code request with `locale: es`, every later call with Accept-Language: es. */
const ES = { 'accept-language': 'es' };
const EN = { 'accept-language': 'en' };

async function signInFrom(lang: Locale, email: string): Promise<string> {
  const r1 = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/signInOrRegisterAndSignIn',
    headers: { 'accept-language': lang },
    payload: { email, locale: lang },
  });
  expect(r1.statusCode).toBe(200);
  const r2 = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/verifyLoginRequest',
    headers: { 'accept-language': lang },
    payload: { email, session: r1.json<{ sessionId: string }>().sessionId, otp: t.mail.lastCodeFor(email) },
  });
  expect(r2.statusCode).toBe(200);
  t.clock.advance(61_000);
  return r2.json<{ accessToken: string }>().accessToken;
}

const lastMailTo = (email: string) => [...t.mail.sent].reverse().find((m) => m.to === email)!;
const listOf = async (token: string): Promise<MyTicket[]> =>
  (await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(token) })).json();

async function onboard(token: string) {
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/resell/sandbox-onboarding',
    headers: { ...bearer(token), ...EN },
    payload: { country: 'AU', firstName: 'A', lastName: 'B', birthdate: '1990-01-02', bankAccount: '062-000 12345678' },
  });
  expect(r.statusCode).toBeLessThan(300);
}

/** Lists one ticket of `token`'s holder and returns the share link's path. */
async function listOne(token: string, headers: Record<string, string>): Promise<string> {
  const [a] = (await t.app.inject({ url: '/v1/resell/tickets/available', headers: bearer(token) })).json<
    { userTicketId: number; currencyCode: string; currencySymbol: string }[]
  >();
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/resell',
    headers: { ...bearer(token), ...headers },
    payload: {
      userTicketId: a.userTicketId,
      amountCount: 1,
      price: 80,
      currencyCode: a.currencyCode,
      currencySymbol: 'A$',
    },
  });
  expect(r.statusCode).toBe(200);
  return new URL(r.json<{ shareLinkUrl: string }>().shareLinkUrl).pathname;
}

/** Buys one ticket of a listing on its public page in `lang` and pays in the sandbox. */
async function buy(path: string, email: string, lang: Locale) {
  const started = await t.app.inject({
    method: 'POST',
    url: `${path}?lang=${lang}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ quantity: '1', email, idempotencyKey: crypto.randomUUID() }).toString(),
  });
  expect(started.statusCode).toBe(303);
  const checkoutPath = new URL(started.headers.location as string).pathname;
  const paid = await t.app.inject({
    method: 'POST',
    url: checkoutPath,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  expect(paid.statusCode).toBe(200);
}

describe('the language of the panel in use reaches every e-mail (issue 29)', () => {
  it('an account begun in English that asks from /es/ gets the code, gift, sold and bought mails in Spanish', async () => {
    // Alice's account began in English (seeded locale en).
    const me0 = await t.signIn('alice@example.com');
    expect((await t.app.inject({ url: '/v1/auth/me', headers: bearer(me0.accessToken) })).json()).toMatchObject({
      locale: 'en',
    });

    // Code: she asks from the Spanish panel.
    const alice = await signInFrom('es', 'alice@example.com');
    const code = lastMailTo('alice@example.com');
    expect(code.subject).toMatch(/^\d{6} es tu código para iniciar sesión en Ticket Panel$/);
    // Signing in from /es/ makes the account Spanish.
    expect((await t.app.inject({ url: '/v1/auth/me', headers: bearer(alice) })).json()).toMatchObject({ locale: 'es' });

    // Gift received: Bob (English panel) gifts her a ticket.
    const bob = await signInFrom('en', 'bob@example.com');
    const [bobs] = await listOf(bob);
    const gifted = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: { ...bearer(bob), ...EN },
      payload: { userTicketId: bobs.userTicketId, username: 'alice#4821' },
    });
    expect(gifted.statusCode).toBe(200);
    const gift = lastMailTo('alice@example.com');
    expect(gift.subject).toMatch(/te ha regalado una entrada$/);
    expect(gift.text).toMatch(/\/es\/\?org=[a-z-]+&PANEL_TAB=MY_TICKET/);
    expect(gift.text).not.toContain('/en/');

    // Sold: she lists from the Spanish panel; an English buyer buys.
    await onboard(alice);
    const hers = await listOne(alice, ES);
    await buy(hers, 'buyer@example.com', 'en');
    const sold = lastMailTo('alice@example.com');
    expect(sold.subject).toMatch(/^Has vendido una entrada para /);
    expect(sold.text).toMatch(/Recibirás 80,00\u00a0(AUD|NZD) en tu cuenta de cobros\./);
    expect(sold.text).toMatch(/\/es\/\?org=[a-z-]+&PANEL_TAB=SETTINGS/);
    expect(lastMailTo('buyer@example.com').subject).toMatch(/^Your tickets for /);

    // Bought: she buys Bob's listing from the Spanish listing page.
    await onboard(bob);
    const his = await listOne(bob, EN);
    await buy(his, 'alice@example.com', 'es');
    const bought = lastMailTo('alice@example.com');
    expect(bought.subject).toMatch(/^Tus entradas para /);
    expect(bought.text).toMatch(/\/es\/\?org=[a-z-]+&PANEL_TAB=REDEEM/);
    expect(bought.attachments?.[0].filename).toBe('codigo-de-entradas.pdf');
  });

  it('switching the panel to Spanish (POST /auth/profile {locale}) makes the seller mail Spanish', async () => {
    const alice = await signInFrom('en', 'alice@example.com');
    const switched = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/profile',
      headers: { ...bearer(alice), ...ES },
      payload: { locale: 'es' },
    });
    expect(switched.statusCode).toBe(200);
    await onboard(alice);
    await buy(await listOne(alice, ES), 'buyer@example.com', 'en');
    expect(lastMailTo('alice@example.com').subject).toMatch(/^Has vendido /);
  });

  it('a gift from the Spanish panel to a new address makes a Spanish account and a Spanish mail', async () => {
    const alice = await signInFrom('en', 'alice@example.com'); // her account stays English
    const tk = (await listOf(alice)).find((x) => x.eventName === 'Aotearoa Sound')!;
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: { ...bearer(alice), ...ES },
      payload: { userTicketId: tk.userTicketId, username: 'nueva@example.com' },
    });
    expect(r.statusCode).toBe(200);
    const mail = lastMailTo('nueva@example.com');
    expect(mail.subject).toMatch(/te ha regalado una entrada$/);
    expect(mail.text).toMatch(/\/es\/\?org=[a-z-]+&PANEL_TAB=MY_TICKET/);
    const { rows } = await rawQuery<{ locale: string }>(
      t.database.db,
      `select locale from users where email = 'nueva@example.com'`,
    );
    expect(rows).toEqual([{ locale: 'es' }]);
  });
});
