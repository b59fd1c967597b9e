/**
 * Issue 46's cancel journey in Chromium, nothing mocked: an organiser signs in to the console, opens the event, runs
 * the dry run ("Check what it touches": the counts in words) and cancels with their words to the holders → the
 * holder's "event cancelled" e-mail reaches the sink in their language (Spanish) with those words and the calendar
 * entry withdrawn → the holder signs in to the panel through its pages and sees the cancelled state on My tickets,
 * the ticket page and the QR screen → door staff on /scanner read that phone's QR and the door refuses it: EVENT
 * CANCELLED. Screenshots of the console's box with the dry run's counts (en/es, light/dark, 360 px) in
 * test-results/event-cancel-journey/. Runs on PGlite and, in npm test, on PostgreSQL too (scripts/test.sh).
 */
import type { Locale } from '@tp/contract';
import { expect, test, type Page } from './fixtures';
import { createOrganisation, signInConsole } from './console-steps';
import { openDoor, showPassAtDoor } from './door-steps';
import { api } from './exchange-steps';
import { decoded, mailCount, mailsAfter, waitForMail } from './mail';
import { chooseTicket, priceAndList } from './resale-steps';
import {
  baseUrl,
  expectAccessible,
  freshEmail,
  openPanel,
  settled,
  signInContext,
  signInViaPanel,
  watchNetwork,
} from './support';

const tag = Date.now().toString(36);
/** A resale code as the checkout page shows it. */
const RESALE_CODE = /\b[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}\b/;
const REASON = 'The venue flooded. Acme refunds every ticket to your card within 14 days.';
const TEXTS = {
  en: {
    edit: 'Edit: Harbour Lights',
    action: 'Cancel event',
    reason: 'Your words to the holders (optional)',
    check: 'Check what it touches',
    yes: 'Cancel the event',
    counts: ['2 tickets stop admitting.', '2 holders are e-mailed.', '0 wallet passes'],
  },
  es: {
    edit: 'Editar: Harbour Lights',
    action: 'Cancelar evento',
    reason: 'Tu mensaje a los titulares (opcional)',
    check: 'Comprobar a qué afecta',
    yes: 'Cancelar el evento',
    counts: ['2 entradas dejan de dar acceso.', 'Se avisa por correo a 2 titulares.', '0 pases de cartera'],
  },
} as const;

/**
 * A fresh organisation (owner `owner`) with the event `harbour` (on today, in Sydney), a ticket each for `holder`
 * (Spanish) and another person, and a door key for the event; the door key.
 */
