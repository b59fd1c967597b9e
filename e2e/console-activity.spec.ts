/**
 * The console's Activity page (issue 25): an owner adds a member on the Members page and finds it on the
 * Activity page with their e-mail, next to the platform operator's creation of the organisation and an API key's
 * event; the action filter keeps one action. Then axe and screenshots of the page (en/es, light/dark, 360 px and
 * desktop) in test-results/console/ to look at, with an import's row folded out (issue 39: the tickets it moved and
 * issued).
 */
import { expect, test, type Page } from './fixtures';
import { mailCount, waitForCode, waitForMail } from './mail';
import { baseUrl, expectAccessible, settled, watchNetwork } from './support';

const tag = Date.now().toString(36);

/** Creates an organisation with its first owner (the platform admin); returns its API key. */
async function createOrganisation(slug: string, ownerEmail: string): Promise<string> {
  const r = await fetch(`${baseUrl()}/v1/admin/organisations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${process.env.E2E_ADMIN_KEY!}`, 'content-type': 'application/json' },
    body: JSON.stringify({ slug, name: `Activity ${tag}`, ownerEmail }),
  });
  expect(r.status, await r.clone().text()).toBe(201);
  return ((await r.json()) as { apiKey: string }).apiKey;
}

/** An event put by the organisation's API key (an integration's change). */
async function putEvent(apiKey: string, externalId: string) {
  const r = await fetch(`${baseUrl()}/v1/org/events/${externalId}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Harbour Nights',
      startsAt: '2030-03-01T18:00:00+11:00',
      endsAt: '2030-03-01T23:00:00+11:00',
      timeZone: 'Australia/Sydney',
      venue: 'Pier 2',
      city: 'Sydney',
      country: 'AU',
    }),
  });
  expect(r.status, await r.clone().text()).toBe(201);
}

/**
 * A ticket type and a ticket of `eventExternalId`, then an import that moves that ticket to a friend and issues
 * another (issue 39: the import's entry names both).
 */
async function importTickets(apiKey: string, eventExternalId: string) {
  const call = async (method: string, path: string, body: string, type = 'application/json') => {
    const r = await fetch(`${baseUrl()}/v1/org/${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': type },
      body,
    });
    expect(r.status, await r.clone().text()).toBeLessThan(300);
  };
  const vip = {
    eventExternalId,
    name: 'VIP',
    priceCents: 15000,
    currency: 'AUD',
    isGiftable: true,
    isResellable: false,
    isSwappable: false,
  };
  await call('PUT', 'ticket-types/vip', JSON.stringify(vip));
  await call(
    'PUT',
    'tickets/VIP-1',
    JSON.stringify({ ticketTypeExternalId: 'vip', holderEmail: `alex-${tag}@a.example` }),
  );
  const csv = `externalId,ticketTypeExternalId,holderEmail\nVIP-1,vip,friend-${tag}@a.example\nVIP-2,vip,kim-${tag}@a.example\n`;
  await call('POST', 'tickets/import', csv, 'text/csv');
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

/** The console screen once its lazy parts and queries have arrived, audited. */
async function audit(page: Page, what: string) {
  await settled(page);
  await expectAccessible(page, what);
}

test.beforeEach(({ context }) => watchNetwork(context));

