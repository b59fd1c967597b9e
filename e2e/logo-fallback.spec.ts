/**
 * A logo that does not load (issue 40 point 5): an organisation whose logo URL answers 404. The panel's header
 * (light theme) and the sign-in card (dark theme, where the card stands alone) hide it and show the organisation's
 * name alone, as for an organisation without a logo, and no broken image (an <img> whose naturalWidth is 0) is visible; signed
 * in, the header is the same. The public resale and checkout pages (server-rendered, no script) cover a broken logo
 * with the organisation's initials in CSS. Screenshots go to test-results/logo-fallback/.
 */
import { expect, test, type Page } from './fixtures';
import { baseUrl, signInContext } from './support';

const ORG = { slug: 'broken-logo', name: 'Lantern Nights', logoUrl: 'https://lantern.example/missing-logo.png' };
const INITIALS = 'LN';
/** The logo's <img> of a brand block (`.header__brand`, `.auth-card__brand`). */
const logoIn = (page: Page, block: string) => page.locator(`${block} img`);

test.beforeAll(async () => {
  const res = await fetch(`${baseUrl()}/v1/admin/organisations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${process.env.E2E_ADMIN_KEY!}`, 'content-type': 'application/json' },
    body: JSON.stringify(ORG),
  });
  // 409: made by an earlier run of this file against the same server (a retry).
  if (!res.ok && res.status !== 409) throw new Error(`create organisation: ${res.status} ${await res.text()}`);
});

/** The logo's URL answers 404 (the test machine cannot reach it anyway: this makes the failure certain). */
const logo404 = (page: Page) =>
  page.context().route(ORG.logoUrl, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'no' }));

/** Visible images that did not load: what shows the browser's broken-image icon. */
const brokenImages = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.images)
      .filter((img) => img.complete && img.naturalWidth === 0 && img.getClientRects().length > 0)
      .map((img) => img.currentSrc || img.src),
  );

for (const width of [360, 1280]) {
  test(`a logo that 404s: the name alone in the header and on the sign-in card, no broken image (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await logo404(page);
    for (const lang of ['en', 'es'] as const) {
      // Light theme: the header carries the organisation.
      await page.emulateMedia({ colorScheme: 'light' });
      const logoAnswered = page.waitForResponse(ORG.logoUrl);
      await page.goto(`${baseUrl()}/${lang}/?org=${ORG.slug}&PANEL_TAB=LOGIN`);
      await logoAnswered;
      await expect(page.locator('.header__name')).toHaveText(ORG.name);
      await expect(logoIn(page, '.header__brand')).toBeHidden();
      expect(await brokenImages(page)).toEqual([]);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `test-results/logo-fallback/login-${lang}-light-${width}.png` });

      // Dark theme: only the card, with the organisation on it.
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.reload();
      await expect(page.locator('.auth-card__brand')).toHaveText(ORG.name);
      await expect(logoIn(page, '.auth-card__brand')).toBeHidden();
      expect(await brokenImages(page)).toEqual([]);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `test-results/logo-fallback/login-${lang}-dark-${width}.png` });
    }
  });
}

test('signed in, the header keeps the name, without a broken logo', async ({ page, context }) => {
  await logo404(page);
  await signInContext(context, 'alice@example.com');
  await page.goto(`${baseUrl()}/en/?org=${ORG.slug}&PANEL_TAB=MY_TICKET`);
  await expect(page.locator('.header__name')).toHaveText(ORG.name);
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
  await expect(logoIn(page, '.header__brand')).toBeHidden();
  expect(await brokenImages(page)).toEqual([]);
});

test('a public page of the organisation covers its broken logo with the initials', async ({ page }) => {
  // The markup and styles the resale and checkout pages share (apps/api pages/html.ts `pageBrand`), as served.
  // The compiled module the server runs (`npm run build` comes first), by a path TypeScript does not resolve.
  const compiled = '../apps/api/dist/pages/html.js';
  const { pageBrand } = (await import(compiled)) as {
    pageBrand: (brand: Record<string, unknown>) => { css: string; header: string };
  };
  const brand = pageBrand({
    slug: ORG.slug,
    name: ORG.name,
    logoUrl: ORG.logoUrl,
    primaryColor: null,
    theme: null,
    websiteUrl: null,
    helpCenterUrl: null,
    appUrl: null,
  });
  await logo404(page);
  await page.route(`${baseUrl()}/e2e-brand`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><style>body{font:16px system-ui}${brand.css}</style></head><body><main>${brand.header}</main></body></html>`,
    }),
  );
  await page.goto(`${baseUrl()}/e2e-brand`);
  const img = page.locator('header.brand img');
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth === 0)).toBe(true);
  // The initials cover the image's box (a broken image renders its ::after; a loaded one would not).
  expect(await img.evaluate((el) => getComputedStyle(el, '::after').content)).toBe(`"${INITIALS}"`);
  await page.screenshot({
    path: 'test-results/logo-fallback/public-page.png',
    clip: { x: 0, y: 0, width: 400, height: 120 },
  });
});
