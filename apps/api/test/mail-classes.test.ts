/**
 * The mail classes (issue 44): sign-in codes first, then the mails a person waits for (a gift, a resale code, a
 * sale, a swap, an invitation), then bulk mails (imports, change notices, revocations, reminders). A claim takes
 * the highest class first, whatever was enqueued before it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobsRepository } from '../src/providers/jobs/jobs.repository.js';
import { enqueueMails, MAIL_JOB, type MailJobInput } from '../src/providers/mail/mail-jobs.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
});
afterAll(() => t?.close());

// Due after the app clock's now: the app's own mail worker leaves them to this test's claim.
const at = new Date('2036-06-01T10:00:00Z');
const ticket = {
  event: {
    name: 'Festival',
    startsAt: at,
    endsAt: at,
    timeZone: 'Europe/Madrid',
    venue: 'Park',
    address1: 'Main st 1',
    city: 'Madrid',
    latitude: null,
    longitude: null,
  },
  ticketName: 'General',
  calendarId: 'cal-1',
};
const common = { locale: 'en' as const, org: null };

it('a gift notice and a sign-in code asked after 300 bulk mails are claimed before them, the code first', async () => {
  const bulk: MailJobInput[] = Array.from({ length: 300 }, (_, i) => ({
    ...common,
    to: `holder${i}@example.com`,
    template: 'ticketIssued',
    params: { ticket, link: 'https://panel.example/', at },
  }));
  await enqueueMails(t.database.db, at, bulk);
  await enqueueMails(t.database.db, at, [
    { ...common, to: 'friend@example.org', template: 'giftReceived', params: { ticket, link: 'x', at, giver: 'Ana' } },
  ]);
  await enqueueMails(t.database.db, at, [
    { ...common, to: 'me@example.net', template: 'signInCode', params: { code: '123456', minutes: 5 } },
  ]);
  const claimed = await jobsRepository.claim(t.database.db, [MAIL_JOB], at, new Date(at.getTime() + 60_000), 3);
  expect(claimed.map((j) => (j.payload as { template: string }).template)).toEqual([
    'signInCode',
    'giftReceived',
    'ticketIssued',
  ]);
});
