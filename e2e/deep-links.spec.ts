/**
 * Issue 40 points 1 to 3, as a holder meets them:
 * 1. a signed-out holder who opens a link from an e-mail (the wallet buttons' `PANEL_TAB=TICKET&USER_TICKET_ID=…`,
 *    "Redeem my code"'s `PANEL_TAB=REDEEM`) signs in with the e-mailed code and lands where the link pointed, in the
 *    standalone panel and in the embed on the demo host page (whose URL mirrors the parameters);
 * 2. after a sign-in with no such link, and through "Show my pass" (`PANEL_TAB=QR`), the QR pass shows with no hub
 *    over it; the hub is titled with the holder's name;
 * 3. Back with a sheet open closes the sheet only (no dialog left, none opened under it); one more Back leaves.
 * Screenshots of the pass after a sign-in through "Show my pass" (en/es, light/dark, 360/1280, standalone and on the
 * demo host page) go to test-results/deep-links/.
 */
import { expect, test, type FrameLocator, type Page } from './fixtures';
import { mailCount, waitForCode } from './mail';
import { modalFrame } from './embed-pass';
import {
  apiSignIn,
  baseUrl,
  freshEmail,
  hostUrl,
  settled,
  signInContext,
  signInViaPanel,
  watchNetwork,
} from './support';

const BOB = 'bob@example.com';

