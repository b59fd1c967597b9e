/**
 * Settings account tab (spec sections 2 Settings, 5) and the hub header, with new accounts only:
 * first and last name, nickname, avatar and phone number, each visible afterwards (hub header: nickname#suffix,
 * e-mail, initials then picture); the phone collision message; validation and save-button rules.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect, test, type Page } from './fixtures';
import { apiSignIn, baseUrl, freshEmail, hostUrl, openPanel, signInContext, signInViaPanel } from './support';

const openHub = async (page: Page) => {
  await page.getByRole('button', { name: 'Open menu' }).click();
  const hub = page.getByRole('dialog', { name: 'Menu' });
  await expect(hub).toBeVisible();
  return hub;
};
const closeHub = async (page: Page) => {
  await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);
};
/** A distinct phone number per run. */
const phone = () => `+61 4${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
/** How the panel shows a stored number (libphonenumber-js, international): '+61 4xxxxxxxx' -> '+61 4xx xxx xxx'. */
const shown = (p: string) => {
  const d = p.replace(/\D/g, '').slice(2);
  return `+61 ${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6)}`;
};

test('change name, nickname, avatar and phone in settings; the hub header shows them', async ({ page, context }) => {
  test.setTimeout(120_000);
  const email = freshEmail('settings');
  const tokens = await signInContext(context, email);
  const me = (await (
    await fetch(`${baseUrl()}/v1/auth/me`, { headers: { authorization: `Bearer ${tokens.accessToken}` } })
  ).json()) as { uniqueID: string; nickname: string };
  await openPanel(page, 'PANEL_TAB=SETTINGS');
  await expect(page.getByRole('tab', { name: 'Account', selected: true })).toBeVisible();

  // Personal data: messages only once touched; save disabled unless changed and valid.
  const first = page.getByRole('textbox', { name: 'First name' });
  const last = page.getByRole('textbox', { name: 'Last name' });
  const saveName = page.getByRole('button', { name: 'Save name' });
  await expect(first).toHaveValue('Test');
  await expect(saveName).toBeDisabled();
  await first.fill('');
  await expect(page.getByText('First name is required')).toHaveCount(0);
  await first.blur();
  await expect(page.getByRole('alert').filter({ hasText: 'First name is required' })).toBeVisible();
  await first.fill('   ');
  await expect(page.getByRole('alert').filter({ hasText: 'First name cannot be empty' })).toBeVisible();
  await expect(saveName).toBeDisabled();
  await first.fill('Maya');
  await last.fill('Lopez');
  await expect(saveName).toBeEnabled();
  await saveName.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your name is saved.' })).toBeVisible();
  await expect(saveName).toBeDisabled();
  let hub = await openHub(page);
  await expect(hub.locator('.hub__head .avatar--initials')).toHaveText('ML');
  await expect(hub).toContainText(email);
  await closeHub(page);

  // Nickname: the #suffix stays.
  const nick = page.getByRole('textbox', { name: 'Nickname' });
  const saveNick = page.getByRole('button', { name: 'Save nickname' });
  await expect(nick).toHaveValue(me.nickname);
  await expect(saveNick).toBeDisabled();
  await nick.fill(' ');
  await nick.blur();
  await expect(page.getByRole('alert').filter({ hasText: 'Username cannot be empty' })).toBeVisible();
  await expect(saveNick).toBeDisabled();
  const nickname = `maya${Date.now().toString(36).slice(-5)}`;
  await nick.fill(nickname);
  await saveNick.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your nickname is saved.' })).toBeVisible();
  hub = await openHub(page);
  // Titled with the name (issue 40 point 2), the username with its #suffix beneath.
  await expect(hub.locator('.hub__name')).toHaveText('Maya Lopez');
  await expect(hub).toContainText(`${nickname}${me.uniqueID}`);
  await closeHub(page);

  // Avatar: a PNG made here; the header and the hub show the picture instead of the initials.
  const dir = mkdtempSync(join(tmpdir(), 'tp-avatar-'));
  const file = join(dir, 'me.png');
  writeFileSync(
    file,
    await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 220, g: 40, b: 120 } } })
      .png()
      .toBuffer(),
  );
  const savePicture = page.getByRole('button', { name: 'Save picture' });
  await expect(page.getByText('At least 264×264 pixels recommended')).toBeVisible();
  await expect(savePicture).toBeDisabled();
  await page.getByLabel('Choose a picture').setInputFiles(file);
  await expect(page.getByRole('img', { name: 'Preview of your new picture' })).toBeVisible();
  await savePicture.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your picture is saved.' })).toBeVisible();
  const headerPicture = page.getByRole('button', { name: 'Open menu' }).locator('img');
  await expect(headerPicture).toHaveAttribute('src', /\.webp$/);
  const src = (await headerPicture.getAttribute('src'))!;
  const served = await fetch(new URL(src, baseUrl()));
  expect(served.headers.get('content-type')).toContain('image/webp');
  hub = await openHub(page);
  await expect(hub.locator('.hub__head img')).toHaveAttribute('src', src);
  await expect(hub.locator('.hub__head .avatar--initials')).toHaveCount(0);
  await closeHub(page);
  // A refused format is reported before any upload.
  writeFileSync(join(dir, 'notes.txt'), 'hello');
  await page.getByLabel('Choose a picture').setInputFiles(join(dir, 'notes.txt'));
  await expect(page.getByRole('alert').filter({ hasText: "This image can't be used" })).toBeVisible();
  await expect(savePicture).toBeDisabled();

  // Phone: added in a modal, then changed (the modal shows current and new); a number someone else has is refused.
  const taken = phone();
  const other = await apiSignIn(freshEmail('settings-other'));
  expect(
    (
      await fetch(`${baseUrl()}/v1/auth/profile`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${other.accessToken}` },
        body: JSON.stringify({ phoneNumber: taken }),
      })
    ).ok,
  ).toBe(true);
  await expect(page.getByText('No phone number yet')).toBeVisible();
  await page.getByRole('button', { name: 'Add phone number' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add phone number' });
  const save = dialog.getByRole('button', { name: 'Save phone number' });
  await expect(save).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'New phone number' }).fill(taken);
  await save.click();
  await expect(dialog.getByRole('alert').filter({ hasText: 'Email or phone number already in use' })).toBeVisible();
  const mine = phone();
  await dialog.getByRole('textbox', { name: 'New phone number' }).fill(mine);
  await save.click();
  await expect(dialog).toHaveCount(0);
  // Stored normalised ('+614xxxxxxxx'), shown formatted ('+61 4xx xxx xxx').
  await expect(page.getByText(shown(mine))).toBeVisible();
  await page.getByRole('button', { name: 'Change phone number' }).click();
  dialog = page.getByRole('dialog', { name: 'Change phone number' });
  await expect(dialog).toContainText('Current phone number');
  await expect(dialog).toContainText(shown(mine));
  await dialog.getByRole('textbox', { name: 'New phone number' }).fill(mine);
  await expect(dialog.getByRole('button', { name: 'Save phone number' })).toBeDisabled();
  const newer = phone();
  await dialog.getByRole('textbox', { name: 'New phone number' }).fill(newer);
  await dialog.getByRole('button', { name: 'Save phone number' }).click();
  await expect(dialog).toHaveCount(0);

  // Everything persists across a reload.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('Maya');
  await expect(page.getByRole('textbox', { name: 'Last name' })).toHaveValue('Lopez');
  await expect(page.getByRole('textbox', { name: 'Nickname' })).toHaveValue(nickname);
  await expect(page.getByText(shown(newer))).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open menu' }).locator('img')).toHaveAttribute('src', src);
});

