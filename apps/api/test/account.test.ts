/** Account rights of issue 13 (item 6): export, sign out of other devices, delete, seller sale e-mail, earnings. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import type { AccountExport, Earning, MyTicket, User } from '@tp/contract';
import { bearer, createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ seed: true });
});
afterEach(async () => {
  await t.close();
});

const get = (token: string, url: string) => t.app.inject({ url, headers: bearer(token) });
const post = (token: string | null, url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload });
const del = (token: string) => t.app.inject({ method: 'DELETE', url: '/v1/auth/account', headers: bearer(token) });
const rows = async <T>(query: string): Promise<T[]> => {
  const result = (await t.database.db.execute(sql.raw(query))) as { rows: T[] };
  return result.rows;
};

/** Lists alice's first available ticket at A$80 after the sandbox payout onboarding; returns the share link. */
async function listOne(token: string): Promise<{ shareLinkUrl: string; userTicketId: number }> {
  await post(token, '/v1/resell/sandbox-onboarding', {
    country: 'AU',
    firstName: 'A',
    lastName: 'B',
    birthdate: '1990-01-02',
    bankAccount: '062-000 12345678',
  });
  const [a] = (await get(token, '/v1/resell/tickets/available')).json<
    { userTicketId: number; currencyCode: string; currencySymbol: string }[]
  >();
  const r = await post(token, '/v1/resell', {
    userTicketId: a.userTicketId,
    amountCount: 1,
    price: 80,
    currencyCode: a.currencyCode,
    currencySymbol: a.currencySymbol,
  });
  return { shareLinkUrl: r.json<{ shareLinkUrl: string }>().shareLinkUrl, userTicketId: a.userTicketId };
}

/** Buys through the public pages (share link -> Buy -> sandbox checkout -> pay). */
async function buy(shareLinkUrl: string, email: string) {
  const started = await t.app.inject({
    method: 'POST',
    url: new URL(shareLinkUrl).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ quantity: '1', email, idempotencyKey: crypto.randomUUID() }).toString(),
  });
  expect(started.statusCode).toBe(303);
  const paid = await t.app.inject({
    method: 'POST',
    url: new URL(started.headers.location as string).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  expect(paid.statusCode).toBe(200);
}

describe('export my data', () => {
  it('returns profile, tickets, listings, orders, earnings and sign-ins as a JSON download', async () => {
    const other = await t.signIn('alice@example.com');
    const { accessToken } = await t.signIn('alice@example.com');
    await listOne(accessToken);
    const r = await get(accessToken, '/v1/auth/export');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = r.json<AccountExport>();
    expect(data.profile).toMatchObject({ email: 'alice@example.com', givenName: 'Alice' });
    const upcoming = (await get(accessToken, '/v1/list/ticket_listing?status=UPCOMING')).json<MyTicket[]>();
    const past = (await get(accessToken, '/v1/list/ticket_listing?status=PAST')).json<MyTicket[]>();
    expect(data.tickets.map((x) => x.userTicketId).sort()).toEqual(
      [...upcoming, ...past].map((x) => x.userTicketId).sort(),
    );
    expect(data.listings).toHaveLength(1);
    expect(data.sessions).toHaveLength(2);
    expect(data.sessions.filter((s) => s.current)).toHaveLength(1);
    expect(JSON.stringify(data)).not.toContain(other.refreshToken);
    expect((await t.app.inject({ url: '/v1/auth/export' })).statusCode).toBe(401);
  });

  it('lists the resale orders bought with the holder e-mail', async () => {
    const alice = (await t.signIn('alice@example.com')).accessToken;
    const { shareLinkUrl } = await listOne(alice);
    await buy(shareLinkUrl, 'bob@example.com');
    const bob = (await t.signIn('bob@example.com')).accessToken;
    const data = (await get(bob, '/v1/auth/export')).json<AccountExport>();
    expect(data.orders).toEqual([
      expect.objectContaining({ eventName: 'Laneway Sessions', quantity: 1, totalCents: 8800, status: 'PAID' }),
    ]);
  });
});

describe('sign out of other devices', () => {
  it('revokes every other sign-in; the current one keeps working', async () => {
    const phone = await t.signIn('alice@example.com');
    const laptop = await t.signIn('alice@example.com');
    const here = await t.signIn('alice@example.com');
    const r = await post(here.accessToken, '/v1/auth/logout-others');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ revoked: 2 });
    for (const s of [phone, laptop]) {
      expect((await get(s.accessToken, '/v1/auth/me')).statusCode).toBe(401);
      expect((await post(null, '/v1/auth/refresh', { refreshToken: s.refreshToken })).statusCode).toBe(401);
    }
    expect((await get(here.accessToken, '/v1/auth/me')).statusCode).toBe(200);
    expect((await post(null, '/v1/auth/refresh', { refreshToken: here.refreshToken })).statusCode).toBe(200);
  });
});

