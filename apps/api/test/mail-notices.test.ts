/**
 * Mails nobody heard about (issue 41, point 6): a holder whose ticket the organiser revokes is told, in their
 * language; a person added to an organisation's console gets an invitation; how the last mail to a holder went is
 * kept and shown in the console's ticket list (GET /v1/org/tickets); a relay's permanent refusal (SMTP 5xx) is kept
 * as failed at once, never retried, and neither the log nor the job keeps the address.
 */
import type { Locale } from '@tp/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
let key: string;

beforeEach(async () => {
  t = await createTestApp({ logs: true, config: { adminKey: ADMIN } });
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { name: 'Aotearoa Sound', slug: 'aotearoa' },
  });
  expect(created.statusCode, created.body).toBe(201);
  key = created.json<{ apiKey: string }>().apiKey;
  const put = (url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: `/v1/org${url}`, headers: bearer(key), payload });
  const ev = await put('/events/evt-1', {
    name: 'Harbour Lights',
    startsAt: new Date(t.clock.now().getTime() + 20 * 86_400_000).toISOString(),
    endsAt: new Date(t.clock.now().getTime() + 20 * 86_400_000 + 4 * 3600_000).toISOString(),
    timeZone: 'Pacific/Auckland',
    venue: 'Shed 6',
    address: '1 Queens Wharf',
    city: 'Wellington',
    country: 'NZ',
  });
  expect(ev.statusCode, ev.body).toBeLessThan(300);
  const type = await put('/ticket-types/ga-1', {
    eventExternalId: 'evt-1',
    name: 'General admission',
    priceCents: 5000,
    currency: 'NZD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  });
  expect(type.statusCode, type.body).toBeLessThan(300);
});
afterEach(() => t.close());

const issue = (externalId: string, holderEmail: string, holderLanguage?: Locale) =>
  t.app.inject({
    method: 'PUT',
    url: `/v1/org/tickets/${externalId}`,
    headers: bearer(key),
    payload: { ticketTypeExternalId: 'ga-1', holderEmail, ...(holderLanguage ? { holderLanguage } : {}) },
  });
const mailsTo = (email: string) => t.mail.sent.filter((m) => m.to === email);
const listed = async (search: string) => {
  const r = await t.app.inject({ method: 'GET', url: `/v1/org/tickets?search=${search}`, headers: bearer(key) });
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ items: { externalId: string; holder: Record<string, unknown> | null }[] }>().items;
};

