/**
 * The embedded panel remembers the holder's language and theme per organiser (issue 23): chosen in the modal on
 * an organiser's site, they hold after the host page reloads (in the panel origin's storage, not the host's),
 * while another organiser's embed keeps its own. The host page here is the demo organiser site
 * (`/` on the panel's other origin; `?org=` is another organisation's site).
 */
import { expect, test, type Page } from './fixtures';
import { modalFrame } from './embed-pass';
import { baseUrl, hostUrl } from './support';

/** A second organisation (created through the admin API), whose site embeds the same panel. */
const OTHER = { slug: `memory-${Date.now().toString(36)}`, name: 'Other Organiser' };
test.beforeAll(async () => {
  const res = await fetch(`${baseUrl()}/v1/admin/organisations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${process.env.E2E_ADMIN_KEY!}`, 'content-type': 'application/json' },
    body: JSON.stringify(OTHER),
  });
  expect(res.ok, await res.text()).toBe(true);
});

async function openModal(page: Page, url: string, button: string) {
  await page.goto(url);
  await page.getByRole('banner').getByRole('button', { name: button }).click();
  const frame = modalFrame(page);
  await expect(frame.locator('h1')).toBeVisible();
  return frame;
}

test('language and theme chosen in the embed hold across host reloads, per organiser', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'light' });
  const page = await context.newPage();
  let frame = await openModal(page, hostUrl(), 'My tickets');
  await expect(frame.getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
  await expect(frame.locator('html')).toHaveAttribute('data-theme', 'light');

  // Language first: the dark sign-in screen shows the card alone, without the footer's choices.
  await frame.getByRole('combobox', { name: 'Language' }).selectOption('es');
  await expect(frame.getByRole('heading', { name: 'Accede a tus entradas' })).toBeVisible();
  await frame.getByRole('combobox', { name: 'Tema' }).selectOption('dark');
  await expect(frame.locator('html')).toHaveAttribute('data-theme', 'dark');

  // The host page reloads, still in English (its own `lang`): the panel comes back in Spanish and dark.
  // The host URL carries the panel's route (PANEL_TAB=LOGIN), so the modal opens again at load.
  await expect(page).toHaveURL(/PANEL_TAB=LOGIN/);
  await page.reload();
  await expect(page.getByRole('dialog', { name: 'My tickets' })).toBeVisible();
  frame = modalFrame(page);
  await expect(frame.locator('h1')).toBeVisible();
  await expect(frame.getByRole('heading', { name: 'Accede a tus entradas' })).toBeVisible();
  await expect(frame.locator('html')).toHaveAttribute('lang', 'es');
  await expect(frame.locator('html')).toHaveAttribute('data-theme', 'dark');
  // Kept by the panel's origin, not the host's.
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('tp.')))).toEqual([]);

  // Another organiser's site embeds the panel as its host page says: English and the system's light theme.
  frame = await openModal(page, `${hostUrl()}/?org=${OTHER.slug}`, 'My tickets');
  await expect(frame.locator('html')).toHaveAttribute('lang', 'en');
  await expect(frame.locator('html')).toHaveAttribute('data-theme', 'light');
  await context.close();
});
