/**
 * The layout of spec sections 2 and 9 (issue 13 point 4): from the laptop breakpoint (1025 px) a 296 px side
 * menu beside the 640 px content column, none on tablets and phones; the dark theme's sign-in shows only the
 * card, the light one the card inside the page with header and footer.
 */
import { expect, test, type Page } from './fixtures';
import { mailCount, waitForCode } from './mail';
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

/*
 * The spec's measures at every width from their breakpoint up (section 9, rows A13, J10, J14; issue 40 point 10):
 * the content column 640 px and the boxed frame 1024 px at 1280 px (laptop) and at 1920 px (desktop), not growing
 * with the screen; toasts top-right (row J4), under the header.
 */
for (const width of [1280, 1920]) {
  test(`at ${width} px the column is 640 px, the frame 1024 px, and toasts sit top-right under the header`, async ({
    browser,
  }) => {
    const signedIn = await browser.newContext({ viewport: { width, height: 900 } });
    await signInContext(signedIn, 'alice@example.com');
    const page = await signedIn.newPage();
    await openPanel(page, 'PANEL_TAB=MY_TICKET');
    await expect(page.getByRole('navigation', { name: 'Sections' })).toBeVisible();
    const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;
    expect((await box('#main')).width).toBe(640);
    expect((await box('.page__body')).width).toBe(1024);
    expect((await box('.header__inner')).width).toBe(1024);
    expect((await box('.footer__row')).width).toBe(640);
    // Centred in the window.
    const frame = await box('.page__body');
    expect(Math.abs(frame.x - (width - 1024) / 2)).toBeLessThanOrEqual(1);
    await signedIn.close();

    // A toast (a new sign-in code sent): at the window's right edge, just under the header, not in the column.
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const login = await context.newPage();
    await openPanel(login, 'PANEL_TAB=LOGIN');
    const before = mailCount();
    await login.getByRole('textbox', { name: 'Email' }).fill('alice@example.com');
    await login.getByRole('button', { name: 'Continue' }).click();
    await waitForCode('alice@example.com', before);
    await login.getByRole('button', { name: 'Resend code' }).click();
    const toast = login.locator('.Toastify__toast--success');
    await expect(toast).toBeVisible();
    await login.waitForTimeout(500); // the entering animation
    const t = (await toast.boundingBox())!;
    const header = (await login.locator('header.header').boundingBox())!;
    const card = (await login.locator('.auth-card').boundingBox())!;
    expect(width - (t.x + t.width)).toBeLessThanOrEqual(24);
    expect(t.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect(t.y).toBeLessThanOrEqual(header.y + header.height + 24);
    expect(t.x).toBeGreaterThanOrEqual(card.x + card.width);
    await login.screenshot({ path: `test-results/layout/toast-${width}.png` });
    await context.close();
  });
}
