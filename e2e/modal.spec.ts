/**
 * The embedded modal as a dialog (issue 13 point 1), on the demo host page (localhost), which frames the
 * panel from another site (127.0.0.1): focus moves in and Tab stays inside, Escape closes the innermost
 * layer only, focus returns to the opener, opening adds one host history entry and each screen one more,
 * Back closes the modal and the page stays; and the holder stays signed in across reloads of the host page
 * while Chromium blocks third-party cookies (the Partitioned refresh cookie, decision 012).
 */
import { expect, test, type Page } from './fixtures';
import { chromiumArgs, chromiumExecutable } from './chromium';
import { freshEmail, hostUrl, signInViaPanel } from './support';

// Third-party cookies blocked, as Chrome's phase-out does: only Partitioned cookies reach the framed panel.
test.use({
  launchOptions: { executablePath: chromiumExecutable, args: [...chromiumArgs, '--test-third-party-cookie-phaseout'] },
});

const modalFrame = (page: Page) => page.locator('[data-ticket-panel="modal"] iframe').contentFrame();
const opener = (page: Page) => page.getByRole('banner').getByRole('button', { name: 'My tickets' });

/** Where focus is: 'panel' (inside the iframe), 'close' (the modal's close button) or 'host' (anything else). */
function focusIsIn(page: Page): Promise<string> {
  return page.evaluate(() => {
    const host = document.querySelector('[data-ticket-panel="modal"]');
    if (document.activeElement !== host || !host?.shadowRoot) return 'host';
    const inner = host.shadowRoot.activeElement;
    if (inner?.tagName === 'IFRAME') return 'panel';
    if (inner?.tagName === 'BUTTON') return 'close';
    return `host:${inner?.tagName ?? 'none'}`;
  });
}

test('the modal takes focus, keeps Tab inside, closes layer by layer on Escape and gives focus back', async ({
  page,
}) => {
  await page.goto(hostUrl());
  await opener(page).click();
  const dialog = page.getByRole('dialog', { name: 'My tickets' });
  const frame = modalFrame(page);
  await expect(frame.getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
  // Focus moved inside the panel (its main content), and the page behind is inert and hidden.
  await expect.poll(() => focusIsIn(page)).toBe('panel');
  await expect(frame.locator('#main')).toBeFocused();
  await expect(page.locator('body > header')).toHaveAttribute('inert', '');
  await expect(page.locator('body > header')).toHaveAttribute('aria-hidden', 'true');

  // Tab and Shift+Tab go round the panel and the close button, never to the page behind.
  for (const key of ['Tab', 'Shift+Tab']) {
    const seen = new Set<string>();
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press(key);
      seen.add(await focusIsIn(page));
    }
    expect([...seen].sort(), key).toEqual(['close', 'panel']);
  }

  // Layers: sign in (the QR pass, no hub over it since issue 40), open the hub ...
  await frame.locator('#main').focus();
  await signInViaPanel(frame, 'alice@example.com');
  const hub = frame.getByRole('dialog', { name: 'Menu' });
  await expect(frame.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
  await expect(hub).toHaveCount(0);
  await frame.getByRole('button', { name: 'Open menu' }).click();
  await expect(hub).toBeVisible();
  // ... Escape closes the panel's dialog, not the modal.
  await page.keyboard.press('Escape');
  await expect(hub).toBeHidden();
  await expect(dialog).toBeVisible();
  // An open listbox (the gift screen's ticket dropdown) closes first, then nothing else.
  await frame.getByRole('button', { name: 'Open menu' }).click();
  await hub.getByRole('button', { name: 'Gift Ticket' }).click();
  const select = frame.getByRole('combobox', { name: 'Ticket to gift' });
  await select.click();
  await expect(frame.getByRole('listbox')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(frame.getByRole('listbox')).toHaveCount(0);
  await expect(frame.getByRole('heading', { level: 1, name: 'Gift a ticket' })).toBeVisible();
  await expect(dialog).toBeVisible();
  // Escape on the host's close button goes to the panel first: its open dialog closes, the modal stays.
  await frame.getByRole('button', { name: 'Open menu' }).click();
  await expect(hub).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).focus();
  await page.keyboard.press('Escape');
  await expect(hub).toBeHidden();
  await expect(dialog).toBeVisible();
  // With no layer left, Escape closes the modal, and focus is back on the button that opened it.
  await frame.locator('#main').focus();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener(page)).toBeFocused();
  await expect(page.locator('body > header')).not.toHaveAttribute('inert', '');
  await expect(page.locator('body > header')).not.toHaveAttribute('aria-hidden', 'true');
});