/** One of bob's upcoming tickets: its id and event name (read through the API). */
async function bobsTicket(): Promise<{ id: number; eventName: string }> {
  const { accessToken } = await apiSignIn(BOB);
  const res = await fetch(`${baseUrl()}/v1/list/ticket_listing?status=UPCOMING`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(res.ok).toBe(true);
  const [first] = (await res.json()) as { userTicketId: number; eventName: string }[];
  expect(first).toBeDefined();
  return { id: first.userTicketId, eventName: first.eventName };
}

/** LOGIN then OTP with the e-mailed code, as a person types them; stops once the code is sent off. */
async function typeSignIn(page: Page | FrameLocator, email: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
  const before = mailCount();
  await page.getByRole('textbox', { name: /e-?mail/i }).fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  const code = await waitForCode(email, before);
  await page.getByRole('textbox', { name: /code/i }).fill(code);
  await page.getByRole('button', { name: 'Continue' }).click();
}

test.describe('links from e-mails survive the sign-in (issue 40 point 1)', () => {
  let ticket: { id: number; eventName: string };
  test.beforeAll(async () => {
    ticket = await bobsTicket();
  });

  const cases = [
    {
      name: 'the wallet link (TICKET)',
      query: () => `PANEL_TAB=TICKET&USER_TICKET_ID=${ticket.id}`,
      url: () =>
        new RegExp(`PANEL_TAB=TICKET.*USER_TICKET_ID=${ticket.id}|USER_TICKET_ID=${ticket.id}.*PANEL_TAB=TICKET`),
      heading: () => ticket.eventName,
    },
    {
      name: 'Redeem my code (REDEEM)',
      query: () => 'PANEL_TAB=REDEEM',
      url: () => /PANEL_TAB=REDEEM/,
      heading: () => 'Redeem ticket',
    },
  ];

  for (const c of cases) {
    test(`standalone: ${c.name} lands on its screen after sign-in`, async ({ page }) => {
      await page.goto(`${baseUrl()}/en/?${c.query()}`);
      await expect(page).toHaveURL(/PANEL_TAB=LOGIN/);
      await typeSignIn(page, BOB);
      await expect(page.getByRole('heading', { level: 1, name: c.heading() })).toBeVisible();
      await expect(page).toHaveURL(c.url());
      await expect(page.getByRole('dialog')).toHaveCount(0);
    });

    test(`embedded on the host page: ${c.name} lands on its screen after sign-in`, async ({ page }) => {
      await page.goto(`${hostUrl()}/?${c.query()}`);
      const frame = modalFrame(page);
      await typeSignIn(frame, BOB);
      await expect(frame.getByRole('heading', { level: 1, name: c.heading() })).toBeVisible();
      // The host URL mirrors the panel's screen.
      await expect(page).toHaveURL(c.url());
      await expect(frame.getByRole('dialog')).toHaveCount(0);
    });
  }

  test('a link left unsigned-in for longer than it is kept does not steer a later sign-in', async ({ page }) => {
    await page.goto(`${baseUrl()}/en/?PANEL_TAB=REDEEM`);
    await expect(page).toHaveURL(/PANEL_TAB=LOGIN/);
    // Kept for 30 minutes (by a chunk the redirect loads: wait for it), then aged past that.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('tp.returnTo'))).not.toBeNull();
    await page.evaluate(() => {
      const kept = JSON.parse(localStorage.getItem('tp.returnTo')!) as { at: number };
      localStorage.setItem('tp.returnTo', JSON.stringify({ ...kept, at: kept.at - 31 * 60_000 }));
    });
    await typeSignIn(page, BOB);
    await expect(page.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
    await expect(page).toHaveURL(/PANEL_TAB=QR/);
  });
});

test.describe('the first screen after sign-in is the pass (issue 40 point 2)', () => {
  test('signed in with no link: the QR pass, no hub over it; the hub is titled with the name', async ({ page }) => {
    await page.goto(`${baseUrl()}/en/`);
    await typeSignIn(page, BOB);
    await expect(page.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).not.toHaveURL(/PANEL_OVERLAY_TAB/);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const hub = page.getByRole('dialog', { name: 'Menu' });
    await expect(hub.locator('.hub__name')).toHaveText('Bob Taylor');
    // The username with its number is still there, beneath.
    await expect(hub).toContainText('bob#7315');
  });

  test('through "Show my pass" (PANEL_TAB=QR), a new account after its name: the QR pass, no hub', async ({ page }) => {
    await page.goto(`${baseUrl()}/en/?PANEL_TAB=QR`);
    await signInViaPanel(page, freshEmail('pass'), { givenName: 'Ana', familyName: 'Pérez' });
    await expect(page.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' }).locator('.hub__name')).toHaveText('Ana Pérez');
  });
});

test.describe('Back with a sheet open (issue 40 point 3)', () => {
  test('standalone, signed in through the panel: Back with a sheet open leaves no dialog open', async ({ page }) => {
    await page.goto(`${baseUrl()}/en/`);
    await typeSignIn(page, BOB);
    await expect(page.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
    // The hub, opened and closed by its button, leaves no entry behind.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // A sheet: Back closes it, and nothing opens under it (before: the hub of the sign-in's entry, two dialogs).
    await page.getByRole('button', { name: 'Learn more' }).click();
    await expect(page.getByRole('dialog', { name: 'Your QR pass' })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
    // The hub opened from the avatar: Back closes it too.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).not.toHaveURL(/PANEL_OVERLAY_TAB/);
  });

  test('standalone: Back closes the sheet only, then Back leaves the panel', async ({ browser }) => {
    const context = await browser.newContext();
    await signInContext(context, BOB);
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/help?lang=en`);
    await page.goto(`${baseUrl()}/en/?PANEL_TAB=QR`);
    await expect(page.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
    await page.getByRole('button', { name: 'Learn more' }).click();
    await expect(page.getByRole('dialog', { name: 'Your QR pass' })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).toHaveURL(/PANEL_TAB=QR/);
    // The sheet closed by its own button takes its entry with it.
    await page.getByRole('button', { name: 'Learn more' }).click();
    await page.getByRole('dialog', { name: 'Your QR pass' }).getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // One more Back leaves the panel for the page before it.
    await page.goBack();
    await expect(page).toHaveURL(/\/help\?lang=en/);
    await context.close();
  });

  test('embedded: Back closes the sheet only, then Back closes the modal on the host page', async ({ page }) => {
    await page.goto(hostUrl());
    await page.getByRole('banner').getByRole('button', { name: 'My tickets' }).click();
    const frame = modalFrame(page);
    await typeSignIn(frame, BOB);
    await expect(frame.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
    await expect(frame.getByRole('dialog')).toHaveCount(0);
    const modal = page.getByRole('dialog', { name: 'My tickets' });
    await frame.getByRole('button', { name: 'Learn more' }).click();
    await expect(frame.getByRole('dialog', { name: 'Your QR pass' })).toBeVisible();
    // Back (the browser's, over the page and its frame): the sheet's entry has the same URL, so the host page's
    // URL does not change and page.goBack() would wait for a navigation of the page that never comes.
    await page.evaluate(() => window.history.back());
    await expect(frame.getByRole('dialog')).toHaveCount(0);
    await expect(frame.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
    await expect(modal).toBeVisible();
    await page.goBack();
    await expect(modal).toBeHidden();
    await expect(page).toHaveURL(`${hostUrl()}/`);
  });
});

test.describe('screenshots: the pass after a sign-in through "Show my pass"', () => {
  for (const lang of ['en', 'es'] as const) {
    test(`standalone, ${lang}: light and dark, 360 and 1280`, async ({ page, context }) => {
      watchNetwork(context);
      await page.setViewportSize({ width: 360, height: 780 });
      await page.goto(`${baseUrl()}/${lang}/?PANEL_TAB=QR`);
      await expect(page).toHaveURL(/PANEL_TAB=LOGIN/);
      await signInViaPanel(page, BOB);
      const qr = page.getByRole('img', { name: lang === 'es' ? 'Tu código QR de acceso' : 'Your entry QR code' });
      await expect(qr).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      for (const theme of ['light', 'dark'] as const)
        for (const width of [360, 1280]) {
          await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
          await page.getByRole('combobox', { name: lang === 'es' ? 'Tema' : 'Theme' }).selectOption(theme);
          await settled(page);
          await expect(qr).toBeVisible();
          await page.screenshot({ path: `test-results/deep-links/pass-${lang}-${theme}-${width}.png` });
        }
    });
  }

  test('on the demo host page: 360 and 1280', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(`${hostUrl()}/?PANEL_TAB=QR`);
    const frame = modalFrame(page);
    await typeSignIn(frame, BOB);
    await expect(frame.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
    await expect(frame.getByRole('dialog')).toHaveCount(0);
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      await expect(frame.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
      await page.screenshot({ path: `test-results/deep-links/pass-embedded-en-${width}.png` });
    }
  });
});
