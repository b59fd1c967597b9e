/**
 * The organiser's console (issue 21, "Done when") walked as an owner on a fresh organisation: sign in with the
 * e-mailed code, create an event (today, so its dashboard charts the check-in) and a ticket type by form, import a
 * CSV by upload (a bad file first: every error shown per row and column, nothing written), find a holder by e-mail;
 * the holder gifts the ticket in the real holder panel and the console's history shows it; revoke it, export the
 * attendees and open the CSV, change the colour and see the branded panel change, create a door key, admit the
 * other holder with it on the real /scanner page and see the dashboard count the check-in; add a member (and be
 * refused removing the last owner). Then axe
 * on the console's screens in both themes, and screenshots (en/es, light/dark, 360 px and desktop) in
 * test-results/console/ to look at.
 */
import { expect, test, type Page } from './fixtures';
import { readFileSync } from 'node:fs';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { mailCount, waitForCode, waitForMail } from './mail';
import {
  apiSignIn,
  baseUrl,
  expectAccessible,
  openPanel,
  settled,
  signInContext,
  watchNetwork,
  type Tokens,
} from './support';

const tag = Date.now().toString(36);
const owner = `owner-${tag}@console.example`;
const holder = `holder-${tag}@console.example`;

async function createOrganisation(slug: string, ownerEmail: string) {
  const r = await fetch(`${baseUrl()}/v1/admin/organisations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${process.env.E2E_ADMIN_KEY!}`, 'content-type': 'application/json' },
    body: JSON.stringify({ slug, name: `Harbour ${tag}`, ownerEmail, primaryColor: '#7c3aed' }),
  });
  expect(r.status, await r.clone().text()).toBe(201);
}

async function signIn(page: Page, email: string, lang = 'en') {
  await page.goto(`${baseUrl()}/console?lang=${lang}`);
  const before = mailCount();
  await page.getByLabel(lang === 'es' ? 'Correo electrónico' : 'E-mail').fill(email);
  await page.getByRole('button', { name: lang === 'es' ? 'Enviarme un código' : 'E-mail me a code' }).click();
  const code = await waitForCode(email, before);
  await page.getByLabel(lang === 'es' ? 'Código' : 'Code').fill(code);
  await page.getByRole('button', { name: lang === 'es' ? 'Iniciar sesión' : 'Sign in' }).click();
}

/** The holder's current pass code, read from their QR as the door's camera would. */
async function passCode(tokens: Tokens): Promise<string> {
  const r = await fetch(`${baseUrl()}/v1/auth/access/qr`, {
    headers: { authorization: `Bearer ${tokens.accessToken}` },
  });
  expect(r.status).toBe(200);
  const base64 = (await r.text()).replace(/^data:image\/png;base64,/, '');
  const { data, info } = await sharp(Buffer.from(base64, 'base64'))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const qr = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  if (!qr) throw new Error('the QR pass did not decode');
  return qr.data;
}

/** `datetime-local` value of now + `hours` in UTC (the event's time zone in this walk). */
const utcWall = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString().slice(0, 16);

/** The holder panel's accent colour as drawn. */
const accentOf = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim().toLowerCase());

/** The console screen once its lazy parts and queries have arrived, audited. */
async function audit(page: Page, what: string) {
  await settled(page);
  await expectAccessible(page, what);
}

test.beforeEach(({ context }) => watchNetwork(context));

