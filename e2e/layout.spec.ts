/**
 * The layout of spec sections 2 and 9 (issue 13 point 4): from the laptop breakpoint (1025 px) a 296 px side
 * menu beside the 640 px content column, none on tablets and phones; the dark theme's sign-in shows only the
 * card, the light one the card inside the page with header and footer.
 */
import { expect, test, type Page } from '@playwright/test';
import { openPanel, signInContext } from './support';

const sideMenu = (page: Page) => page.getByRole('complementary').filter({ has: page.getByRole('navigation') });

test('wide screens show the 296 px side menu beside the content; tablets and phones do not', async ({
  page,
  context,
}) => {
  await signInContext(context, 'alice@example.com');
  await page.setViewportSize({ width: 1280, height: 800 });
  await openPanel(page, 'PANEL_TAB=MY_TICKET');
  const nav = page.getByRole('navigation', { name: 'Sections' });
  await expect(nav).toBeVisible();
  expect((await sideMenu(page).boundingBox())?.width).toBe(296);
  await expect(nav.getByRole('link', { name: 'My Tickets' })).toHaveAttribute('aria-current', 'page');
  const menuBox = (await sideMenu(page).boundingBox())!;
  const content = (await page.locator('#main').boundingBox())!;
  expect(content.x).toBeGreaterThanOrEqual(menuBox.x + menuBox.width);
  expect(content.width).toBeLessThanOrEqual(640);

  // A link of the side menu is one navigation.
  const before = await page.evaluate(() => window.history.length);
  await nav.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/PANEL_TAB=SETTINGS/);
  await expect(nav.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
  expect(await page.evaluate(() => window.history.length)).toBe(before + 1);

  for (const width of [1024, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(nav).toHaveCount(0);
  }
  await page.setViewportSize({ width: 1025, height: 800 });
  await expect(nav).toBeVisible();
});

test('the sign-in shows only the card in the dark theme, and header and footer around it in the light one', async ({
  page,
}) => {
  await page.addInitScript(() => localStorage.setItem('tp.theme', 'dark'));
  await openPanel(page, 'PANEL_TAB=LOGIN');
  await expect(page.getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
  await expect(page.getByRole('banner')).toHaveCount(0);
  await expect(page.getByRole('contentinfo')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Language' })).toHaveCount(0);

  await page.evaluate(() => localStorage.setItem('tp.theme', 'light'));
  await page.addInitScript(() => localStorage.setItem('tp.theme', 'light'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
});
