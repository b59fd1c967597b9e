/**
 * Issue 45: a fan's places in exchange queues on My tickets. The organiser turns the queue on and releases a ticket
 * through the org API; two fans who joined (through the API: the public join page is a later slice) see their true
 * positions in the panel; the one offered the ticket declines it there, and the other's panel then shows the offer;
 * leaving a queue from the panel removes the entry. Screenshots of the section at 360 px, both themes and languages.
 */
import { expect, test } from './fixtures';
import { animationsDone, baseUrl, freshEmail, openPanel, signInContext } from './support';

const tag = Date.now().toString(36);

async function api(path: string, method: string, key: string, body?: unknown) {
  const r = await fetch(`${baseUrl()}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(r.status, `${method} ${path}: ${await r.clone().text()}`).toBeLessThan(300);
  return r;
}

/** An organisation with a sold-out show next month and its exchange queue turned on. */
async function queueEvent(name: string) {
  const slug = `xq-${name}-${tag}`;
  const made = await api('/admin/organisations', 'POST', process.env.E2E_ADMIN_KEY!, { slug, name: `Queue ${name}` });
  const { apiKey } = (await made.json()) as { apiKey: string };
  const day = 86_400_000;
  await api('/org/events/harbour', 'PUT', apiKey, {
    name: `Harbour Lights ${name}`,
    venue: 'The Pier',
    city: 'Sydney',
    country: 'AU',
    startsAt: new Date(Date.now() + 30 * day).toISOString(),
    endsAt: new Date(Date.now() + 30 * day + 4 * 3_600_000).toISOString(),
    timeZone: 'Australia/Sydney',
  });
  await api('/org/ticket-types/ga', 'PUT', apiKey, {
    eventExternalId: 'harbour',
    name: 'General Admission',
    priceCents: 5000,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  });
  await api('/org/events/harbour/exchange', 'PUT', apiKey, {
    enabled: true,
    offerMinutes: 20,
    order: 'first_come',
    maxQuantity: 4,
  });
  return { slug, apiKey };
}

const join = (slug: string, accessToken: string, quantity: number) =>
  api(`/exchange/${slug}/harbour/entries`, 'POST', accessToken, { ticketTypeExternalId: 'ga', quantity });

test('two fans see their true places; the one offered declines in the panel and the other is offered', async ({
  browser,
}) => {
  const { slug, apiKey } = await queueEvent('journey');
  const first = await browser.newContext();
  const second = await browser.newContext();
  const firstTokens = await signInContext(first, freshEmail('xq-first'));
  const secondTokens = await signInContext(second, freshEmail('xq-second'));
  await join(slug, firstTokens.accessToken, 1);
  await join(slug, secondTokens.accessToken, 2);

  const firstPage = await first.newPage();
  const secondPage = await second.newPage();
  await openPanel(firstPage, 'PANEL_TAB=MY_TICKET');
  await openPanel(secondPage, 'PANEL_TAB=MY_TICKET');
  const firstQueue = firstPage.getByRole('region', { name: 'Waiting for tickets' });
  const secondQueue = secondPage.getByRole('region', { name: 'Waiting for tickets' });
  await expect(firstQueue).toContainText('Number 1 in the queue');
  await expect(secondQueue).toContainText('2 × General Admission');
  await expect(secondQueue).toContainText('Number 2 in the queue');

  // The organiser releases one ticket: the first fan wants one and is offered it.
  await api('/org/events/harbour/exchange/releases', 'POST', apiKey, {
    ticketTypeExternalId: 'ga',
    quantity: 1,
    priceCents: 5000,
  });
  await firstPage.reload();
  await expect(firstQueue).toContainText('Tickets held for you until');
  await firstQueue.getByRole('button', { name: 'Decline the offer' }).click();
  const dialog = firstPage.getByRole('dialog', { name: 'Decline the offer?' });
  await expect(dialog).toContainText('General Admission at Harbour Lights journey');
  await dialog.getByRole('button', { name: 'Decline the offer' }).click();
  await expect(firstPage.getByText('Offer declined')).toBeVisible();
  await expect(firstQueue).toBeHidden();

  // One more ticket released: with the declined one, two are free together, and the second fan's group fits.
  await api('/org/events/harbour/exchange/releases', 'POST', apiKey, {
    ticketTypeExternalId: 'ga',
    quantity: 1,
    priceCents: 5000,
  });
  await secondPage.reload();
  await expect(secondQueue).toContainText('Tickets held for you until');

  // Leaving from the panel ends the entry.
  await secondQueue.getByRole('button', { name: 'Leave the queue' }).click();
  await secondPage
    .getByRole('dialog', { name: 'Leave the queue?' })
    .getByRole('button', { name: 'Leave the queue' })
    .click();
  await expect(secondPage.getByText('You left the queue')).toBeVisible();
  await expect(secondQueue).toBeHidden();
  await first.close();
  await second.close();
});

for (const theme of ['light', 'dark'] as const) {
  for (const lang of ['en', 'es'] as const) {
    test(`queue places: screenshots at 360 px, ${theme}, ${lang}`, async ({ browser }) => {
      const { slug, apiKey } = await queueEvent(`${theme}-${lang}`);
      const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
      await context.addInitScript((th) => localStorage.setItem('tp.theme', th), theme);
      const other = await signInContext(await browser.newContext(), freshEmail('xq-other'));
      const tokens = await signInContext(context, freshEmail(`xq-${theme}-${lang}`));
      await join(slug, other.accessToken, 1);
      await join(slug, tokens.accessToken, 2);
      await api('/org/events/harbour/exchange/releases', 'POST', apiKey, {
        ticketTypeExternalId: 'ga',
        quantity: 1,
        priceCents: 5000,
      });
      const page = await context.newPage();
      await openPanel(page, 'PANEL_TAB=MY_TICKET', lang);
      const queue = page.getByRole('region', { name: lang === 'es' ? 'Esperando entradas' : 'Waiting for tickets' });
      await expect(queue).toContainText(lang === 'es' ? 'Número 2 en la cola' : 'Number 2 in the queue');
      await page.screenshot({ path: `test-results/exchange/places-${lang}-${theme}-360.png`, fullPage: true });
      await queue.getByRole('button', { name: lang === 'es' ? 'Salir de la cola' : 'Leave the queue' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await animationsDone(page);
      await page.screenshot({ path: `test-results/exchange/leave-${lang}-${theme}-360.png` });
      await context.close();
    });
  }
}
