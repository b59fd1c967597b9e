/**
 * Issue 29 in Chromium: the panel installed from /es/ is Spanish (its manifest) and the tab title follows
 * the language and the screen; screenshots of Spanish screens with amounts and dates (360 px, both themes).
 */
import { mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';
import { baseUrl, openPanel, signInContext } from './support';

test('on /es/ the tab title is Spanish and follows the screen, and the linked manifest is the Spanish app', async ({
  page,
  context,
}) => {
  await openPanel(page, 'PANEL_TAB=LOGIN', 'es');
  await expect(page).toHaveTitle('Mis entradas');
  await signInContext(context, 'bob@example.com');
  await openPanel(page, 'PANEL_TAB=QR', 'es');
  await expect(page).toHaveTitle('Mi código QR · Mis entradas');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest-es.webmanifest');
  const manifest = (await (await fetch(`${baseUrl()}/manifest-es.webmanifest`)).json()) as Record<string, unknown>;
  expect(manifest).toMatchObject({
    lang: 'es',
    name: 'Mis entradas',
    short_name: 'Entradas',
    start_url: '/es/?PANEL_TAB=QR',
  });
  expect(manifest.description).toMatch(/sin conexión/);
  const english = (await (await fetch(`${baseUrl()}/manifest-en.webmanifest`)).json()) as Record<string, unknown>;
  expect(english).toMatchObject({ lang: 'en', name: 'My tickets', start_url: '/en/?PANEL_TAB=QR' });
  await openPanel(page, 'PANEL_TAB=MY_TICKET', 'en');
  await expect(page).toHaveTitle('My tickets');
});

test('the scanner page links its language manifest and title', async ({ page }) => {
  await page.goto(`${baseUrl()}/scanner?lang=es`);
  await expect(page).toHaveTitle('Control de acceso');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', /\/scanner\/manifest-es\.webmanifest$/);
  const manifest = (await (await fetch(`${baseUrl()}/scanner/manifest-es.webmanifest`)).json()) as Record<
    string,
    unknown
  >;
  expect(manifest).toMatchObject({ lang: 'es', name: 'Control de acceso', start_url: '/scanner?lang=es' });
});

test('screenshots: Spanish amounts and dates at 360 px, light and dark', async ({ page, context }) => {
  test.setTimeout(90_000);
  const dir = process.env.SHOTS_DIR ?? 'test-results/spanish-shots';
  mkdirSync(dir, { recursive: true });
  await page.setViewportSize({ width: 360, height: 780 });
  await signInContext(context, 'alice@example.com');
  for (const theme of ['light', 'dark'] as const) {
    await page.addInitScript((t) => localStorage.setItem('tp.theme', t), theme);
    for (const tab of ['MY_TICKET', 'RESELL']) {
      await openPanel(page, `PANEL_TAB=${tab}`, 'es');
      await expect(page.locator('h1').first()).toBeVisible();
      await expect(page.locator('[aria-busy=true]')).toHaveCount(0);
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${dir}/es-${tab.toLowerCase()}-${theme}.png`, fullPage: true });
    }
  }
  await openPanel(page, 'PANEL_TAB=MY_TICKET', 'es');
  // A Spanish date on a card: day without a leading zero, 24-hour clock.
  await expect(page.locator('body')).toContainText(/(lun|mar|mié|jue|vie|sáb|dom), [1-9]\d? \p{L}{3,4} \d{2}:\d{2}/u);
});