test('an owner creates an event and a ticket type, imports holders, finds one and revokes their ticket', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const slug = `harbour-${tag}`;
  await createOrganisation(slug, owner);
  await signIn(page, owner);
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();

  // An event by form, in the event's local time.
  await page.getByRole('button', { name: 'New event' }).click();
  await page.getByLabel('Your event id').fill('evt-harbour');
  await page.getByLabel('Name').fill('Harbour Nights');
  await page.getByLabel('Venue').fill('Pier 2');
  await page.getByLabel('City').fill('Sydney');
  await page.getByLabel(/^Time zone/).fill('UTC');
  await page.getByLabel("Starts (event's local time)").fill(utcWall(-1));
  await page.getByLabel("Ends (event's local time)").fill(utcWall(6));
  await page.getByRole('button', { name: 'Save' }).click();
  const card = page.getByRole('article').filter({ hasText: 'Harbour Nights' });
  await expect(card).toContainText('Pier 2, Sydney');

  // A ticket type by form.
  await card.getByRole('button', { name: 'Ticket types: Harbour Nights' }).click();
  await page.getByRole('button', { name: 'New ticket type' }).click();
  await page.getByLabel('Your ticket type id').fill('ga-harbour');
  await page.getByLabel('Name').fill('General Admission');
  await page.getByLabel('Price').fill('89.00');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('row', { name: /ga-harbour General Admission/ })).toBeVisible();

  // A bad file first: every error per row and column, nothing written.
  await page.getByRole('navigation').getByRole('link', { name: 'Import' }).click();
  const bad = [
    'externalId,ticketTypeExternalId,holderEmail',
    'T-1,ga-harbour,not-an-email',
    'T-2,no-such-type,someone@console.example',
    'T-3,ga-harbour,x@console.example',
    'T-3,ga-harbour,y@console.example',
    ',ga-harbour,',
  ].join('\n');
  await page.getByLabel('CSV file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  const errors = page.getByRole('table', { name: /problems; nothing was written/ });
  await expect(errors).toBeVisible();
  const rows = errors.locator('tbody tr');
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(0)).toContainText('2');
  await expect(rows.nth(0)).toContainText('holderEmail');
  await expect(errors).toContainText('ticketTypeExternalId');
  await expect(errors).toContainText('No such ticket type.');
  await expect(errors).toContainText('The same ticket id is on an earlier row.');
  // A row lists all its errors: row 6 has neither an id nor an e-mail.
  await expect(rows.filter({ has: page.getByRole('cell', { name: '6', exact: true }) })).toHaveCount(2);
  await audit(page, 'import errors');

  const good = [
    'externalId;ticketTypeExternalId;holderEmail',
    `T-1;ga-harbour;${holder}`,
    `T-2;ga-harbour;b-${holder}`,
  ].join('\r\n');
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
  await expect(page.getByText('Ready: 2 new, 0 changed, 0 unchanged.')).toBeVisible();
  await page.getByRole('button', { name: 'Import now' }).click();
  await expect(page.getByText('Imported: 2 new, 0 changed, 0 unchanged.')).toBeVisible();

  // Find the holder by e-mail, open the ticket's history, revoke it.
  await page.getByRole('navigation').getByRole('link', { name: 'Holders' }).click();
  await page.getByLabel('Search by e-mail, name or ticket id').fill(holder);
  await page.getByRole('button', { name: 'Find' }).click();
  const table = page.getByRole('table', { name: 'Holders' });
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.locator('tbody tr')).toContainText(holder);
  await expect(table.locator('tbody tr')).toContainText('T-1');

  // The holder gifts T-1 in the real holder panel, by e-mail.
  const friend = `friend-${tag}@console.example`;
  await apiSignIn(friend);
  const holderCtx = await browser.newContext();
  await signInContext(holderCtx, holder);
  const panel = await holderCtx.newPage();
  await openPanel(panel, `org=${slug}&PANEL_TAB=MY_TICKET`);
  await panel
    .getByRole('button', { name: /^Harbour Nights, General Admission/ })
    .first()
    .click();
  await panel.getByRole('button', { name: 'Gift', exact: true }).click();
  await panel.getByRole('textbox', { name: "Recipient's email" }).fill(friend);
  await panel.getByRole('button', { name: 'Confirm recipient' }).click();
  await panel.getByRole('checkbox', { name: /permanently transferred and cannot be taken back/ }).check();
  await panel.getByRole('button', { name: 'Gift ticket' }).click();
  await expect(panel.getByRole('heading', { name: 'Ticket gifted!' })).toBeVisible();
  await holderCtx.close();

  // The console: T-1 is now the friend's; its history says who gifted it to whom. Re-send its e-mail, revoke it.
  await page.getByLabel('Search by e-mail, name or ticket id').fill('T-1');
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(table.locator('tbody tr')).toContainText(friend);
  await expect(table.locator('tbody tr')).toContainText('Transferred');
  await table.getByRole('button', { name: 'Details: T-1' }).click();
  const drawer = page.getByRole('dialog', { name: 'Ticket T-1' });
  await expect(drawer.getByRole('listitem').first()).toContainText('Issued');
  await expect(drawer.getByRole('listitem').nth(1)).toContainText('Gifted');
  const beforeResend = mailCount();
  await drawer.getByRole('button', { name: 'Re-send ticket e-mail' }).click();
  await expect(drawer.getByRole('status')).toHaveText(`Sent again to ${friend}.`);
  await waitForMail(friend, { after: beforeResend, match: (raw) => raw.includes('Harbour Nights') });
  await audit(page, 'ticket drawer');
  await page.screenshot({ path: 'test-results/console/drawer-en-light-1280.png' });
  await drawer.getByRole('button', { name: 'Revoke ticket' }).click();
  await drawer.getByRole('button', { name: 'Yes, revoke' }).click();
  await expect(drawer.getByRole('listitem').last()).toContainText('Revoked');
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(table.locator('tbody tr')).toContainText('Revoked');

  // Export the event's attendees and open the file.
  await page.getByLabel('Event', { exact: true }).selectOption({ label: 'Harbour Nights' });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export attendees (CSV)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('attendees.csv');
  const csv = readFileSync(await file.path(), 'utf8');
  expect(csv).toContain('T-2');
  expect(csv).toContain(`b-${holder}`);

  // Branding: a new colour; the branded holder panel shows it.
  await page.getByRole('navigation').getByRole('link', { name: 'Branding' }).click();
  // The form comes filled with the saved brand; nothing typed is overwritten by a late answer.
  await expect(page.getByLabel('Colour (#rrggbb)')).toHaveValue('#7c3aed');
  await page.getByLabel('Colour (#rrggbb)').fill('#0e7490');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved. The holder panel shows it within a minute.')).toBeVisible();
  // In the light theme the teal is dark enough to be drawn as given (the dark theme lightens it for contrast).
  const viewer = await browser.newPage();
  await viewer.addInitScript(() => localStorage.setItem('tp.theme', 'light'));
  await viewer.goto(`${baseUrl()}/en/?org=${slug}`);
  await expect.poll(() => accentOf(viewer)).toBe('#0e7490');
  await viewer.close();

  // A door key, shown once; the real scanner page admits T-2's holder with it.
  await page.getByRole('navigation').getByRole('link', { name: 'Keys' }).click();
  await page.getByLabel('Name (e.g. North gate)').fill('North gate');
  await page.getByRole('button', { name: 'Create door key' }).click();
  const doorKey = (await page.getByTestId('shown-once').textContent())!.trim();
  expect(doorKey).toMatch(/^tpd_/);
  await expect(page.getByRole('row', { name: /^North gate tpd_/ })).toBeVisible();
  await audit(page, 'keys');
  const door = await browser.newPage();
  await door.goto(`${baseUrl()}/scanner`);
  await door.getByLabel('Scanner key').fill(doorKey);
  await door.getByRole('button', { name: 'Start scanning' }).click();
  const eventSelect = door.getByLabel('Event');
  const option = eventSelect.locator('option', { hasText: 'Harbour Nights' });
  await eventSelect.selectOption((await option.first().getAttribute('value')) ?? '');
  await expect(door.getByRole('status')).toContainText('Ready');
  const code = door.getByLabel('Pass code');
  await code.fill(await passCode(await apiSignIn(`b-${holder}`)));
  await code.press('Enter');
  await expect(door.getByRole('status').locator('.verdict')).toHaveText('ADMITTED');
  await door.close();

  // The dashboard counts it: checked in 1, one bar in the chart.
  await page.getByRole('navigation').getByRole('link', { name: 'Events' }).click();
  await page.getByRole('button', { name: 'Dashboard: Harbour Nights' }).click();
  await expect(page.getByTestId('stat-checkedIn')).toHaveText('1');
  await expect(page.getByTestId('stat-issued')).toHaveText('1');
  await expect(page.getByTestId('chart-summary')).toContainText('1 check-in;');
  await expect(page.getByTestId('check-in-chart').locator('canvas')).toBeVisible();
  await audit(page, 'dashboard');
  for (const theme of ['light', 'dark'] as const) {
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `test-results/console/dashboard-en-${theme}-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    if (theme === 'light') {
      await page.getByRole('button', { name: 'Dark theme' }).click();
      await audit(page, 'dashboard dark');
    }
  }
  await page.getByRole('button', { name: 'Light theme' }).click();
  await page.getByRole('button', { name: 'Back' }).click();

  // Members: add a door member; the last owner cannot be removed.
  await page.getByRole('navigation').getByRole('link', { name: 'Members' }).click();
  await page.getByLabel('E-mail').fill(`door-${tag}@console.example`);
  await page.getByLabel('Role').selectOption('door');
  await page.getByRole('button', { name: 'Add member' }).click();
  const members = page.getByRole('table');
  await expect(members.getByRole('row', { name: new RegExp(`door-${tag}@console.example door`) })).toBeVisible();
  await members.getByRole('button', { name: `Remove: ${owner}` }).click();
  await page.getByRole('button', { name: 'Yes, remove' }).click();
  await expect(page.getByRole('alert')).toHaveText('The organisation must keep an owner: add another owner first.');
  await audit(page, 'members');
});

for (const theme of ['light', 'dark'] as const) {
  for (const lang of ['en', 'es'] as const) {
    test(`axe and screenshots: ${theme}, ${lang}`, async ({ page }) => {
      const slug = `shots-${theme}-${lang}-${tag}`;
      const email = `owner-${theme}-${lang}-${tag}@console.example`;
      await createOrganisation(slug, email);
      await page.addInitScript((th) => localStorage.setItem('tp.theme', th), theme);
      for (const [width, height] of [
        [360, 780],
        [1280, 800],
      ]) {
        await page.setViewportSize({ width, height });
        await page.goto(`${baseUrl()}/console?lang=${lang}`);
        await expect(page.locator('main h1')).toBeVisible();
        await audit(page, `sign-in ${theme} ${lang} ${width}`);
        await page.screenshot({ path: `test-results/console/sign-in-${lang}-${theme}-${width}.png`, fullPage: true });
      }
      await page.setViewportSize({ width: 360, height: 780 });
      await signIn(page, email, lang);
      await expect(page.getByRole('navigation')).toBeVisible();
      const nav = page.getByRole('navigation');
      for (const [i, name] of ['events', 'holders', 'import', 'webhooks', 'keys', 'branding', 'members'].entries()) {
        await nav.getByRole('link').nth(i).click();
        await audit(page, `${name} ${theme} ${lang}`);
        for (const [width, height] of [
          [360, 780],
          [1280, 800],
        ]) {
          await page.setViewportSize({ width, height });
          await page.screenshot({ path: `test-results/console/${name}-${lang}-${theme}-${width}.png`, fullPage: true });
        }
        await page.setViewportSize({ width: 360, height: 780 });
      }
    });
  }
}

test('a list that fails to load says so in both languages, and Try again loads it', async ({ page }) => {
  const email = `owner-retry-${tag}@console.example`;
  await createOrganisation(`retry-${tag}`, email);
  // The members list fails twice (the screen in English, then in Spanish), then answers.
  let failures = 0;
  await page.route('**/v1/org/members', (route) =>
    route.request().method() === 'GET' && failures++ < 2
      ? route.fulfill({ status: 429, json: { message: 'api.too_many_requests' } })
      : route.fallback(),
  );
  await page.setViewportSize({ width: 360, height: 780 });
  await signIn(page, email);
  const nav = page.getByRole('navigation');
  await nav.getByRole('link', { name: 'Members' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Too many requests. Wait a moment and try again.');
  await audit(page, 'members list failed');
  await page.screenshot({ path: 'test-results/console/list-failed-en-light-360.png', fullPage: true });

  await page.getByRole('link', { name: 'Español' }).click();
  await nav.getByRole('link', { name: 'Miembros' }).click();
  await expect(alert).toContainText('Demasiadas solicitudes');
  await page.getByRole('button', { name: 'Tema oscuro' }).click();
  await page.screenshot({
    path: 'test-results/console/list-failed-es-dark-360.png',
    fullPage: true,
    animations: 'disabled',
  });
  await alert.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByRole('table').getByRole('row', { name: new RegExp(email) })).toBeVisible();
  await expect(alert).toHaveCount(0);
  expect(failures).toBe(3);
});
