/**
 * Issue 45's journey, through the real pages at each end: the organiser turns the exchange queue on in the console;
 * a fan joins on the queue's public page (one tap on My tickets, signed in); the holder, who cannot go, sells the ticket
 * to the queue from its ticket page in the panel; the fan's offer e-mail opens My tickets, where the fan buys through
 * the payment page (the sandbox's, in place of Stripe's); at the door (/scanner) the fan's QR admits the ticket and
 * the holder's is told it moved.
 */
import { expect, test, type Page } from './fixtures';
import { signInConsole } from './console-steps';
import { openDoor, showPassAtDoor } from './door-steps';
import { api, openQueuePage, queueEvent, turnOnInConsole } from './exchange-steps';
import { mailCount, waitForCode, waitForMail } from './mail';
import { baseUrl, expectAccessible, freshEmail, openPanel, signInContext } from './support';

/** On the queue's public page: Join for one General Admission, then confirm on My tickets (one tap, signed in). */
async function joinOnPage(fan: Page, slug: string) {
  await fan.goto(`${baseUrl()}/exchange/${slug}/harbour`);
  await expect(fan.getByRole('heading', { level: 1 })).toHaveText(EVENT);
  const ga = fan.getByRole('form', { name: 'General Admission' });
  await expect(ga).toContainText('A$50.00');
  await ga.getByRole('button', { name: 'Join the queue' }).click();
  const prompt = fan.getByRole('region', { name: 'Join the exchange queue?' });
  await expect(prompt).toContainText(`1 × General Admission for ${EVENT}, A$50.00 each at face value`);
  await prompt.getByRole('button', { name: 'Join the queue' }).click();
  await expect(fan.getByText("You're in the queue")).toBeVisible();
  await expect(prompt).toBeHidden();
}

/** The link to My tickets in a raw (quoted-printable) e-mail. */
function myTicketsLink(raw: string): string {
  const text = raw
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=')
    .replace(/&amp;/g, '&');
  const link = /https?:\/\/[^\s"<>]+PANEL_TAB=MY_TICKET[^\s"<>]*/.exec(text)?.[0];
  if (!link) throw new Error('no My tickets link in the mail');
  return link;
}

const EVENT = 'Harbour Lights door';

test('exchange journey: console → fan joins → holder returns in the panel → offer e-mail → checkout → the door admits the fan, not the holder', async ({
  browser,
  page: consolePage,
}) => {
  const owner = freshEmail('xj-owner');
  // The show is tonight: the queue is open until it starts, and the door has it.
  const { slug, apiKey } = await queueEvent('door', owner, { off: true, startsInMs: 3 * 3_600_000 });
  const eventName = EVENT;
  const holderEmail = freshEmail('xj-holder');
  await api('/org/tickets/xj-1', 'PUT', apiKey, { ticketTypeExternalId: 'ga', holderEmail });
  const door = await api('/org/door-keys', 'POST', apiKey, { name: 'Main gate', eventExternalIds: ['harbour'] });
  const { key: doorKey } = (await door.json()) as { key: string };

  // The organiser opens the queue in the console.
  await signInConsole(consolePage, owner);
  await openQueuePage(consolePage);
  await turnOnInConsole(consolePage);

  // A fan who missed the sale joins.
  const fanEmail = freshEmail('xj-fan');
  const fanContext = await browser.newContext();
  await signInContext(fanContext, fanEmail);
  const fan = await fanContext.newPage();
  await joinOnPage(fan, slug);
  await expect(fan.getByRole('region', { name: 'Waiting for tickets' })).toContainText('Number 1 in the queue');

  // The holder, who cannot go, has the payout account a sale needs, and sells the ticket to the queue from its page.
  const holderContext = await browser.newContext();
  const holderTokens = await signInContext(holderContext, holderEmail);
  await api('/resell/sandbox-onboarding', 'POST', holderTokens.accessToken, {
    country: 'AU',
    firstName: 'Hal',
    lastName: 'Holder',
    birthdate: '1990-01-02',
    bankAccount: '062-000 12345678',
  });
  const holder = await holderContext.newPage();
  await openPanel(holder, 'PANEL_TAB=MY_TICKET');
  await holder.getByRole('button', { name: new RegExp(`^${eventName}, General Admission`) }).click();
  const section = holder.getByTestId('exchange-return');
  await expect(section).toContainText('A$50.00');
  await section.screenshot({ path: 'test-results/exchange/ticket-page-return.png' });
  const before = mailCount();
  await section.getByRole('button', { name: 'Sell to the queue at face value' }).click();
  const confirm = holder.getByRole('dialog', { name: 'Sell to the queue?' });
  await confirm.screenshot({ path: 'test-results/exchange/ticket-page-return-confirm.png' });
  await confirm.getByRole('button', { name: 'Sell to the queue at face value' }).click();
  await expect(holder.getByText('Your ticket is in the exchange queue')).toBeVisible();
  // A fan's offer holds it at once: it cannot be taken back now.
  await expect(section).toContainText('Returned to the exchange queue');

  // The fan's offer e-mail opens My tickets, where the fan buys.
  const offerMail = await waitForMail(fanEmail, {
    after: before,
    match: (raw) => /^Subject: A ticket for Harbour Lights door is held for you/im.test(raw),
  });
  await fan.goto(myTicketsLink(offerMail));
  const queue = fan.getByRole('region', { name: 'Waiting for tickets' });
  await expect(queue).toContainText('Tickets held for you until');
  await queue.getByRole('button', { name: 'Buy my tickets' }).click();
  await expect(fan).toHaveURL(/\/exchange\/checkout\/[0-9a-f-]{36}/);
  await expect(fan.locator('body')).toContainText('A$50.00');
  await fan.getByRole('button', { name: 'Pay' }).click();
  await expect(fan).toHaveURL(/PANEL_TAB=MY_TICKET/);
  await expect(fan.getByRole('button', { name: new RegExp(`^${eventName}, General Admission`) })).toBeVisible();
  await waitForMail(holderEmail, {
    after: before,
    match: (raw) => /^Subject: You sold a ticket for Harbour Lights door/im.test(raw),
  });

  // At the door: the fan's pass admits the ticket; the holder's old pass is told it moved.
  const doorContext = await browser.newContext({ viewport: { width: 400, height: 860 } });
  const doorPage = await doorContext.newPage();
  await openDoor(doorPage, doorKey, eventName);
  await openPanel(fan, 'PANEL_TAB=QR');
  expect(await showPassAtDoor(doorPage, fan)).toBe('ADMITTED');
  await expect(doorPage.locator('#result')).toContainText('General Admission');
  await openPanel(holder, 'PANEL_TAB=QR');
  expect(await showPassAtDoor(doorPage, holder)).toBe('TICKET MOVED');

  await fanContext.close();
  await holderContext.close();
  await doorContext.close();
});

