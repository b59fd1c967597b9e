/**
 * The organiser's console (issue 21) walked as an owner on a fresh organisation: sign in with the e-mailed
 * code, create an event and a ticket type by form, import a CSV by upload (a bad file first: every error shown
 * per row and column, nothing written), find a holder by e-mail, open the ticket's history, revoke it, add a
 * member (and be refused removing the last owner). Then axe
 * on the console's screens in both themes, and screenshots (en/es, light/dark, 360 px and desktop) in
 * test-results/console/ to look at.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { mailCount, waitForCode } from './mail';
import { baseUrl } from './support';

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
  await page.getByRole('button', { name: lang === 'es' ? 'Entrar' : 'Sign in' }).click();
}

async function audit(page: Page, what: string) {
  await page.waitForLoadState('networkidle');
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const found = result.violations.map(
    (v) => `${what}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
  );
  expect(found, found.join('\n')).toEqual([]);
}

test('an owner creates an event and a ticket type, imports holders, finds one and revokes their ticket', async ({
  page,
}) => {
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
  await page.getByLabel("Starts (event's local time)").fill('2030-03-01T18:00');
  await page.getByLabel("Ends (event's local time)").fill('2030-03-01T23:00');
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
  await page.getByRole('button', { name: 'Import' }).click();
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
  await page.getByRole('navigation').getByRole('button', { name: 'Holders' }).click();
  await page.getByLabel('Search by e-mail, name or ticket id').fill(holder);
  await page.getByRole('button', { name: 'Find' }).click();
  const table = page.getByRole('table', { name: 'Holders' });
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.locator('tbody tr')).toContainText(holder);
  await table.getByRole('button', { name: 'Details: T-1' }).click();
  const drawer = page.getByRole('dialog', { name: 'Ticket T-1' });
  await expect(drawer.getByRole('listitem').first()).toContainText('Issued');
  await audit(page, 'ticket drawer');
  await drawer.getByRole('button', { name: 'Revoke ticket' }).click();
  await drawer.getByRole('button', { name: 'Yes, revoke' }).click();
  await expect(drawer.getByRole('listitem').last()).toContainText('Revoked');
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(table.locator('tbody tr')).toContainText('Revoked');

  // Members: add a door member; the last owner cannot be removed.
  await page.getByRole('navigation').getByRole('button', { name: 'Members' }).click();
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
      for (const [i, name] of ['events', 'holders', 'import', 'branding', 'members'].entries()) {
        await nav.getByRole('button').nth(i).click();
        await page.waitForLoadState('networkidle');
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