async function eventWithHolder(slug: string, owner: string, holder: string): Promise<string> {
  const key = await createOrganisation(slug, owner, 'Acme Events');
  const now = Date.now();
  await api('/org/events/harbour', 'PUT', key, {
    name: 'Harbour Lights',
    venue: 'The Pier',
    city: 'Sydney',
    country: 'AU',
    startsAt: new Date(now + 2 * 3_600_000).toISOString(),
    endsAt: new Date(now + 6 * 3_600_000).toISOString(),
    timeZone: 'Australia/Sydney',
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
  await api('/org/tickets/c-1', 'PUT', key, { ticketTypeExternalId: 'ga', holderEmail: holder, holderLanguage: 'es' });
  await api('/org/tickets/c-2', 'PUT', key, { ticketTypeExternalId: 'ga', holderEmail: freshEmail('cancel-other') });
  const door = await api('/org/door-keys', 'POST', key, { name: 'Main gate', eventExternalIds: ['harbour'] });
  return ((await door.json()) as { key: string }).key;
}

/** In the console: the event's form view, "Cancel event", the words, then the dry run; its counts on show. */
async function dryRun(page: Page, lang: Locale) {
  const x = TEXTS[lang];
  await page.getByRole('button', { name: x.edit }).click();
  await page.getByRole('button', { name: x.action }).click();
  const box = page.getByRole('alertdialog');
  await box.getByLabel(x.reason).fill(REASON);
  await box.getByRole('button', { name: x.check }).click();
  const counts = box.getByTestId('cancel-counts');
  for (const text of x.counts) await expect(counts).toContainText(text);
  return box;
}

/**
 * The organiser `owner` signs in to the console on a desktop window, runs the dry run and cancels the event with their
 * words; its answer is on show. The count of mails in the sink just before the cancel.
 */
async function cancelInConsole(page: Page, owner: string): Promise<number> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInConsole(page, owner);
  const box = await dryRun(page, 'en');
  const before = mailCount();
  await box.getByRole('button', { name: TEXTS.en.yes }).click();
  await expect(page.getByTestId('cancel-result')).toContainText('2 tickets no longer admit.');
  return before;
}

test.beforeEach(({ context }) => watchNetwork(context));

test('the organiser cancels in the console after the dry run; the holder is told, sees it, and the door refuses', async ({
  page,
  browser,
}) => {
  const owner = freshEmail('cancel-journey-owner');
  const holder = freshEmail('cancel-journey-holder');
  const doorKey = await eventWithHolder(`cancel-journey-${tag}`, owner, holder);

  // The organiser: the dry run first, then the cancel with their words.
  const before = await cancelInConsole(page, owner);
  await expect(page.getByTestId('event-cancelled')).toContainText('Cancelled on');
  await expect(page.getByTestId('event-cancelled')).toContainText(REASON);
  await expect(page.getByRole('button', { name: TEXTS.en.action })).toHaveCount(0);
  await page.getByRole('button', { name: 'Back' }).click();
  const card = page.locator('article', { has: page.getByRole('heading', { name: /Harbour Lights/ }) });
  await expect(card.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: TEXTS.en.edit })).toHaveCount(0);
  // A ticket of the cancelled event: its drawer offers no re-send of the "your ticket" mail (the server refuses it).
  await page.goto(new URL('/console/holders/c-1', page.url()).href);
  await expect(page.getByTestId('ticket-number')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Re-send ticket e-mail' })).toHaveCount(0);

  // The holder's e-mail: in Spanish, the organiser's words, the calendar entry withdrawn.
  const raw = await waitForMail(holder, {
    after: before,
    match: (r) => /^Subject: Harbour Lights se ha cancelado/im.test(r),
    timeoutMs: 30_000,
  });
  const text = decoded(raw);
  expect(text).toContain('Acme Events ha cancelado Harbour Lights.');
  expect(text).toContain(`Mensaje de Acme Events: ${REASON}`);
  // The calendar entry (base64): withdrawn.
  const ics = /filename=evento\.ics\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(raw)?.[1] ?? '';
  const calendar = Buffer.from(ics.replace(/\s/g, ''), 'base64').toString('utf8');
  expect(calendar).toContain('METHOD:CANCEL');
  expect(calendar).toContain('STATUS:CANCELLED');

  // The holder signs in through the panel's pages, on a phone, and sees the state on My tickets, the ticket and the QR.
  const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  watchNetwork(phoneContext);
  const phone = await phoneContext.newPage();
  await phone.goto(`${baseUrl()}/es/`);
  await signInViaPanel(phone, holder, { givenName: 'Lucía', familyName: 'Gómez' });
  await phone.goto(`${baseUrl()}/es/?PANEL_TAB=MY_TICKET`);
  const ticket = phone.getByRole('button', { name: /^Harbour Lights, General Admission/ });
  await expect(ticket.getByText('Cancelado', { exact: true })).toBeVisible();
  await ticket.click();
  const notice = phone.locator('section.ticket-cancelled');
  await expect(notice).toContainText(`Del organizador: ${REASON}`);
  await phone.goto(`${baseUrl()}/es/?PANEL_TAB=QR`);
  const admits = phone.getByRole('region', { name: 'A qué da acceso este pase' });
  await expect(admits.getByTestId('pass-cancelled')).toHaveText(
    'Este evento fue cancelado. Tu entrada ya no da acceso.',
  );

  // The door reads the phone's QR: refused with the reason.
  const doorContext = await browser.newContext({ viewport: { width: 400, height: 860 } });
  const door = await doorContext.newPage();
  await openDoor(door, doorKey, 'Harbour Lights');
  expect(await showPassAtDoor(door, phone)).toBe('EVENT CANCELLED');
  await doorContext.close();
  await phoneContext.close();
});

