/**
 * Issue 45: the exchange queue from the organiser's console to the fans' panels. The organiser turns the queue on
 * and releases tickets in the console; two fans who joined (through the API; the queue's public page is in the journey spec)
 * see their true positions on My tickets; the one offered a ticket declines it there, and the other's group is
 * offered once a second ticket is released and bought through the payment page; leaving a queue from the panel
 * removes the entry. Screenshots of the
 * panel's section and the console's queue page at 360 px, both themes and languages.
 */
import { expect, test } from './fixtures';
import { signInConsole } from './console-steps';
import { animationsDone, expectAccessible, freshEmail, openPanel, signInContext } from './support';
import { api, join, openQueuePage, queueEvent, releaseInConsole, turnOnInConsole } from './exchange-steps';

test('the organiser opens the queue and releases in the console; two fans see true places, decline, the group offered', async ({
  browser,
  page: consolePage,
}) => {
  const owner = freshEmail('xq-owner');
  const { slug } = await queueEvent('journey', owner, { off: true });
  await signInConsole(consolePage, owner);
  await openQueuePage(consolePage);
  await turnOnInConsole(consolePage);

  const first = await browser.newContext();
  const second = await browser.newContext();
  const firstTokens = await signInContext(first, freshEmail('xq-first'));
  const secondTokens = await signInContext(second, freshEmail('xq-second'));
  await join(slug, firstTokens.accessToken, 1);
  await join(slug, secondTokens.accessToken, 2);
  await consolePage.reload();
  await expect(consolePage.getByTestId('exchange-ga-waiting')).toHaveText('2');

  const firstPage = await first.newPage();
  const secondPage = await second.newPage();
  await openPanel(firstPage, 'PANEL_TAB=MY_TICKET');
  await openPanel(secondPage, 'PANEL_TAB=MY_TICKET');
  const firstQueue = firstPage.getByRole('region', { name: 'Waiting for tickets' });
  const secondQueue = secondPage.getByRole('region', { name: 'Waiting for tickets' });
  await expect(firstQueue).toContainText('Number 1 in the queue');
  await expect(secondQueue).toContainText('2 × General Admission');
  await expect(secondQueue).toContainText('Number 2 in the queue');

  // One ticket released: the first fan wants one and is offered it.
  await releaseInConsole(consolePage, 1, 1);
  await expect(consolePage.getByTestId('exchange-ga-offered')).toHaveText('1');
  await firstPage.reload();
  await expect(firstQueue).toContainText('Tickets held for you until');
  await firstQueue.getByRole('button', { name: 'Decline the offer' }).click();
  const dialog = firstPage.getByRole('dialog', { name: 'Decline the offer?' });
  await expect(dialog).toContainText('General Admission at Harbour Lights journey');
  await dialog.getByRole('button', { name: 'Decline the offer' }).click();
  await expect(firstPage.getByText('Offer declined')).toBeVisible();
  await expect(firstQueue).toBeHidden();

  // One more released: with the declined one, two are free together, and the second fan's group fits.
  await releaseInConsole(consolePage, 1, 1);
  await secondPage.reload();
  await expect(secondQueue).toContainText('Tickets held for you until');
  await consolePage.reload();
  await expect(consolePage.getByTestId('exchange-ga-released')).toHaveText('2');
  await expect(consolePage.getByTestId('exchange-ga-offered')).toHaveText('1');

  // The second fan buys: the offer's payment page (the sandbox's, in place of Stripe's), then back on My tickets with
  // both tickets theirs, and the console counts them sold.
  await secondQueue.getByRole('button', { name: 'Buy my tickets' }).click();
  await expect(secondPage).toHaveURL(/\/exchange\/checkout\/[0-9a-f-]{36}/);
  await expect(secondPage.locator('body')).toContainText('General Admission × 2');
  await secondPage.getByRole('button', { name: 'Pay' }).click();
  await expect(secondPage).toHaveURL(/PANEL_TAB=MY_TICKET/);
  await expect(secondPage.getByRole('button', { name: /^Harbour Lights journey, General Admission/ })).toHaveCount(2);
  await expect(secondQueue).toBeHidden();
  await consolePage.reload();
  await expect(consolePage.getByTestId('exchange-ga-sold')).toHaveText('2');
  await expect(consolePage.getByTestId('exchange-ga-offered')).toHaveText('0');

  // Leaving from the panel ends the entry (the first fan, back in the queue).
  await join(slug, firstTokens.accessToken, 1);
  await firstPage.reload();
  await expect(firstQueue).toContainText('Number 1 in the queue');
  await firstQueue.getByRole('button', { name: 'Leave the queue' }).click();
  await firstPage
    .getByRole('dialog', { name: 'Leave the queue?' })
    .getByRole('button', { name: 'Leave the queue' })
    .click();
  await expect(firstPage.getByText('You left the queue')).toBeVisible();
  await expect(firstQueue).toBeHidden();
  await first.close();
  await second.close();
});

for (const theme of ['light', 'dark'] as const) {
  for (const lang of ['en', 'es'] as const) {
    test(`queue places: axe and screenshots at 360 px, ${theme}, ${lang}`, async ({ browser }) => {
      const owner = freshEmail(`xq-owner-${theme}-${lang}`);
      const { slug, apiKey } = await queueEvent(`${theme}-${lang}`, owner);
      const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
      await context.addInitScript((th) => localStorage.setItem('tp.theme', th), theme);
      const other = await signInContext(await browser.newContext(), freshEmail('xq-other'));
      const tokens = await signInContext(context, freshEmail(`xq-${theme}-${lang}`));
      // The other fan's group of two does not fit one ticket: this fan, behind it, is offered it (with Buy).
      await join(slug, other.accessToken, 2);
      await join(slug, tokens.accessToken, 1);
      await api('/org/events/harbour/exchange/releases', 'POST', apiKey, {
        ticketTypeExternalId: 'ga',
        quantity: 1,
        priceCents: 5000,
      });
      const page = await context.newPage();
      await openPanel(page, 'PANEL_TAB=MY_TICKET', lang);
      const queue = page.getByRole('region', { name: lang === 'es' ? 'Esperando entradas' : 'Waiting for tickets' });
      await expect(queue).toContainText(
        lang === 'es' ? 'Entradas reservadas para ti hasta' : 'Tickets held for you until',
      );
      await expect(
        queue.getByRole('button', { name: lang === 'es' ? 'Comprar mis entradas' : 'Buy my tickets' }),
      ).toBeVisible();
      await page.screenshot({ path: `test-results/exchange/places-${lang}-${theme}-360.png`, fullPage: true });
      // The entry's three buttons wrap inside its card: nothing wider than the phone (a lost flex rule once put them
      // in one row past the screen's edge).
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await expectAccessible(page, `queue places ${theme} ${lang}`);
      await queue.getByRole('button', { name: lang === 'es' ? 'Salir de la cola' : 'Leave the queue' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await animationsDone(page);
      await page.screenshot({ path: `test-results/exchange/leave-${lang}-${theme}-360.png` });
      await signInConsole(page, owner, lang);
      await openQueuePage(page, lang);
      await expect(page.getByTestId('exchange-ga-waiting')).toHaveText('1');
      await page.screenshot({ path: `test-results/exchange/console-${lang}-${theme}-360.png`, fullPage: true });
      await expectAccessible(page, `console queue ${theme} ${lang}`);
      await context.close();
    });
  }
}
