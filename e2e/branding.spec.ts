/**
 * The panel per organiser (issue 12, point 3): an organisation created through the admin API, with one event
 * and a ticket issued to alice through the organisation API (alice also holds the demo organisation's
 * tickets: one account per e-mail). Opened with `?org=` standalone and with the loader's `data-org` on the
 * demo host page, the panel shows that organisation's name, logo, colour, help and app links, and only its
 * tickets. Screenshots of the branded panel (light/dark, 360/1280, en/es) go to test-results/branding/.
 */
import { expect, test, type Page } from './fixtures';
import { axeViolations, baseUrl, hostUrl, settled, signInContext, signInViaPanel, watchNetwork } from './support';

const SLUG = 'riverside';
const ORG = {
  slug: SLUG,
  name: 'Riverside Sounds',
  // Pale yellow: too light for links on white, so the panel darkens it on the light theme.
  primaryColor: '#FFD23F',
  logoUrl: 'https://riverside.example/logo.svg',
  helpCenterUrl: 'https://riverside.example/help',
  appUrl: 'https://riverside.example/app',
};
const EVENT_NAME = 'Riverside Sounds 2027';
const DEMO_EVENT = 'Harbour Lights Festival';
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" rx="14" fill="#0b3d2e"/><circle cx="32" cy="32" r="16" fill="#FFD23F"/></svg>';