test('an owner adds a member and sees it, with who did it, on the Activity page', async ({ page }) => {
  const owner = `owner-${tag}@activity.example`;
  const door = `door-${tag}@activity.example`;
  const apiKey = await createOrganisation(`activity-${tag}`, owner);
  await putEvent(apiKey, 'evt-activity');
  await signIn(page, owner);
  const nav = page.getByRole('navigation');
  await nav.getByRole('link', { name: 'Members' }).click();
  await page.getByLabel('E-mail').fill(door);
  await page.getByLabel('Role').selectOption('door');
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(page.getByRole('row', { name: new RegExp(`${door} door`) })).toBeVisible();

  await nav.getByRole('link', { name: 'Activity' }).click();
  const table = page.getByRole('table', { name: 'Activity' });
  const rows = table.locator('tbody tr');
  // Newest first: the member the owner just added, the API key's event, then the platform operator's set-up.
  await expect(rows.first()).toContainText('Member added');
  await expect(rows.first()).toContainText(owner);
  await expect(rows.first()).toContainText('member');
  // The member added by e-mail, not by row id (issue 41 point 12, re-walk: "member 10").
  await expect(rows.first()).toContainText(door);
  await expect(table.getByRole('row').filter({ hasText: 'Event created' })).toContainText(/API key tpk_/);
  await expect(table.getByRole('row').filter({ hasText: 'Event created' })).toContainText('evt-activity');
  await expect(table.getByRole('row').filter({ hasText: 'Organisation created' })).toContainText('Platform operator');
  await expect(rows).toHaveCount(5); // organisation, API key, first owner, event, member

  await page.getByLabel('Action').selectOption({ label: 'Member added' });
  await expect(rows).toHaveCount(2); // the first owner (by the platform operator) and the door member
  // Both name the owner: the first by the member added (by e-mail, not "member 1"), the other as who added it.
  await expect(rows.filter({ hasText: owner })).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Platform operator' })).toContainText(owner);
  await page.getByLabel('Action').selectOption({ label: 'Webhook deleted' });
  await expect(page.getByText('No activity yet.')).toBeVisible();
  await audit(page, 'activity');
});

for (const theme of ['light', 'dark'] as const) {
  for (const lang of ['en', 'es'] as const) {
    test(`activity: axe and screenshots, ${theme}, ${lang}`, async ({ page }) => {
      const email = `owner-act-${theme}-${lang}-${tag}@activity.example`;
      const apiKey = await createOrganisation(`act-${theme}-${lang}-${tag}`, email);
      await putEvent(apiKey, 'evt-shots');
      await importTickets(apiKey, 'evt-shots');
      await page.addInitScript((th) => localStorage.setItem('tp.theme', th), theme);
      await page.setViewportSize({ width: 360, height: 780 });
      await signIn(page, email, lang);
      await page
        .getByRole('navigation')
        .getByRole('link', { name: lang === 'es' ? 'Actividad' : 'Activity' })
        .click();
      await expect(page.getByRole('table', { name: lang === 'es' ? 'Actividad' : 'Activity' })).toBeVisible();
      // The import's row folds out the tickets it moved and issued, with the holders' accounts.
      await page.getByText(lang === 'es' ? '2 entradas' : '2 tickets').click();
      await expect(
        page.getByText(
          lang === 'es'
            ? /VIP-1 reemitida: de la cuenta \d+ a la cuenta \d+/
            : /VIP-1 re-issued: from account \d+ to account \d+/,
        ),
      ).toBeVisible();
      await expect(
        page.getByText(lang === 'es' ? /VIP-2 emitida a la cuenta \d+/ : /VIP-2 issued to account \d+/),
      ).toBeVisible();
      await audit(page, `activity ${theme} ${lang}`);
      for (const [width, height] of [
        [360, 780],
        [1280, 800],
      ]) {
        await page.setViewportSize({ width, height });
        await page.screenshot({ path: `test-results/console/activity-${lang}-${theme}-${width}.png`, fullPage: true });
      }
    });
  }
}