describe('mails nobody heard about (issue 41, point 6)', () => {
  it('a revoked holder is e-mailed in their language; revoking again mails nothing more', async () => {
    expect((await issue('T-1', 'rua@example.com', 'es')).statusCode).toBe(201);
    await t.app.services.jobs.runDue();
    const del = await t.app.inject({ method: 'DELETE', url: '/v1/org/tickets/T-1', headers: bearer(key) });
    expect(del.statusCode, del.body).toBe(204);
    await t.app.services.jobs.runDue();
    const revoked = mailsTo('rua@example.com').filter((m) => m.subject.includes('anulada'));
    expect(revoked).toHaveLength(1);
    expect(revoked[0].subject).toBe('Tu entrada para Harbour Lights ha sido anulada');
    expect(revoked[0].text).toContain('Aotearoa Sound ha anulado «General admission» para Harbour Lights.');
    expect(revoked[0].attachments ?? []).toEqual([]);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/v1/org/tickets/T-1', headers: bearer(key) })).statusCode,
    ).toBe(204);
    await t.app.services.jobs.runDue();
    expect(mailsTo('rua@example.com').filter((m) => m.subject.includes('anulada'))).toHaveLength(1);
  });

  it('a new console member gets an invitation naming the organisation, the role and the console', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/org/members',
      headers: bearer(key),
      payload: { email: 'kiri@example.com', role: 'staff' },
    });
    expect(r.statusCode, r.body).toBe(201);
    await t.app.services.jobs.runDue();
    const [invite] = mailsTo('kiri@example.com');
    expect(invite.subject).toBe('You were added to Aotearoa Sound in the organiser console');
    expect(invite.text).toContain('with the staff role');
    expect(invite.text).toContain(`${t.config.publicUrl}/console`);
  });

  it('a bounce (550) is kept as failed at once, shown beside the holder without the address in logs; a later delivery clears it', async () => {
    t.mail.failNext(1, 'gone@example.com', 550);
    expect((await issue('T-2', 'gone@example.com')).statusCode).toBe(201);
    await t.app.services.jobs.runDue();
    expect(mailsTo('gone@example.com')).toHaveLength(0);
    // Not retried: no "retrying" line, one "failed for good" with permanent, the job kept as failed after 1 attempt.
    expect(t.logs.filter((l) => l.msg === 'job failed, retrying')).toHaveLength(0);
    const failed = t.logs.filter((l) => l.msg === 'job failed for good');
    expect(failed).toHaveLength(1);
    // Which mail and whose (issue 41 point 8): the template and the user id; the relay's code, not its envelope.
    const gone = await rawQuery<{ id: number }>(t.database.db, `select id from users where email = 'gone@example.com'`);
    expect(failed[0]).toMatchObject({
      kind: 'mail',
      attempt: 1,
      willRetry: false,
      permanent: true,
      template: 'ticketIssued',
      recipientUserId: gone.rows[0].id,
      err: { code: 'EENVELOPE', responseCode: 550 },
    });
    expect(failed[0].err).not.toHaveProperty('rejected');
    expect(JSON.stringify(failed[0])).not.toContain('gone@example.com');
    const jobs = await rawQuery<{ attempts: number; failed: boolean; last_error: string }>(
      t.database.db,
      `select attempts, failed_at is not null as failed, last_error from jobs where kind = 'mail'`,
    );
    expect(jobs.rows).toHaveLength(1);
    expect(jobs.rows[0]).toMatchObject({ attempts: 1, failed: true });
    expect(jobs.rows[0].last_error).toContain('550 5.1.1');
    expect(jobs.rows[0].last_error).not.toContain('gone@example.com');
    // The operator's list names the mail's template and its recipient's user id, never the address (issue 41 point 8).
    const list = await t.app.inject({ method: 'GET', url: '/v1/admin/jobs/failed', headers: bearer(ADMIN) });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({
        kind: 'mail',
        template: 'ticketIssued',
        recipientUserId: gone.rows[0].id,
        attempts: 1,
      }),
    ]);
    expect(list.body).not.toContain('gone@example.com');
    t.clock.advance(3600_000);
    await t.app.services.jobs.runDue();
    expect(mailsTo('gone@example.com')).toHaveLength(0);

    const [row] = await listed('gone');
    expect(row.holder).toMatchObject({
      email: 'gone@example.com',
      emailStatus: 'bounced',
      emailStatusDetail: '550 5.1.1 <recipient>: Recipient address rejected: User unknown',
    });

    // The organiser re-sends once the holder fixed their mailbox: delivered, and the status says so.
    const resend = await t.app.inject({ method: 'POST', url: '/v1/org/tickets/T-2/resend', headers: bearer(key) });
    expect(resend.statusCode, resend.body).toBe(202);
    await t.app.services.jobs.runDue();
    expect(mailsTo('gone@example.com')).toHaveLength(1);
    expect((await listed('gone'))[0].holder).toMatchObject({ emailStatus: 'delivered', emailStatusDetail: null });
  });

  it('bulk mail (an event change, a reminder, a revocation) skips a bounced address; a delivered re-send brings it back', async () => {
    expect((await issue('T-4', 'ok@example.com')).statusCode).toBe(201);
    t.mail.failNext(1, 'gone@example.com', 550);
    expect((await issue('T-5', 'gone@example.com')).statusCode).toBe(201);
    await t.app.services.jobs.runDue();
    t.mail.failNext(1, 'dead@example.com', 550);
    expect((await issue('T-6', 'dead@example.com')).statusCode).toBe(201);
    await t.app.services.jobs.runDue();
    expect((await listed('gone'))[0].holder).toMatchObject({ emailStatus: 'bounced' });
    expect((await listed('dead'))[0].holder).toMatchObject({ emailStatus: 'bounced' });
    expect(mailsTo('ok@example.com')).toHaveLength(1);

    // The organiser moves the event: the holders are told, but not at an address that bounced.
    const startsAt = t.clock.now().getTime() + 20 * 86_400_000;
    const moved = await t.app.inject({
      method: 'PUT',
      url: '/v1/org/events/evt-1',
      headers: bearer(key),
      payload: {
        name: 'Harbour Lights',
        startsAt: new Date(startsAt).toISOString(),
        endsAt: new Date(startsAt + 4 * 3600_000).toISOString(),
        timeZone: 'Pacific/Auckland',
        venue: 'Shed 7',
        address: '1 Queens Wharf',
        city: 'Wellington',
        country: 'NZ',
      },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await t.app.services.jobs.runDue();
    expect(mailsTo('ok@example.com')).toHaveLength(2);
    expect(mailsTo('gone@example.com')).toHaveLength(0);
    expect(mailsTo('dead@example.com')).toHaveLength(0);

    // A revoked ticket's notice is not sent to a bounced address either.
    const del = await t.app.inject({ method: 'DELETE', url: '/v1/org/tickets/T-6', headers: bearer(key) });
    expect(del.statusCode, del.body).toBe(204);
    await t.app.services.jobs.runDue();
    expect(mailsTo('dead@example.com')).toHaveLength(0);

    // The reminder: the holder at a working address gets it, the bounced one does not.
    t.clock.advance(19.5 * 86_400_000);
    await t.app.services.housekeeping.remindOnce();
    await t.app.services.jobs.runDue();
    expect(mailsTo('ok@example.com')).toHaveLength(3);
    expect(mailsTo('gone@example.com')).toHaveLength(0);
    // Skipped, not failed: the only failed jobs are the two bounces, and no further failure was logged.
    const failed = await rawQuery<{ n: number }>(
      t.database.db,
      `select count(*)::int as n from jobs where failed_at is not null`,
    );
    expect(failed.rows[0].n).toBe(2);
    expect(t.logs.filter((l) => l.msg === 'job failed for good')).toHaveLength(2);

    // The organiser re-sends the ticket (mail they cause still tries): delivered, and the reminder follows.
    const resend = await t.app.inject({ method: 'POST', url: '/v1/org/tickets/T-5/resend', headers: bearer(key) });
    expect(resend.statusCode, resend.body).toBe(202);
    await t.app.services.jobs.runDue();
    expect(mailsTo('gone@example.com')).toHaveLength(1);
    await t.app.services.housekeeping.remindOnce();
    await t.app.services.jobs.runDue();
    expect(mailsTo('gone@example.com')).toHaveLength(2);
    expect(mailsTo('gone@example.com')[1].subject).toBe(mailsTo('ok@example.com')[2].subject);
  });

  it('a temporary failure (421) is retried and shows as failing until the retry goes', async () => {
    t.mail.failNext(1, 'slow@example.com');
    expect((await issue('T-3', 'slow@example.com')).statusCode).toBe(201);
    await t.app.services.jobs.runDue();
    expect((await listed('slow'))[0].holder).toMatchObject({
      emailStatus: 'failing',
      emailStatusDetail: 'smtp: 421 service not available',
    });
    t.clock.advance(40_000);
    await t.app.services.jobs.runDue();
    expect(mailsTo('slow@example.com')).toHaveLength(1);
    expect((await listed('slow'))[0].holder).toMatchObject({ emailStatus: 'delivered' });
  });
});