test('opening adds one history entry, each screen one more; Back walks them and closes the modal on the page', async ({
  page,
}) => {
  await page.goto(hostUrl());
  // An entry of the host page's own before the panel opens.
  await page.evaluate(() => window.history.pushState(null, '', '?before=1'));
  const length = () => page.evaluate(() => window.history.length);
  const dialog = page.getByRole('dialog', { name: 'My tickets' });
  const frame = modalFrame(page);
  const start = await length();
  await opener(page).click();
  await expect(frame.getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
  await expect(page).toHaveURL(/PANEL_TAB=LOGIN/);
  expect(await length()).toBe(start + 1);

  await signInViaPanel(frame, 'bob@example.com');
  const hub = frame.getByRole('dialog', { name: 'Menu' });
  const afterSignIn = await length();
  // Signed in on the pass (issue 40): the hub is one entry, its tile one more.
  await frame.getByRole('button', { name: 'Open menu' }).click();
  await hub.getByRole('button', { name: 'My Tickets' }).click();
  await expect(frame.getByRole('heading', { level: 1, name: 'My tickets' })).toBeVisible();
  await expect(page).toHaveURL(/PANEL_TAB=MY_TICKET/);
  expect(await length()).toBe(afterSignIn + 2);
  await frame.getByRole('button', { name: 'Open menu' }).click();
  await hub.getByRole('button', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/PANEL_TAB=SETTINGS/);
  // The hub overlay and the screen: one entry for opening the hub, one for the screen.
  expect(await length()).toBe(afterSignIn + 4);

  // Back walks the screens inside the modal ...
  await page.goBack();
  await expect(page).toHaveURL(/PANEL_OVERLAY_TAB=HUB/);
  await page.goBack();
  await expect(page).toHaveURL(/PANEL_TAB=MY_TICKET/);
  await expect(frame.getByRole('heading', { level: 1, name: 'My tickets' })).toBeVisible();
  // ... and then closes it, on the host page, which never went away.
  for (let i = 0; i < 8 && (await dialog.isVisible()); i++) {
    await page.goBack();
    expect(page.url().startsWith(hostUrl())).toBe(true);
  }
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(`${hostUrl()}/?before=1`);
  await expect(opener(page)).toBeFocused();

  // Closed from its own button, the modal takes its entries with it: Back is the page's own entry.
  await opener(page).click();
  await expect(frame.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
  // The reopened document may already show the pass before it has taken the host's move to it (which closes any
  // menu): open the menu until it stays open, as a person would tap again.
  await expect(async () => {
    if (!(await hub.isVisible())) await frame.getByRole('button', { name: 'Open menu' }).click({ timeout: 2_000 });
    await hub.getByRole('button', { name: 'My Tickets' }).click({ timeout: 2_000 });
    await expect(page).toHaveURL(/PANEL_TAB=MY_TICKET/, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(`${hostUrl()}/?before=1`);
  await page.goBack();
  await expect(page).toHaveURL(`${hostUrl()}/`);
  await expect(dialog).toBeHidden();
});

test('with third-party cookies blocked, the holder stays signed in across reloads of the host page until logout', async ({
  page,
}) => {
  await page.goto(hostUrl());
  await opener(page).click();
  const frame = modalFrame(page);
  await expect(frame.getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
  // The browser does block third-party cookies in the framed panel, and keeps Partitioned ones.
  const probe = await frame.locator('body').evaluate(() => {
    document.cookie = 'probe=1; SameSite=None; Secure; Path=/';
    document.cookie = 'probechips=1; SameSite=None; Secure; Partitioned; Path=/';
    return document.cookie;
  });
  expect(probe).not.toMatch(/(^|; )probe=1/);
  expect(probe).toMatch(/probechips=1/);

  await signInViaPanel(frame, freshEmail('chips'), { givenName: 'Chip', familyName: 'Partition' });
  await expect(frame.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
  // The inline panel of the same page follows the sign-in (from the shared cookie): off LOGIN, on QR.
  const inlineUrl = () =>
    page
      .frames()
      .find((f) => f.url().includes('embed=inline'))
      ?.url() ?? '';
  await expect.poll(inlineUrl).toMatch(/PANEL_TAB=QR/);
  // The framed panel has no storage of its own here: the session can only be the HttpOnly cookie's.
  const storage = await frame.locator('body').evaluate(() => {
    try {
      return Object.keys(localStorage).filter((k) => /token/i.test(k));
    } catch {
      return 'blocked';
    }
  });
  expect(storage).toBe('blocked');

  await page.reload();
  await expect(page).toHaveURL(/PANEL_TAB=QR/);
  await expect(frame.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
  await expect(frame.getByRole('heading', { name: 'Sign in to your tickets' })).toHaveCount(0);

  // Log out from the hub.
  await frame.getByRole('button', { name: 'Open menu' }).click();
  await frame.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Log out' }).click();
  await frame.getByRole('dialog', { name: 'Log out?' }).getByRole('button', { name: 'Log out' }).click();
  await expect(frame.getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
  // ... and the logout.
  await expect.poll(inlineUrl).toMatch(/PANEL_TAB=LOGIN/);
  await page.reload();
  await expect(frame.getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
  await expect(frame.getByRole('img', { name: 'Your entry QR code' })).toHaveCount(0);
});

for (const width of [360, 800, 1280]) {
  test(`the modal's close button is on the modal's own bar, not on the host page around it (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(hostUrl());
    await opener(page).click();
    await expect(modalFrame(page).getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
    const close = page.locator('[data-ticket-panel="modal"]').getByRole('button', { name: 'Close' });
    const x = (await close.boundingBox())!;
    // Issue 40 point 11: drawn in the page's margin above the modal, it sat on the host page's own header (its
    // "My tickets" button, seen through the backdrop). Now it is inside the modal's box, in a bar above the panel.
    const box = (await page.locator('[data-ticket-panel="modal"] .box').boundingBox())!;
    const frame = (await page.locator('[data-ticket-panel="modal"] iframe').boundingBox())!;
    expect(x.y).toBeGreaterThanOrEqual(box.y);
    expect(x.x).toBeGreaterThanOrEqual(box.x);
    expect(x.x + x.width).toBeLessThanOrEqual(box.x + box.width);
    expect(x.y + x.height).toBeLessThanOrEqual(frame.y);
    await page.screenshot({ path: `test-results/modal/close-${width}.png` });
  });
}
