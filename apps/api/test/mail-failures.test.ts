/**
 * No swallowed mail failures: a mail that follows committed work (a gift, a paid resale order) never fails the
 * request, and its failure is logged; the resale code mail is retried first (3 tries).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MyTicket } from '@tp/contract';
import { bearer, createTestApp, type TestApp } from './helper.js';

let t: TestApp;
let alice: string;
beforeEach(async () => {
  t = await createTestApp({ seed: true, logs: true });
  alice = (await t.signIn('alice@example.com')).accessToken;
});
afterEach(async () => {
  await t.close();
});

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: bearer(alice), payload });
const form = (url: string, fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
const aliceTicket = async (eventName: string) => {
  const r = await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(alice) });
  return r.json<MyTicket[]>().find((x) => x.eventName === eventName)!;
};

/** Alice lists one Aotearoa Sound ticket; a buyer pays for it through the sandbox checkout. */
async function sellOne() {
  await post('/v1/resell/sandbox-onboarding', {
    country: 'AU',
    firstName: 'A',
    lastName: 'B',
    birthdate: '1990-01-02',
    bankAccount: '062-000 12345678',
  });
  const tk = await aliceTicket('Aotearoa Sound');
  const listed = await post('/v1/resell', {
    userTicketId: tk.userTicketId,
    amountCount: 1,
    price: 50,
    currencyCode: 'NZD',
    currencySymbol: 'NZ$',
  });
  expect(listed.statusCode).toBe(200);
  const started = await form(new URL(listed.json<{ shareLinkUrl: string }>().shareLinkUrl).pathname, {
    quantity: '1',
    email: 'buyer@example.com',
    idempotencyKey: crypto.randomUUID(),
  });
  expect(started.statusCode).toBe(303);
  const checkout = new URL(started.headers.location as string).pathname;
  const paid = await form(checkout, {});
  return { paid, orderId: checkout.split('/').pop()! };
}

const mailsTo = (email: string) => t.mail.sent.filter((m) => m.to === email);

describe('mail failures', () => {
  it('a gift whose receiver mail fails still moves the ticket, and the failure is logged', async () => {
    const tk = await aliceTicket('Aotearoa Sound');
    t.mail.failNext(1);
    const r = await post('/v1/mobile/giftTicket', { userTicketId: tk.userTicketId, username: 'bob#7315' });
    expect(r.statusCode).toBe(200);
    expect(await t.app.services.gift.history(tk.userTicketId)).toHaveLength(1);
    expect(mailsTo('bob@example.com')).toHaveLength(0);
    const errors = t.logs.filter((l) => l.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: 'mail not sent', userTicketId: tk.userTicketId, attempt: 1 });
    expect(errors[0].err?.message).toContain('smtp: 421');
  });

  it('retries the resale code mail: two failed tries, then the PDF reaches the buyer', async () => {
    t.mail.failNext(2);
    const { paid } = await sellOne();
    expect(paid.statusCode).toBe(200);
    const mails = mailsTo('buyer@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0].attachments?.[0]).toMatchObject({ contentType: 'application/pdf' });
    expect(t.logs.filter((l) => l.level === 40 && l.msg === 'mail failed, retrying')).toHaveLength(2);
    expect(t.logs.filter((l) => l.level >= 50)).toHaveLength(0);
  });

  it('after three failed tries logs the failure with the order id; the order stays paid', async () => {
    t.mail.failNext(3);
    const { paid, orderId } = await sellOne();
    expect(paid.statusCode).toBe(200);
    expect(paid.body).toContain('data-testid="resale-code"');
    expect(mailsTo('buyer@example.com')).toHaveLength(0);
    const errors = t.logs.filter((l) => l.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: 'mail not sent', orderId, attempt: 3, attempts: 3 });
  });
});
