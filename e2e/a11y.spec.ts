/**
 * Accessibility: axe-core (WCAG 2.x A and AA rules) on every screen of the panel, in the light and
 * the dark theme, at phone width. Read-only: it signs alice in and only looks.
 */
import { expect, test, type Page } from './fixtures';
import { apiSignIn, baseUrl, expectAccessible, openPanel, settled, watchNetwork } from './support';

const SCREENS: [string, string][] = [
  ['QR', 'PANEL_TAB=QR'],
  ['hub', 'PANEL_TAB=QR&PANEL_OVERLAY_TAB=HUB'],
  ['my tickets', 'PANEL_TAB=MY_TICKET'],
  ['gift', 'PANEL_TAB=GIFT'],
  ['swap', 'PANEL_TAB=SWAP'],
  ['resell', 'PANEL_TAB=RESELL'],
  ['redeem', 'PANEL_TAB=REDEEM'],
  ['settings account', 'PANEL_TAB=SETTINGS'],
  ['settings payout', 'PANEL_TAB=SETTINGS&SETTINGS_TAB=ACCOUNT_VERIFICATION'],
];

/** The screen once its lazy parts and queries have arrived and skeletons have given way to content. */
async function audit(page: Page, what: string) {
  await settled(page);
  await expect(page.locator('[aria-busy="true"], .skeleton')).toHaveCount(0);
  await expectAccessible(page, what);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test.use({ viewport: { width: 360, height: 780 }, colorScheme: theme });
    test.beforeEach(({ context }) => watchNetwork(context));

    test('sign-in screens', async ({ page }) => {
      await page.addInitScript((th) => localStorage.setItem('tp.theme', th), theme);
      await openPanel(page, 'PANEL_TAB=LOGIN');
      await audit(page, 'login');
      await openPanel(page, 'PANEL_TAB=LOGIN', 'es');
      await audit(page, 'login es');
    });

    test('signed-in screens', async ({ page, context }) => {
      const tokens = await apiSignIn('alice@example.com');
      await context.addInitScript(
        ([t, th]) => {
          localStorage.setItem('tp.theme', th);
          if (!sessionStorage.getItem('seeded')) {
            localStorage.setItem('tp.accessToken', t.accessToken);
            localStorage.setItem('tp.refreshToken', t.refreshToken);
            sessionStorage.setItem('seeded', '1');
          }
        },
        [tokens, theme] as const,
      );
      for (const [what, query] of SCREENS) {
        await openPanel(page, query);
        await audit(page, what);
      }
      const list = (await (
        await fetch(`${baseUrl()}/v1/list/ticket_listing?status=UPCOMING`, {
          headers: { authorization: `Bearer ${tokens.accessToken}` },
        })
      ).json()) as { userTicketId: number }[];
      await openPanel(page, `PANEL_TAB=TICKET&USER_TICKET_ID=${list[0].userTicketId}`);
      await audit(page, 'ticket page');
      await page.getByRole('button', { name: /Event access/ }).click();
      await audit(page, 'event access detail');
    });
  });
}

test('the audit itself fails on a violation, in a page without frames and in one with a frame', async ({ page }) => {
  const violation = '<img src="data:," width="10" height="10">';
  await page.setContent(`<html lang="en"><head><title>t</title></head><body><main>${violation}</main></body></html>`);
  await expect(expectAccessible(page, 'no frames')).rejects.toThrow(/no frames: image-alt/);
  const framed = `<main><h1>t</h1><iframe title="inner" srcdoc='${violation}'></iframe></main>`;
  await page.setContent(`<html lang="en"><head><title>t</title></head><body>${framed}</body></html>`);
  // The frame's document is its own load: audited before it exists, the page looked frameless (a loaded CI run).
  await expect(page.frameLocator('iframe').locator('img')).toBeAttached();
  await expect(expectAccessible(page, 'a frame')).rejects.toThrow(/a frame: image-alt/);
});