test("a resold ticket across the cancel: the buyer's payment goes back and they are told; the seller holds it, cancelled", async ({
  page,
  browser,
}) => {
  const owner = freshEmail('cancel-resale-owner');
  const seller = freshEmail('cancel-resale-seller');
  const buyerEmail = freshEmail('cancel-resale-buyer');
  await eventWithHolder(`cancel-resale-${tag}`, owner, seller);

  // The seller, payouts verified (the sandbox's form, set up here), lists the ticket on the panel's Resell screen.
  const sellerContext = await browser.newContext();
  watchNetwork(sellerContext);
  const { accessToken } = await signInContext(sellerContext, seller);
  const onboarded = await fetch(`${baseUrl()}/v1/resell/sandbox-onboarding`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({
      country: 'AU',
      firstName: 'Sam',
      lastName: 'Seller',
      birthdate: '1990-01-02',
      bankAccount: '062-000 12345678',
    }),
  });
  expect(onboarded.ok).toBe(true);
  const sellerPage = await sellerContext.newPage();
  await openPanel(sellerPage, 'PANEL_TAB=RESELL');
  await chooseTicket(sellerPage, /Harbour Lights · General Admission/);
  await priceAndList(sellerPage, '40', 'A$44.00');
  const shareLinkUrl = await sellerPage.getByRole('textbox', { name: 'Listing link' }).inputValue();

  // The buyer pays through the share link and the sandbox checkout, then signs in and redeems the code.
  const buyerContext = await browser.newContext();
  watchNetwork(buyerContext);
  const buyer = await buyerContext.newPage();
  await buyer.goto(shareLinkUrl);
  await buyer.getByLabel('Your e-mail').fill(buyerEmail);
  await buyer.getByRole('button', { name: 'Buy' }).click();
  await buyer.getByRole('button', { name: 'Pay with sandbox card' }).click();
  await expect(buyer.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  const code = (await buyer.getByText(RESALE_CODE).first().textContent())!.match(RESALE_CODE)![0];
  await openPanel(buyer, 'PANEL_TAB=LOGIN');
  await signInViaPanel(buyer, buyerEmail, { givenName: 'Rae', familyName: 'Buyer' });
  await openPanel(buyer, 'PANEL_TAB=REDEEM');
  await buyer.getByRole('textbox', { name: 'Secret code' }).fill(code);
  await buyer.getByRole('button', { name: 'Redeem' }).click();
  await expect(buyer.getByRole('region', { name: 'Ticket redeemed!' })).toBeVisible();

  // The organiser cancels in the console: the seller is not paid out yet, so the buyer's payment goes back.
  const before = await cancelInConsole(page, owner);

  // The buyer is told their payment was refunded, and the ticket has left their panel.
  const refunded = decoded(
    await waitForMail(buyerEmail, {
      after: before,
      match: (r) => /^Subject: Your payment for Harbour Lights was refunded/im.test(r),
      timeoutMs: 30_000,
    }),
  );
  expect(refunded).toContain('the ticket went back to whoever sold it');
  await openPanel(buyer, 'PANEL_TAB=MY_TICKET');
  await expect(buyer.getByText('No ticket available')).toBeVisible();
  await expect(buyer.getByRole('button', { name: /^Harbour Lights/ })).toHaveCount(0);

  // The seller holds it again, cancelled, and is told of the cancel with the organiser's words (once, in the
  // language of the panel they use, English).
  const told = decoded(
    await waitForMail(seller, {
      after: before,
      match: (r) => /^Subject: Harbour Lights is cancelled/im.test(r),
      timeoutMs: 30_000,
    }),
  );
  expect(told).toContain(REASON);
  await new Promise((r) => setTimeout(r, 2_000));
  const cancelMailsToSeller = mailsAfter(before).filter(
    (r) => r.toLowerCase().includes(seller.toLowerCase()) && /^Subject: Harbour Lights is cancelled/im.test(r),
  );
  expect(cancelMailsToSeller).toHaveLength(1);
  await openPanel(sellerPage, 'PANEL_TAB=MY_TICKET');
  const back = sellerPage.getByRole('button', { name: /^Harbour Lights, General Admission/ });
  await expect(back.getByText('Cancelled', { exact: true })).toBeVisible();
  await buyerContext.close();
  await sellerContext.close();
});

for (const lang of ['en', 'es'] as const)
  test(`the console's cancel box with the dry run's counts at 360 px, light and dark (${lang})`, async ({ page }) => {
    const owner = freshEmail(`cancel-shots-${lang}`);
    await eventWithHolder(`cancel-shots-${lang}-${tag}`, owner, freshEmail('cancel-shots-holder'));
    await page.setViewportSize({ width: 360, height: 780 });
    await signInConsole(page, owner, lang);
    const box = await dryRun(page, lang);
    await box.scrollIntoViewIfNeeded();
    await settled(page);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.screenshot({ path: `test-results/event-cancel-journey/box-${lang}-${theme}-360.png`, fullPage: true });
    }
    await expectAccessible(page, `cancel box ${lang} dark`);
    // Leaving the box cancels nothing.
    await box.getByRole('button', { name: lang === 'es' ? 'Cancelar' : 'Cancel', exact: true }).click();
    await expect(page.getByRole('button', { name: TEXTS[lang].action })).toBeVisible();
  });
