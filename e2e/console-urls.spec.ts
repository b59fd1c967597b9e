/**
 * Issue 41, point 5 (the URL half): every console screen has its own URL under /console. A link to a deep URL (an
 * event's Holders with a ticket's drawer open) opens the sign-in, then that screen; Back and Forward move between
 * console screens; a reload keeps the screen, the event and the language.
 */
import { expect, test, type Page } from './fixtures';
import { createOrganisation } from './console-steps';
import { mailCount, waitForCode } from './mail';
import { baseUrl } from './support';

const tag = Date.now().toString(36);
const owner = `owner-urls-${tag}@console.example`;
const event = `evt-urls-${tag}`;

/** Signs in on the sign-in form the console shows at whatever URL it was opened. */
async function signInHere(page: Page, email: string) {
  const before = mailCount();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'E-mail me a code' }).click();
  const code = await waitForCode(email, before);
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const path = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

test('a deep link opens its screen after the sign-in; Back, Forward and a reload stay in the console', async ({
  page,
}) => {
  const apiKey = await createOrganisation(`urls-${tag}`, owner);
  const put = async (p: string, body: object) => {
    const r = await fetch(`${baseUrl()}/v1/org/${p}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(r.status, await r.clone().text()).toBeLessThan(300);
  };
  const start = Date.now() + 86_400_000;
  await put(`events/${event}`, {
    name: 'Harbour Nights',
    venue: 'Pier 2',
    city: 'Sydney',
    country: 'AU',
    timeZone: 'UTC',
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(start + 3600_000).toISOString(),
  });
  await put('ticket-types/ga', {
    eventExternalId: event,
    name: 'GA',
    priceCents: 100,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  });
  await put('tickets/T-1001', { ticketTypeExternalId: 'ga', holderEmail: `holder-urls-${tag}@console.example` });

  // A link from a colleague: the event's holders with T-1001's drawer open. The sign-in keeps it.
  const deep = `/console/events/${event}/holders/T-1001`;
  await page.goto(`${baseUrl()}${deep}`);
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  expect(path(page)).toBe(deep);
  await signInHere(page, owner);
  const drawer = page.getByRole('dialog', { name: 'Ticket T-1001' });
  await expect(drawer.getByRole('listitem').first()).toContainText('Issued');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Holders' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByLabel('Event', { exact: true })).toHaveValue(event);
  expect(path(page)).toBe(deep);
  // A reload keeps all of it.
  await page.reload();
  await expect(drawer.getByRole('listitem').first()).toContainText('Issued');
  await expect(page.getByLabel('Event', { exact: true })).toHaveValue(event);
  // Closing the drawer leaves the event's holders (the link's page had nothing under it in the console).
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toHaveCount(0);
  expect(path(page)).toBe(`/console/events/${event}/holders`);

  // Two screens, then Back lands on the first; Forward on the second; a reload stays.
  const nav = page.getByRole('navigation');
  await nav.getByRole('link', { name: 'Members' }).click();
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  expect(path(page)).toBe('/console/members');
  await nav.getByRole('link', { name: 'Keys' }).click();
  await expect(page.getByRole('heading', { name: 'Keys', level: 1 })).toBeVisible();
  expect(path(page)).toBe('/console/keys');
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  expect(path(page)).toBe('/console/members');
  await page.goBack();
  await expect(page.getByLabel('Event', { exact: true })).toHaveValue(event);
  expect(path(page)).toBe(`/console/events/${event}/holders`);
  await page.goForward();
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  expect(path(page)).toBe('/console/members');

  // An event's dashboard and its ticket types have URLs too; Back from them is the events list.
  await nav.getByRole('link', { name: 'Events' }).click();
  await page.getByRole('button', { name: 'Dashboard: Harbour Nights' }).click();
  await expect(page.getByTestId('stat-issued')).toHaveText('1');
  expect(path(page)).toBe(`/console/events/${event}/dashboard`);
  await page.reload();
  await expect(page.getByTestId('stat-issued')).toHaveText('1');
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Events', level: 1 })).toBeVisible();
  expect(path(page)).toBe('/console/events');
  await page.getByRole('button', { name: 'Ticket types: Harbour Nights' }).click();
  await page.getByRole('button', { name: 'Edit: GA' }).click();
  expect(path(page)).toBe(`/console/events/${event}/ticket-types/ga/edit`);
  await page.reload();
  await expect(page.getByLabel('Name')).toHaveValue('GA');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('row', { name: /ga GA/ })).toBeVisible();
  expect(path(page)).toBe(`/console/events/${event}/ticket-types`);

  // The language stays with the URL: Spanish, another screen, a reload, still Spanish.
  await page.getByRole('link', { name: 'Español' }).click();
  await expect(page.getByRole('heading', { name: /^Tipos de entrada/ })).toBeVisible();
  expect(path(page)).toBe(`/console/events/${event}/ticket-types?lang=es`);
  await nav.getByRole('link', { name: 'Actividad' }).click();
  expect(path(page)).toBe('/console/activity?lang=es');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Actividad', level: 1 })).toBeVisible();
});