test('event reminders: the switch in settings turns them off and back on, and stays as set (issue 41 point 9)', async ({
  page,
  context,
}) => {
  const email = freshEmail('reminders');
  const tokens = await signInContext(context, email);
  const reminders = async () =>
    (
      (await (
        await fetch(`${baseUrl()}/v1/auth/me`, { headers: { authorization: `Bearer ${tokens.accessToken}` } })
      ).json()) as { reminders: boolean }
    ).reminders;
  await openPanel(page, 'PANEL_TAB=SETTINGS');
  const card = page.getByRole('region', { name: 'E-mails' });
  const box = card.getByRole('checkbox', { name: 'Event reminders' });
  await expect(box).toBeChecked();
  await expect(card).toContainText('Your tickets, sign-in codes and receipts always come by e-mail.');
  await box.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Reminders are off.' })).toBeVisible();
  await expect(box).not.toBeChecked();
  expect(await reminders()).toBe(false);
  // As the unsubscribe link left it: off after a reload too.
  await page.reload();
  await expect(box).not.toBeChecked();
  await box.click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'You will get a reminder before your events.' }),
  ).toBeVisible();
  await expect(box).toBeChecked();
  expect(await reminders()).toBe(true);
});

test('every hub tile opens its screen; help centre and get-the-app links', async ({ page, context }) => {
  await signInContext(context, freshEmail('hub'));
  await openPanel(page, 'PANEL_TAB=QR');
  const config = (await (await fetch(`${baseUrl()}/v1/config`)).json()) as { helpCenterUrl: string; appUrl: string };
  const tiles: [string, RegExp][] = [
    ['My Tickets', /PANEL_TAB=MY_TICKET/],
    ['Gift Ticket', /PANEL_TAB=GIFT/],
    ['Swap Ticket', /PANEL_TAB=SWAP/],
    ['Resell Ticket', /PANEL_TAB=RESELL/],
    ['Redeem Ticket', /PANEL_TAB=REDEEM/],
    ['Settings', /PANEL_TAB=SETTINGS/],
    ['My QR Code', /PANEL_TAB=QR/],
  ];
  for (const [name, url] of tiles) {
    const hub = await openHub(page);
    await expect(hub.getByText('Coming soon')).toHaveCount(0);
    await hub.getByRole('button', { name, exact: true }).click();
    await expect(page).toHaveURL(url);
    await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  const hub = await openHub(page);
  await expect(hub.getByRole('link', { name: 'Help centre' })).toHaveAttribute(
    'href',
    `${config.helpCenterUrl}?lang=en`,
  );
  await expect(hub.getByRole('link', { name: /Get the app/ })).toHaveAttribute('href', `${config.appUrl}?lang=en`);
});

test('logout asks for confirmation, ends the session and returns to sign-in', async ({ page, context }) => {
  const tokens = await signInContext(context, freshEmail('logout'));
  await openPanel(page, 'PANEL_TAB=QR');
  let hub = await openHub(page);
  await hub.getByRole('button', { name: 'Log out' }).click();
  let confirm = page.getByRole('dialog', { name: 'Log out?' });
  await confirm.screenshot({ path: 'test-results/settings/logout-confirm.png' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
  hub = page.getByRole('dialog', { name: 'Menu' });
  await hub.getByRole('button', { name: 'Log out' }).click();
  confirm = page.getByRole('dialog', { name: 'Log out?' });
  await confirm.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/PANEL_TAB=LOGIN/);
  await expect(page.getByRole('textbox', { name: /e-?mail/i })).toBeVisible();
  expect(
    await page.evaluate(() => [localStorage.getItem('tp.accessToken'), localStorage.getItem('tp.refreshToken')]),
  ).toEqual([null, null]);
  // The server ended the session: the old tokens no longer work.
  expect(
    (await fetch(`${baseUrl()}/v1/auth/me`, { headers: { authorization: `Bearer ${tokens.accessToken}` } })).status,
  ).toBe(401);
  expect(
    (
      await fetch(`${baseUrl()}/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: tokens.refreshToken }),
      })
    ).ok,
  ).toBe(false);
});

test('logout from the modal on the demo host page fires the host callback', async ({ page }) => {
  // The demo host page is served under another origin (localhost) than the panel (127.0.0.1).
  await page.goto(`${hostUrl()}/`);
  const status = page.locator('#panel-status');
  await expect(status).toHaveText('No panel events yet.');
  await page.locator('header').getByRole('button', { name: 'My tickets' }).click();
  const modal = page.frameLocator('iframe[src*="embed=modal"]');
  // Sign in inside the embedded panel as a person would (its storage is the panel origin's, in the iframe).
  await signInViaPanel(modal, freshEmail('host-logout'), {
    givenName: 'Host',
    familyName: 'Tester',
  });
  const hub = modal.getByRole('dialog', { name: 'Menu' });
  await modal.getByRole('button', { name: 'Open menu' }).click();
  await expect(hub).toBeVisible();
  await expect(hub.locator('.hub__head .avatar--initials')).toHaveText('HT');
  await hub.getByRole('button', { name: 'Log out' }).click();
  await modal.getByRole('dialog', { name: 'Log out?' }).getByRole('button', { name: 'Log out' }).click();
  // The loader calls the host's onLogout, which fills the status line.
  await expect(status).toContainText('Logged out of the panel');
  // The panel's local session is gone: it is back on the sign-in step.
  await expect(modal.getByRole('textbox', { name: /e-?mail/i })).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Open menu' })).toHaveCount(0);
});