async function call(path: string, method: string, token: string, body?: unknown) {
  const res = await fetch(`${baseUrl()}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

test.beforeAll(async () => {
  const { apiKey } = (await call('/admin/organisations', 'POST', process.env.E2E_ADMIN_KEY!, ORG)) as {
    apiKey: string;
  };
  const starts = Date.now() + 40 * 86_400_000;
  await call('/org/events/rs-2027', 'PUT', apiKey, {
    name: EVENT_NAME,
    venue: 'Riverstage',
    city: 'Brisbane',
    country: 'AU',
    startsAt: new Date(starts).toISOString(),
    endsAt: new Date(starts + 8 * 3_600_000).toISOString(),
    timeZone: 'Australia/Brisbane',
  });
  await call('/org/ticket-types/rs-ga', 'PUT', apiKey, {
    eventExternalId: 'rs-2027',
    name: 'Riverside GA',
    priceCents: 8900,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  });
  await call('/org/tickets/rs-ticket-1', 'PUT', apiKey, {
    ticketTypeExternalId: 'rs-ga',
    holderEmail: 'alice@example.com',
  });
});

/** Serves the organisation's logo (an https URL the test machine cannot reach). */
const serveLogo = (page: Page) =>
  page.context().route(ORG.logoUrl, (route) => route.fulfill({ contentType: 'image/svg+xml', body: LOGO_SVG }));

/** axe's colour-contrast findings on the page as it is (WCAG AA). */
async function contrastViolations(page: Page) {
  return (await axeViolations(page, { rules: ['color-contrast'] })).flatMap((v) =>
    v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
  );
}

/** The accent the panel paints with (`--accent` on <html>). */
const accentOf = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim());

test("?org= standalone: name, logo, colour, help and app links, and only that organisation's tickets", async ({
  page,
  context,
}) => {
  await serveLogo(page);
  await signInContext(context, 'alice@example.com');
  await page.goto(`${baseUrl()}/en/?org=${SLUG}&PANEL_TAB=MY_TICKET`);
  await expect(page.locator('.header__name')).toHaveText(ORG.name);
  const logo = page.locator('.header__brand img');
  await expect(logo).toHaveAttribute('src', ORG.logoUrl);
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: new RegExp(EVENT_NAME) })).toBeVisible();
  await expect(page.getByRole('button', { name: new RegExp(DEMO_EVENT) })).toHaveCount(0);
  // The pale yellow is darkened for the light theme (readable on white), kept on the dark one.
  const light = await accentOf(page);
  expect(light).toMatch(/^#[0-9a-f]{6}$/);
  expect(light).not.toBe('#3b5bfd');
  expect(light).not.toBe(ORG.primaryColor.toLowerCase());
  expect(await contrastViolations(page)).toEqual([]);
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  await expect.poll(() => accentOf(page)).toBe(ORG.primaryColor.toLowerCase());
  expect(await contrastViolations(page)).toEqual([]);
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('light');

  // Help centre and app links of the organisation in the hub.
  await page.getByRole('button', { name: 'Open menu' }).click();
  const hub = page.getByRole('dialog');
  await expect(hub.getByRole('link', { name: /help centre/i })).toHaveAttribute('href', `${ORG.helpCenterUrl}?lang=en`);
  await expect(hub.locator('a.hub-app')).toHaveAttribute('href', `${ORG.appUrl}?lang=en`);

  // Without ?org= the same holder sees every organisation's tickets and the default look.
  await page.goto(`${baseUrl()}/en/?PANEL_TAB=MY_TICKET`);
  await expect(page.getByRole('button', { name: new RegExp(DEMO_EVENT) }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: new RegExp(EVENT_NAME) })).toBeVisible();
  expect(await accentOf(page)).toBe('#3b5bfd');
});

test("data-org on the demo host page: the embedded panel is branded and lists only that organisation's tickets", async ({
  page,
}) => {
  await serveLogo(page);
  await page.goto(`${hostUrl()}/?org=${SLUG}`);
  await expect(page).toHaveTitle(ORG.name);
  await page.getByRole('button', { name: 'My tickets' }).first().click();
  const frameEl = page.locator('iframe[src*="embed=modal"]');
  await expect(frameEl).toHaveAttribute('src', new RegExp(`[?&]org=${SLUG}(&|$)`));
  const frame = page.frameLocator('iframe[src*="embed=modal"]');
  await expect(frame.locator('.header__name')).toHaveText(ORG.name);
  await signInViaPanel(frame, 'alice@example.com');
  // After sign-in the pass shows first, no hub over it (issue 40 point 2), still under the organisation's header;
  // the holder opens the hub from the avatar, as a person would, and goes to their tickets.
  await expect(frame.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
  await expect(frame.getByRole('dialog')).toHaveCount(0);
  await expect(frame.locator('.header__name')).toHaveText(ORG.name);
  await frame.getByRole('button', { name: 'Open menu' }).click();
  const hub = frame.getByRole('dialog');
  await expect(hub.getByRole('link', { name: /help centre/i })).toHaveAttribute('href', `${ORG.helpCenterUrl}?lang=en`);
  await hub.getByRole('button', { name: 'My Tickets' }).click();
  await expect(frame.getByRole('button', { name: new RegExp(EVENT_NAME) })).toBeVisible();
  await expect(frame.getByRole('button', { name: new RegExp(DEMO_EVENT) })).toHaveCount(0);
  await expect(frame.locator('.header__name')).toHaveText(ORG.name);
});

test('screenshots of the branded panel: light and dark, 360 and 1280, en and es', async ({ browser }) => {
  test.setTimeout(180_000);
  // One signed-in page and one signed-out page; each combination is emulated on them before a fresh load.
  const context = await browser.newContext();
  watchNetwork(context);
  const page = await context.newPage();
  await serveLogo(page);
  await signInContext(context, 'alice@example.com');
  const login = await browser.newContext();
  watchNetwork(login);
  const loginPage = await login.newPage();
  await serveLogo(loginPage);
  for (const theme of ['light', 'dark'] as const) {
    for (const width of [360, 1280]) {
      for (const p of [page, loginPage]) {
        await p.emulateMedia({ colorScheme: theme });
        await p.setViewportSize({ width, height: 800 });
      }
      for (const lang of ['en', 'es'] as const) {
        for (const [name, query] of [
          ['tickets', 'PANEL_TAB=MY_TICKET'],
          ['hub', 'PANEL_TAB=QR&PANEL_OVERLAY_TAB=HUB'],
        ]) {
          await page.goto(`${baseUrl()}/${lang}/?org=${SLUG}&${query}`);
          await expect(page.locator('#tp-brand')).toHaveCount(1);
          await settled(page);
          // The first QR drawn before the app (features/qr/first-qr.ts) has left the page to it.
          await expect(page.locator('#first-qr')).toHaveCount(0);
          await page.screenshot({ path: `test-results/branding/${name}-${lang}-${theme}-${width}.png` });
        }
        await loginPage.goto(`${baseUrl()}/${lang}/?org=${SLUG}&PANEL_TAB=LOGIN`);
        // The dark theme shows only the card, with the organisation on it; the light one, the header.
        await expect(loginPage.locator(theme === 'dark' ? '.auth-card__brand' : '.header__name')).toContainText(
          ORG.name,
        );
        await settled(loginPage);
        await loginPage.screenshot({ path: `test-results/branding/login-${lang}-${theme}-${width}.png` });
      }
    }
  }
  await login.close();
  await context.close();
});
