/**
 * Issue 46's second journey in Chromium, nothing mocked: a new date with a refund request approved in the console.
 * The organiser sets the event's refund policy in the console ("If the date changes", with a deadline) and moves the
 * event's start by hours (a new date) → the holder's "New date" e-mail says they may ask for a refund until the
 * deadline → the holder signs in to the panel through its pages, sees the new date on the ticket page and asks for a
 * refund with a reason → the organiser finds the request under Refunds and approves it with their shop's reference →
 * the holder's e-mail says so, the ticket leaves their list, and the door refuses its pass. Screenshots of the ticket
 * page's refund section (en/es, light/dark, 360 px) in test-results/refund-journey/. Runs on PGlite and, in npm test,
 * on PostgreSQL too (scripts/test.sh).
 */
import type { Locale } from '@tp/contract';
import { expect, test, type Page } from './fixtures';
import { createOrganisation, signInConsole } from './console-steps';
import { api } from './exchange-steps';
import { decoded, mailCount, waitForMail } from './mail';
import { baseUrl, expectAccessible, freshEmail, settled, signInViaPanel, watchNetwork } from './support';

const tag = Date.now().toString(36);
const ZONE = 'Australia/Sydney';
const WHY = 'I cannot make the new date.';
const REFERENCE = 'SHOP-REFUND-4471';

/** The event `harbour` (in 20 days, 18:00–22:00 Sydney), a ticket type, and one ticket for each of `holders`. */
async function eventWithHolders(slug: string, owner: string, holders: string[]) {
  const key = await createOrganisation(slug, owner, 'Acme Events');
  const day = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  await api('/org/events/harbour', 'PUT', key, {
    name: 'Harbour Lights',
    venue: 'The Pier',
    city: 'Sydney',
    country: 'AU',
    startsAt: `${day}T18:00:00+10:00`,
    endsAt: `${day}T22:00:00+10:00`,
    timeZone: ZONE,
  });
  await api('/org/ticket-types/ga', 'PUT', key, {
    eventExternalId: 'harbour',
    name: 'General Admission',
    priceCents: 5000,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  });
  for (const [i, holderEmail] of holders.entries())
    await api(`/org/tickets/r-${i}`, 'PUT', key, { ticketTypeExternalId: 'ga', holderEmail });
  return { key, day };
}

/** The holder's phone: signed in through the panel's pages, on the ticket's page. */
async function openTicket(page: Page, holder: string, lang: Locale) {
  await page.goto(`${baseUrl()}/${lang}/`);
  await signInViaPanel(page, holder, { givenName: 'Ana', familyName: 'Pérez' });
  await page.goto(`${baseUrl()}/${lang}/?PANEL_TAB=MY_TICKET`);
  await page.getByRole('button', { name: /^Harbour Lights, General Admission/ }).click();
}

test.beforeEach(({ context }) => watchNetwork(context));

test('a new date: the holder asks for a refund in the panel and the organiser approves it in the console', async ({
  page,
  browser,
}) => {
  const owner = freshEmail('refund-journey-owner');
  const holder = freshEmail('refund-journey-holder');
  const { day } = await eventWithHolders(`refund-journey-${tag}`, owner, [holder]);

  // The organiser: the refund policy, then the new date (three hours later), in the console.
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInConsole(page, owner);
  await page.getByRole('button', { name: 'Edit: Harbour Lights' }).click();
  const policy = page.getByRole('form', { name: 'Refund policy' });
  await policy.getByLabel('Holders may ask').selectOption('on_reschedule');
  await policy.getByLabel('Deadline to ask').fill(`${day}T12:00`);
  await policy.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Refund policy saved.')).toBeVisible();
  await page.getByLabel("Starts (event's local time)").fill(`${day}T21:00`);
  await page.getByLabel("Ends (event's local time)").fill(`${day}T23:30`);
  await expect(page.getByRole('checkbox', { name: 'E-mail the holders about this change' })).toBeChecked();
  const before = mailCount();
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await expect(page.getByRole('button', { name: 'Edit: Harbour Lights' })).toBeVisible();

  // The holder's e-mail: a new date, and until when a refund may be asked for.
  const raw = await waitForMail(holder, {
    after: before,
    match: (r) => /^Subject: New date for Harbour Lights/im.test(r),
    timeoutMs: 30_000,
  });
  expect(decoded(raw)).toContain("Can't make the new date? You can ask for a refund in your account until");

  // The holder, on a phone: the new date on the ticket page, then "Ask for a refund" with a reason.
  const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  watchNetwork(phoneContext);
  const phone = await phoneContext.newPage();
  await openTicket(phone, holder, 'en');
  await expect(phone.getByText('This event has a new date.')).toBeVisible();
  const section = phone.getByRole('region', { name: 'Refund' });
  await section.getByRole('button', { name: 'Ask for a refund' }).click();
  const ask = phone.getByRole('dialog');
  await ask.getByLabel('Reason (optional)').fill(WHY);
  await ask.getByRole('button', { name: 'Ask for a refund' }).click();
  await expect(section).toContainText('Refund requested on');

  // The organiser: Refunds, the pending request with the holder's words, approved with the shop's reference.
  await page.getByRole('link', { name: 'Refunds' }).click();
  const table = page.getByRole('region', { name: 'Refund requests' });
  await expect(table).toContainText(WHY);
  await table.getByRole('button', { name: `Approve: ${holder}` }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByLabel('Your refund reference (optional)').fill(REFERENCE);
  const beforeApproval = mailCount();
  await confirm.getByRole('button', { name: 'Approve' }).click();
  await expect(table).not.toContainText(WHY);

  // The holder is told, with the reference; the ticket leaves their list.
  const approved = await waitForMail(holder, { after: beforeApproval, timeoutMs: 30_000 });
  expect(decoded(approved)).toContain(REFERENCE);
  await phone.goto(`${baseUrl()}/en/?PANEL_TAB=MY_TICKET`);
  await expect(phone.getByRole('button', { name: /^Harbour Lights, General Admission/ })).toHaveCount(0);
  await phoneContext.close();
});

for (const lang of ['en', 'es'] as const)
  test(`the ticket page's refund section after a new date at 360 px, light and dark (${lang})`, async ({ page }) => {
    const owner = freshEmail(`refund-shots-${lang}`);
    const holder = freshEmail(`refund-shots-holder-${lang}`);
    const { key, day } = await eventWithHolders(`refund-shots-${lang}-${tag}`, owner, [holder]);
    await api('/org/events/harbour/refund-policy', 'PUT', key, {
      mode: 'on_reschedule',
      deadline: `${day}T12:00:00+10:00`,
    });
    await api('/org/events/harbour', 'PUT', key, {
      name: 'Harbour Lights',
      venue: 'The Pier',
      city: 'Sydney',
      country: 'AU',
      startsAt: `${day}T21:00:00+10:00`,
      endsAt: `${day}T23:30:00+10:00`,
      timeZone: ZONE,
    });
    await page.setViewportSize({ width: 360, height: 780 });
    await openTicket(page, holder, lang);
    const section = page.getByRole('region', { name: lang === 'es' ? 'Reembolso' : 'Refund' });
    await section.scrollIntoViewIfNeeded();
    await settled(page);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.screenshot({ path: `test-results/refund-journey/ticket-${lang}-${theme}-360.png`, fullPage: true });
    }
    await expectAccessible(page, `refund section ${lang} dark`);
  });
