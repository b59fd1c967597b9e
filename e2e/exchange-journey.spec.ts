/**
 * Issue 45's journey, through the real pages at each end: the organiser turns the exchange queue on in the console;
 * a fan joins (through the API: the public join page is not built yet); the holder, who cannot go, sells the ticket
 * to the queue from its ticket page in the panel; the fan's offer e-mail opens My tickets, where the fan buys through
 * the payment page (the sandbox's, in place of Stripe's); at the door (/scanner) the fan's QR admits the ticket and
 * the holder's is told it moved.
 */
import { expect, test } from './fixtures';
import { signInConsole } from './console-steps';
import { openDoor, qrImage, shownPass, wedgeScan } from './door-steps';
import { api, join, openQueuePage, queueEvent, turnOnInConsole } from './exchange-steps';
import { mailCount, waitForMail } from './mail';
import { freshEmail, openPanel, signInContext } from './support';

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

test('exchange journey: console → fan joins → holder returns in the panel → offer e-mail → checkout → the door admits the fan, not the holder', async ({
  browser,
  page: consolePage,
}) => {
  const owner = freshEmail('xj-owner');
  // The show is tonight: the queue is open until it starts, and the door has it.
  const { slug, apiKey } = await queueEvent('door', owner, true, 3 * 3_600_000);
  const eventName = 'Harbour Lights door';
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
  const fanTokens = await signInContext(fanContext, fanEmail);
  await join(slug, fanTokens.accessToken, 1);

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
  const before = mailCount();
  await section.getByRole('button', { name: 'Sell to the queue at face value' }).click();
  const confirm = holder.getByRole('dialog', { name: 'Sell to the queue?' });
  await confirm.getByRole('button', { name: 'Sell to the queue at face value' }).click();
  await expect(holder.getByText('Your ticket is in the exchange queue')).toBeVisible();
  // A fan's offer holds it at once: it cannot be taken back now.
  await expect(section).toContainText('Returned to the exchange queue');

  // The fan's offer e-mail opens My tickets, where the fan buys.
  const offerMail = await waitForMail(fanEmail, {
    after: before,
    match: (raw) => /^Subject: A ticket for Harbour Lights door is held for you/im.test(raw),
  });
  const fan = await fanContext.newPage();
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
  const verdict = doorPage.locator('#result .verdict');
  await openPanel(fan, 'PANEL_TAB=QR');
  await wedgeScan(doorPage, (await shownPass(await qrImage(fan))).code);
  await expect(verdict).toHaveText('ADMITTED');
  await expect(doorPage.locator('#result')).toContainText('General Admission');
  await openPanel(holder, 'PANEL_TAB=QR');
  await wedgeScan(doorPage, (await shownPass(await qrImage(holder))).code);
  await expect(verdict).toHaveText('TICKET MOVED');

  await fanContext.close();
  await holderContext.close();
  await doorContext.close();
});