describe('delete my account', () => {
  it('is refused while tickets are upcoming, and first while a listing is live', async () => {
    const alice = (await t.signIn('alice@example.com')).accessToken;
    const upcoming = await del(alice);
    expect(upcoming.statusCode).toBe(409);
    expect(upcoming.json()).toEqual({ message: 'api.account.has_upcoming_tickets' });
    await listOne(alice);
    expect((await del(alice)).json()).toEqual({ message: 'api.account.has_listings' });
    expect((await get(alice, '/v1/auth/me')).json<User>().email).toBe('alice@example.com');
  });

  it('erases personal data and the avatar, keeps history anonymous, revokes every sign-in', async () => {
    const first = await t.signIn('dana@example.com');
    const { accessToken } = await t.signIn('dana@example.com');
    await post(accessToken, '/v1/auth/profile', {
      givenName: 'Dana',
      familyName: 'Scully',
      phoneNumber: '+61 400 111 222',
    });
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    const boundary = '----tpdel';
    const avatar = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/avatar',
      headers: { ...bearer(accessToken), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    const picture = avatar.json<User>().picture!;
    const file = join(t.config.dataDir, picture.replace(/^\//, ''));
    expect(existsSync(file)).toBe(true);
    // A past ticket in Dana's hands (history must survive the deletion).
    const [{ id: danaId }] = await rows<{ id: number }>(`select id from users where email = 'dana@example.com'`);
    const [past] = await rows<{ id: number }>(
      `select ut.id from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id
       join events e on e.id = tt.event_id where e.ends_at < now() limit 1`,
    );
    await rows(`update user_tickets set holder_id = ${danaId} where id = ${past.id}`);

    const r = await del(accessToken);
    expect(r.statusCode).toBe(204);
    const [row] = await rows<Record<string, unknown>>(`select * from users where id = ${danaId}`);
    expect(row).toMatchObject({
      email: `deleted-${danaId}@deleted.invalid`,
      given_name: null,
      family_name: null,
      phone_number: null,
      picture: null,
      nickname: `deleted${danaId}`,
    });
    expect(row.deleted_at).not.toBeNull();
    expect(JSON.stringify(row)).not.toMatch(/dana|scully|400111222/i);
    expect(existsSync(file)).toBe(false);
    expect((await rows<{ holder_id: number }>(`select holder_id from user_tickets where id = ${past.id}`))[0]).toEqual({
      holder_id: danaId,
    });
    for (const s of [first.accessToken, accessToken]) expect((await get(s, '/v1/auth/me')).statusCode).toBe(401);
    expect((await post(null, '/v1/auth/refresh', { refreshToken: first.refreshToken })).statusCode).toBe(401);
    // The e-mail is free again: signing in with it makes a new, empty account.
    const again = (await t.signIn('dana@example.com')).accessToken;
    const fresh = (await get(again, '/v1/auth/me')).json<User>();
    expect(fresh).toMatchObject({ email: 'dana@example.com', givenName: null, phoneNumber: null });
    expect((await get(again, '/v1/list/ticket_listing?status=PAST')).json()).toEqual([]);
    // Nobody finds or gifts to the deleted account by its old username.
    const bob = (await t.signIn('bob@example.com')).accessToken;
    expect((await get(bob, `/v1/mobile/users/?username=deleted${danaId}`)).json()).toEqual([]);
  });
});

describe('selling', () => {
  it('e-mails the seller in their language when a listing sells, and lists the earnings', async () => {
    const alice = (await t.signIn('alice@example.com')).accessToken;
    await post(alice, '/v1/auth/profile', { locale: 'es' });
    const { shareLinkUrl } = await listOne(alice);
    expect((await get(alice, '/v1/resell/earnings')).json()).toEqual([]);
    await buy(shareLinkUrl, 'carol@example.com');
    const mail = t.mail.sent.find((m) => m.to === 'alice@example.com' && !m.subject.includes('code'))!;
    expect(mail.subject).toBe('Has vendido una entrada para Laneway Sessions');
    expect(mail.text).toContain('80,00');
    expect(mail.text).toMatch(/\/es\/\?org=[a-z-]+&PANEL_TAB=SETTINGS&SETTINGS_TAB=ACCOUNT_VERIFICATION/);
    const earnings = (await get(alice, '/v1/resell/earnings')).json<Earning[]>();
    expect(earnings).toEqual([
      expect.objectContaining({
        name: 'Laneway Sessions · General Admission',
        quantity: 1,
        amountCents: 8000,
        currencyCode: 'AUD',
        currencySymbol: 'A$',
        payoutStatus: 'PENDING',
      }),
    ]);
    const bob = (await t.signIn('bob@example.com')).accessToken;
    expect((await get(bob, '/v1/resell/earnings')).json()).toEqual([]);
  });

  it('e-mails an English-speaking seller in English', async () => {
    const alice = (await t.signIn('alice@example.com')).accessToken;
    const { shareLinkUrl } = await listOne(alice);
    await buy(shareLinkUrl, 'carol@example.com');
    const mail = t.mail.sent.find((m) => m.to === 'alice@example.com' && !m.subject.includes('code'))!;
    expect(mail.subject).toBe('You sold a ticket for Laneway Sessions');
    expect(mail.text).toContain('$80.00');
  });
});
