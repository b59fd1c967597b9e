/**
 * No lost or swallowed mail failures (decision 030): a mail that follows committed work (a gift, a paid resale
 * order) is a job of that work's transaction, so the request never fails for it; a failed send is logged (job id,
 * never the address) and retried after its backoff; when the attempts run out, the job is kept for the operator.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MyTicket } from '@tp/contract';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
let alice: string;
beforeEach(async () => {
  t = await createTestApp({ seed: true, logs: true, config: { adminKey: ADMIN, jobMaxAttempts: 3 } });
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
/** Moves the clock past the `n`-th retry's longest backoff (30 s × 2^(n−1) × 1.2) and runs what is due. */
const afterBackoff = async (n: number) => {
  t.clock.advance(36_000 * 2 ** (n - 1) + 1000);
  await t.app.services.jobs.runDue();
};

describe('mail failures', () => {
  it('a gift whose receiver mail fails still moves the ticket; the failure is logged and the mail retried', async () => {
    const tk = await aliceTicket('Aotearoa Sound');
    t.mail.failNext(1, 'bob@example.com');
    const r = await post('/v1/mobile/giftTicket', { userTicketId: tk.userTicketId, username: 'bob#7315' });
    expect(r.statusCode).toBe(200);
    expect((await t.app.services.gift.history(tk.userTicketId)).map((h) => h.kind)).toEqual(['ISSUE', 'GIFT']);
    expect(mailsTo('bob@example.com')).toHaveLength(0);
    const warned = t.logs.filter((l) => l.msg === 'job failed, retrying');
    expect(warned).toHaveLength(1);
    // Which mail and whose (issue 41, point 8): the template and the receiver's user id, never the address.
    const bob = await rawQuery<{ id: number }>(t.database.db, `select id from users where email = 'bob@example.com'`);
    expect(warned[0]).toMatchObject({
      level: 40,
      kind: 'mail',
      attempt: 1,
      willRetry: true,
      template: 'giftReceived',
      recipientUserId: bob.rows[0].id,
    });
    expect(warned[0].err?.message).toContain('smtp: 421');
    expect(JSON.stringify(warned[0])).not.toContain('bob@example.com');
    await afterBackoff(1);
    expect(mailsTo('bob@example.com')).toHaveLength(1);
    expect(t.logs.filter((l) => l.level >= 50)).toHaveLength(0);
  });

  it('retries the resale code mail after failed tries, then the PDF reaches the buyer', async () => {
    // The first round of both mails of the sale (the buyer's code, the seller's notice) fails.
    t.mail.failNext(2);
    const { paid } = await sellOne();
    expect(paid.statusCode).toBe(200);
    expect(mailsTo('buyer@example.com')).toHaveLength(0);
    await afterBackoff(1);
    const mails = mailsTo('buyer@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0].attachments?.[0]).toMatchObject({ contentType: 'application/pdf' });
    expect(mails[0].attachments?.[0].content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(mailsTo('alice@example.com').filter((m) => m.subject.startsWith('You sold'))).toHaveLength(1);
    expect(t.logs.filter((l) => l.level === 40 && l.msg === 'job failed, retrying')).toHaveLength(2);
    expect(t.logs.filter((l) => l.level >= 50)).toHaveLength(0);
  });

  it('when the attempts run out the mails are kept as failed for the operator; the order stays paid', async () => {
    t.mail.failNext(6);
    const { paid } = await sellOne();
    expect(paid.statusCode).toBe(200);
    expect(paid.body).toContain('data-testid="resale-code"');
    await afterBackoff(1);
    await afterBackoff(2);
    expect(mailsTo('buyer@example.com')).toHaveLength(0);
    const errors = t.logs.filter((l) => l.level >= 50);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ msg: 'job failed for good', kind: 'mail', attempt: 3, willRetry: false });
    const failed = await t.app.inject({ method: 'GET', url: '/v1/admin/jobs/failed', headers: bearer(ADMIN) });
    expect(failed.json()).toEqual([
      expect.objectContaining({ kind: 'mail', attempts: 3, lastError: 'smtp: 421 service not available' }),
      expect.objectContaining({ kind: 'mail', attempts: 3, lastError: 'smtp: 421 service not available' }),
    ]);
    // Which mails (issue 41 point 8): the buyer's code (no account: no user id) and the seller's notice (Alice's id).
    const alice = await rawQuery<{ id: number }>(
      t.database.db,
      `select id from users where email = 'alice@example.com'`,
    );
    expect(
      failed
        .json<{ template: string; recipientUserId: number | null }[]>()
        .map((j) => [j.template, j.recipientUserId])
        .sort(),
    ).toEqual([
      ['listingSold', alice.rows[0].id],
      ['resaleCode', null],
    ]);
    // The operator sends them again once the SMTP server is back.
    for (const job of failed.json<{ id: number }[]>()) {
      const retried = await t.app.inject({
        method: 'POST',
        url: `/v1/admin/jobs/${job.id}/retry`,
        headers: bearer(ADMIN),
      });
      expect(retried.statusCode).toBe(204);
    }
    expect(mailsTo('buyer@example.com')).toHaveLength(1);
  });
});
