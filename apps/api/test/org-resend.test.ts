/**
 * Re-sending the ticket e-mail from the console (issue 21): POST /v1/org/tickets/{externalId}/resend e-mails the
 * ticket's current holder (after a gift, the new one) the issue mail again, in their language; a revoked ticket
 * answers 409 `api.org.ticket_not_held` with its detail; an unknown one 404; after TICKET_RESENDS_PER_HOUR re-sends
 * of one ticket in an hour the next is 429 (another ticket is not held up).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { organisations } from '@tp/contract';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ config: { adminKey: ADMIN } });
});
afterEach(async () => {
  await t.close();
});

const drain = () => t.app.services.jobs.runDue();
const put = async (key: string, path: string, payload: object) => {
  const r = await t.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(key), payload });
  expect(r.statusCode, r.body).toBeLessThan(300);
};
const resend = (key: string, externalId: string) =>
  t.app.inject({ method: 'POST', url: `/v1/org/tickets/${externalId}/resend`, headers: bearer(key) });

describe('re-sending the ticket e-mail', () => {
  it('mails the current holder again, refuses a revoked ticket, and limits re-sends per ticket', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/organisations',
      headers: bearer(ADMIN),
      payload: { slug: 'acme', name: 'Acme Nights' },
    });
    const key = created.json<{ apiKey: string }>().apiKey;
    await put(key, 'events/e1', {
      name: 'Harbour Nights',
      venue: 'Pier 2',
      city: 'Sydney',
      country: 'AU',
      startsAt: new Date(t.clock.now().getTime() + 5 * 86_400_000).toISOString(),
      endsAt: new Date(t.clock.now().getTime() + 5 * 86_400_000 + 4 * 3600_000).toISOString(),
      timeZone: 'Australia/Sydney',
    });
    await put(key, 'ticket-types/ga', {
      eventExternalId: 'e1',
      name: 'General Admission',
      priceCents: 5000,
      currency: 'AUD',
      isGiftable: true,
      isResellable: true,
      isSwappable: false,
    });
    for (const n of [1, 2])
      await put(key, `tickets/t${n}`, { ticketTypeExternalId: 'ga', holderEmail: `h${n}@example.com` });
    await drain();

    // h1 gifts t1 to a friend who reads Spanish: the re-send goes to the friend, in Spanish.
    const { accessToken } = await t.signIn('h1@example.com');
    const { id } = (
      await rawQuery<{ id: number }>(t.database.db, `select id from user_tickets where external_id = 't1'`)
    ).rows[0];
    await t.signIn('amiga@example.com');
    await rawQuery(t.database.db, `update users set locale = 'es' where email = 'amiga@example.com'`);
    const gift = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: bearer(accessToken),
      payload: { userTicketId: Number(id), username: 'amiga@example.com' },
    });
    expect(gift.statusCode, gift.body).toBe(200);
    await drain();
    const before = t.mail.sent.length;
    const r = await resend(key, 't1');
    expect(r.statusCode, r.body).toBe(202);
    expect(r.json()).toEqual({ email: 'amiga@example.com' });
    await drain();
    const mails = t.mail.sent.slice(before);
    expect(mails.map((m) => m.to)).toEqual(['amiga@example.com']);
    expect(mails[0].text).toContain('Harbour Nights');
    expect(mails[0].subject).toMatch(/entrada/i);

    // Limited per ticket: the 4th re-send of t1 within the hour is 429; t2 still goes.
    for (let i = 1; i < organisations.TICKET_RESENDS_PER_HOUR; i++)
      expect((await resend(key, 't1')).statusCode).toBe(202);
    const limited = await resend(key, 't1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ message: 'api.too_many_requests', detail: expect.any(String) as string });
    expect((await resend(key, 't2')).statusCode).toBe(202);

    // A revoked ticket has no holder to e-mail; an unknown one is not found.
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/org/tickets/t2', headers: bearer(key) })).statusCode).toBe(
      204,
    );
    const revoked = await resend(key, 't2');
    expect(revoked.statusCode).toBe(409);
    expect(revoked.json()).toEqual({
      message: 'api.org.ticket_not_held',
      detail: expect.stringContaining('no holder to e-mail') as string,
    });
    expect((await resend(key, 'nope')).json()).toMatchObject({ message: 'api.org.ticket_not_found' });
  });
});