test('a fan who is not signed in joins from the queue page after signing in with the e-mail code', async ({ page }) => {
  const owner = freshEmail('xj-new-owner');
  const { slug } = await queueEvent('new', owner);
  await page.goto(`${baseUrl()}/exchange/${slug}/harbour?lang=es`);
  const ga = page.getByRole('form', { name: 'General Admission' });
  await ga.getByLabel('Entradas').selectOption('2');
  await ga.getByRole('button', { name: 'Unirme a la cola' }).click();
  // The panel asks for the e-mail first, keeping the wish to join.
  const email = freshEmail('xj-new-fan');
  const before = mailCount();
  await page.getByRole('textbox', { name: /correo/i }).fill(email);
  await page.getByRole('button', { name: /continuar/i }).click();
  await page.getByRole('textbox', { name: /código/i }).fill(await waitForCode(email, before));
  await page.getByRole('button', { name: /continuar/i }).click();
  await page.getByRole('textbox', { name: /^nombre/i }).fill('Nueva');
  await page.getByRole('textbox', { name: /apellido/i }).fill('Fan');
  await page.getByRole('button', { name: /continuar/i }).click();
  const prompt = page.getByRole('region', { name: '¿Unirte a la cola de intercambio?' });
  await expect(prompt).toContainText('2 × General Admission para Harbour Lights new');
  await prompt.getByRole('button', { name: 'Unirme a la cola' }).click();
  await expect(page.getByRole('region', { name: 'Esperando entradas' })).toContainText('Número 1 en la cola');
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the queue page: axe and a screenshot at 360 px, ${colorScheme}, en and es`, async ({ browser }) => {
    const { slug } = await queueEvent(`page-${colorScheme}`, freshEmail(`xj-page-${colorScheme}`));
    const context = await browser.newContext({ viewport: { width: 360, height: 780 }, colorScheme });
    const page = await context.newPage();
    for (const lang of ['en', 'es'] as const) {
      await page.goto(`${baseUrl()}/exchange/${slug}/harbour?lang=${lang}`);
      await expect(
        page.getByRole('button', { name: lang === 'es' ? 'Unirme a la cola' : 'Join the queue' }),
      ).toBeVisible();
      await page.screenshot({ path: `test-results/exchange/page-${lang}-${colorScheme}-360.png`, fullPage: true });
      await expectAccessible(page, `queue page ${colorScheme} ${lang}`);
    }
    await context.close();
  });
}
