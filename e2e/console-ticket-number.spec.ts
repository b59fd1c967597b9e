/**
 * Issue 41, point 4: the holder's ticket number ("Ticket #13" in the panel) and the organiser's ticket id (T-1002)
 * meet in the console: the search finds the ticket by either, the list shows both, and the ticket's drawer says
 * the number the holder sees. Screenshots in test-results/console-ticket-number/.
 */
import { expect, test } from './fixtures';
import { createOrganisation, signInConsole } from './console-steps';
import { apiSignIn, baseUrl, expectAccessible, settled, watchNetwork } from './support';

const tag = Date.now().toString(36);

test.beforeEach(({ context }) => watchNetwork(context));

test('support finds a ticket by the number its holder reads and by its id', async ({ page }) => {
  const owner = `owner-number-${tag}@console.example`;
  const holder = `holder-number-${tag}@console.example`;
  const apiKey = await createOrganisation(`number-${tag}`, owner);
  const put = async (path: string, body: object) => {
    const r = await fetch(`${baseUrl()}/v1/org/${path}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(r.status, await r.clone().text()).toBeLessThan(300);
  };
  const start = Date.now() + 86_400_000;
  await put('events/evt-number', {
    name: 'Harbour Nights',
    venue: 'Pier 2',
    city: 'Sydney',
    country: 'AU',
    timeZone: 'UTC',
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(start + 3600_000).toISOString(),
  });
  await put('ticket-types/ga', {
    eventExternalId: 'evt-number',
    name: 'GA',
    priceCents: 100,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  });
  await put('tickets/T-1001', { ticketTypeExternalId: 'ga', holderEmail: `other-${holder}` });
  await put('tickets/T-1002', { ticketTypeExternalId: 'ga', holderEmail: holder });
  // The number the holder reads in their panel ("Ticket #<userTicketId>").
  const { accessToken } = await apiSignIn(holder);
  const mine = (await (
    await fetch(`${baseUrl()}/v1/list/ticket_listing?status=UPCOMING`, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
  ).json()) as { userTicketId: number }[];
  expect(mine).toHaveLength(1);
  const number = `#${mine[0].userTicketId}`;

  await page.setViewportSize({ width: 1280, height: 800 });
  await signInConsole(page, owner);
  await page.getByRole('navigation').getByRole('link', { name: 'Holders' }).click();
  const table = page.getByRole('table', { name: 'Holders' });
  const searchBox = page.getByLabel('Search by e-mail, name or ticket id');
  for (const query of [number, mine[0].userTicketId.toString(), 'T-1002']) {
    await searchBox.fill(query);
    await page.getByRole('button', { name: 'Find' }).click();
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(table.locator('tbody tr')).toContainText(`T-1002 · ${number}`);
    await expect(table.locator('tbody tr')).toContainText(holder);
  }
  await table.getByRole('button', { name: 'Details: T-1002' }).click();
  const drawer = page.getByRole('dialog', { name: 'Ticket T-1002' });
  await expect(drawer.getByTestId('ticket-number')).toHaveText(`Number the holder sees: ${number}`);
  await settled(page);
  await expectAccessible(page, 'ticket drawer with number');
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `test-results/console-ticket-number/drawer-en-${theme}-${width}.png` });
    }
  }
  await drawer.getByRole('button', { name: 'Close' }).click();

  // In Spanish too.
  await page.getByRole('link', { name: 'Español' }).click();
  await page.getByRole('navigation').getByRole('link', { name: 'Titulares' }).click();
  await page.getByLabel('Buscar por correo, nombre o id de entrada').fill(number);
  await page.getByRole('button', { name: 'Buscar', exact: true }).click();
  await page.getByRole('button', { name: 'Detalles: T-1002' }).click();
  await expect(page.getByTestId('ticket-number')).toHaveText(`Número que ve el titular: ${number}`);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: 'test-results/console-ticket-number/drawer-es-light-1280.png' });
});
