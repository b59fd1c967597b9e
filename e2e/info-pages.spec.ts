/**
 * Issue 13, links and language: the hub's help-centre and get-the-app links (the defaults of
 * HELP_CENTER_URL and APP_URL, `/help` and `/app`) open real pages in the reader's language, not JSON 404s.
 */
import { expect, test } from './fixtures';
import { openPanel, signInContext } from './support';

for (const [lang, locale, help, app] of [
  ['en', 'en-AU', 'Help centre', 'Get the app'],
  ['es', 'es-ES', 'Centro de ayuda', 'Consigue la app'],
] as const) {
  test(`${lang}: the hub's help and app links open the /help and /app pages`, async ({ browser }) => {
    const context = await browser.newContext({ locale });
    await signInContext(context, `info-pages-${lang}@example.com`);
    const page = await context.newPage();
    await openPanel(page, 'PANEL_TAB=QR&PANEL_OVERLAY_TAB=HUB', lang);
    const hub = page.getByRole('dialog');
    for (const [link, heading, path] of [
      [hub.locator('a.hub-link'), help, '/help'],
      [hub.locator('a.hub-app'), app, '/app'],
    ] as const) {
      const [popup] = await Promise.all([context.waitForEvent('page'), link.click()]);
      await popup.waitForLoadState();
      expect(new URL(popup.url()).pathname).toBe(path);
      await expect(popup.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expect(popup.locator('html')).toHaveAttribute('lang', lang);
      await popup.close();
    }
    await context.close();
  });
}