test('the Spanish Activity page says what changed in its own words (issue 41 point 12, re-walk)', async ({ page }) => {
  const owner = `owner-words-${tag}@activity.example`;
  const apiKey = await createOrganisation(`act-words-${tag}`, owner);
  const call = async (method: string, path: string, body?: string, type = 'application/json') => {
    const r = await fetch(`${baseUrl()}/v1/org/${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': type } : {}) },
      ...(body ? { body } : {}),
    });
    expect(r.status, await r.clone().text()).toBeLessThan(300);
    return r;
  };
  await putEvent(apiKey, 'evt-words');
  // The venue changes: the console calls it "recinto", not `venue`.
  const event = {
    name: 'Harbour Nights',
    startsAt: '2030-03-01T18:00:00+11:00',
    endsAt: '2030-03-01T23:00:00+11:00',
    timeZone: 'Australia/Sydney',
    venue: 'Pier 3',
    city: 'Sydney',
    country: 'AU',
  };
  await call('PUT', 'events/evt-words', JSON.stringify(event));
  const ga = {
    eventExternalId: 'evt-words',
    name: 'GA',
    priceCents: 15000,
    currency: 'AUD',
    isGiftable: true,
    isResellable: false,
    isSwappable: false,
  };
  await call('PUT', 'ticket-types/ga', JSON.stringify(ga));
  await call('PUT', 'ticket-types/ga', JSON.stringify({ ...ga, priceCents: 17500 }));
  await call('PUT', 'tickets/W-1', JSON.stringify({ ticketTypeExternalId: 'ga', holderEmail: `w1-${tag}@a.example` }));
  const number = ((await (await call('GET', 'tickets/W-1')).json()) as { number: number }).number;
  await call('DELETE', 'tickets/W-1');
  const staff = `staff-${tag}@activity.example`;
  const member = (await (await call('POST', 'members', JSON.stringify({ email: staff, role: 'staff' }))).json()) as {
    id: number;
  };
  await call('DELETE', `members/${member.id}`);
  await call(
    'POST',
    'tickets/import',
    `externalId,ticketTypeExternalId,holderEmail\nW-2,ga,w2-${tag}@a.example\n`,
    'text/csv',
  );

  await signIn(page, owner, 'es');
  await page.getByRole('navigation').getByRole('link', { name: 'Actividad' }).click();
  const table = page.getByRole('table', { name: 'Actividad' });
  const row = (action: string) => table.getByRole('row').filter({ hasText: action });
  await expect(row('Evento cambiado')).toContainText('Cambios: recinto');
  await expect(row('Tipo de entrada cambiado')).toContainText('Cambios: precio, precio máximo de reventa');
  await expect(row('Tipo de entrada cambiado')).toContainText(/Precio: 150,00\s?(AUD|A\$) → 175,00\s?(AUD|A\$)/);
  await expect(row('Miembro quitado')).toContainText(staff);
  await expect(row('Entrada anulada')).toContainText('W-1');
  await expect(row('Entrada anulada')).toContainText(`Entrada #${number}`);
  const imported = row('Entradas importadas').locator('td').nth(3);
  await expect(imported).toContainText('importación');
  await expect(imported).not.toContainText(/\d{4}-\d\d-\d\dT/);
  await expect(imported).toContainText(/\d{1,2}:\d\d/);
  await settled(page);
  await page.screenshot({ path: `test-results/console/activity-words-es-1280.png`, fullPage: true });
});

test('a member added on the Spanish console is invited in Spanish (issue 41, re-walk)', async ({ page }) => {
  const owner = `owner-invite-${tag}@activity.example`;
  const staff = `staff-invite-${tag}@activity.example`;
  await createOrganisation(`act-invite-${tag}`, owner);
  await signIn(page, owner, 'es');
  await page.getByRole('navigation').getByRole('link', { name: 'Miembros' }).click();
  const before = mailCount();
  await page.getByLabel('Correo electrónico').fill(staff);
  await page.getByRole('button', { name: 'Añadir miembro' }).click();
  await expect(page.getByRole('row', { name: new RegExp(staff) })).toBeVisible();
  const raw = await waitForMail(staff, { after: before });
  // Subject and text are MIME-encoded: the Spanish text's plain-ASCII words, and no English subject.
  expect(raw).toMatch(/consola de organizadores/);
  expect(raw).not.toMatch(/You were added/);
});
