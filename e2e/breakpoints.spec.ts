/**
 * The spec's five layout breakpoints (section 9; issue 28): phone 320-480, tablet 481-1024, laptop
 * 1025-1440, desktop 1441-1920, large 1921-3008. One width inside each (400, 800, 1280, 1600, 2400 px):
 * what each range changes is measured, and a screenshot of My Tickets is kept per width and theme in
 * test-results/breakpoints/ (looked at by the author).
 */
import { expect, test, type Page } from './fixtures';
import { openPanel, signInContext } from './support';

const sideMenu = (page: Page) => page.getByRole('navigation', { name: 'Sections' });
const px = (page: Page, selector: string, property: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);

const expected = [
  // width, side menu, content max-width, content left/right padding, root font size
  { name: 'phone', width: 400, menu: false, column: '640px', gutter: '12px', root: '16px' },
  { name: 'tablet', width: 800, menu: false, column: '640px', gutter: '24px', root: '16px' },
  { name: 'laptop', width: 1280, menu: true, column: '640px', gutter: '16px', root: '16px' },
  { name: 'desktop', width: 1600, menu: true, column: '640px', gutter: '16px', root: '16px' },
  { name: 'large', width: 2400, menu: true, column: '640px', gutter: '16px', root: '18px' },
];

for (const theme of ['light', 'dark'] as const) {
  test(`each of the five breakpoints changes the layout for its reason (${theme})`, async ({ page, context }) => {
    await signInContext(context, 'alice@example.com');
    await page.addInitScript((t) => localStorage.setItem('tp.theme', t), theme);
    await page.setViewportSize({ width: 1280, height: 900 });
    await openPanel(page, 'PANEL_TAB=MY_TICKET');
    await expect(page.getByRole('heading', { name: 'My Tickets' }).first()).toBeVisible();
    for (const b of expected) {
      await page.setViewportSize({ width: b.width, height: 900 });
      if (b.menu) await expect(sideMenu(page)).toBeVisible();
      else await expect(sideMenu(page)).toHaveCount(0);
      expect(await px(page, '#main', 'max-width'), b.name).toBe(b.column);
      expect(await px(page, '#main', 'padding-left'), b.name).toBe(b.gutter);
      expect(await px(page, 'html', 'font-size'), b.name).toBe(b.root);
      // Nothing wider than the screen at any width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), b.name).toBeLessThanOrEqual(b.width);
      await page.screenshot({ path: `test-results/breakpoints/${b.name}-${b.width}-${theme}.png` });
    }
  });
}
