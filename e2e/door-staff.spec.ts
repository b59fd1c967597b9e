/**
 * Door staff (issue 40 point 7), nothing mocked, on a fresh organisation: the owner makes a door key in the
 * console and the door phone (360 px) opens its set-up link, so nobody types the 56-character key; the key
 * leaves the address bar and the picked event shows in full under the picker. Then a pass whose ticket was
 * gifted away says TICKET MOVED without naming the new holder, a voided one TICKET VOIDED; a pass admitted
 * offline that another door admitted first is refused on sync and listed, and door staff clear the list.
 * Screenshots (en/es, light/dark, 360 px and desktop) go to test-results/door-staff/ to look at.
 */
import { expect, test, type Page } from './fixtures';
import jsQR from 'jsqr';
import sharp from 'sharp';
import type { Locale, MyTicket } from '@tp/contract';
import { waitForCode, mailCount } from './mail';
import { apiSignIn, baseUrl, expectAccessible, type Tokens } from './support';

const tag = Date.now().toString(36);
const slug = `door-${tag}`;
const owner = `owner-${tag}@door.example`;
const giver = `giver-${tag}@door.example`;
const friend = `friend-${tag}@door.example`;
const voided = `voided-${tag}@door.example`;
const late = `late-${tag}@door.example`;
const EVENT_NAME = `The Long Harbour Midsummer Night Festival ${tag}`;
const PHONE = { width: 360, height: 780 };
const shots = 'test-results/door-staff';

/** An organisation API call with the organisation's key. */
async function orgApi(apiKey: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${baseUrl()}/v1/org/${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(r.status, await r.clone().text()).toBeLessThan(300);
  return r;
}

/** A fresh organisation with `owner`, an event on now (its passes revealed) and one ticket for each holder. */
async function setUp(): Promise<string> {
  const r = await fetch(`${baseUrl()}/v1/admin/organisations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${process.env.E2E_ADMIN_KEY!}`, 'content-type': 'application/json' },
    body: JSON.stringify({ slug, name: `Door ${tag}`, ownerEmail: owner }),
  });
  expect(r.status, await r.clone().text()).toBe(201);
  const { apiKey } = (await r.json()) as { apiKey: string };
  const now = Date.now();
  await orgApi(apiKey, 'PUT', 'events/evt-door', {
    name: EVENT_NAME,
    venue: 'Pier 9',
    city: 'Wellington',
    country: 'NZ',
    startsAt: new Date(now - 3_600_000).toISOString(),
    endsAt: new Date(now + 6 * 3_600_000).toISOString(),
    timeZone: 'Pacific/Auckland',
  });
  await orgApi(apiKey, 'PUT', 'ticket-types/ga-door', {
    eventExternalId: 'evt-door',
    name: 'General Admission',
    priceCents: 5000,
    currency: 'NZD',
    isGiftable: true,
    isResellable: false,
    isSwappable: false,
  });
  for (const [i, email] of [giver, voided, late].entries())
    await orgApi(apiKey, 'PUT', `tickets/d-${i}`, { ticketTypeExternalId: 'ga-door', holderEmail: email });
  return apiKey;
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

/** The holder's ticket ids for the event. */
async function ticketIds(tokens: Tokens): Promise<number[]> {
  const r = await fetch(`${baseUrl()}/v1/list/ticket_listing?status=UPCOMING`, {
    headers: { authorization: `Bearer ${tokens.accessToken}` },
  });
  const tickets = (await r.json()) as MyTicket[];
  return tickets.filter((t) => t.eventName === EVENT_NAME).map((t) => t.userTicketId);
}

async function consoleSignIn(page: Page, lang: Locale = 'en') {
  const es = lang === 'es';
  await page.goto(`${baseUrl()}/console?lang=${lang}`);
  const before = mailCount();
  await page.getByLabel(es ? 'Correo electrónico' : 'E-mail').fill(owner);
  await page.getByRole('button', { name: es ? 'Enviarme un código' : 'E-mail me a code' }).click();
  await page.getByLabel(es ? 'Código' : 'Code').fill(await waitForCode(owner, before));
  await page.getByRole('button', { name: es ? 'Iniciar sesión' : 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: es ? 'Eventos' : 'Events' })).toBeVisible();
}

/** Types a pass into the door and presses Enter; returns the result panel. */
async function scan(door: Page, code: string) {
  const field = door.locator('#code');
  await field.fill(code);
  await field.press('Enter');
  return door.locator('#result');
}

test('door staff: set up by link, moved and voided passes, refused-on-sync list cleared (issue 40 point 7)', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const apiKey = await setUp();
  const [giverT, friendT, voidedT, lateT] = await Promise.all(
    [giver, friend, voided, late].map((email) => apiSignIn(email, { givenName: 'Fran', familyName: 'Friendly' })),
  );

  // (a) The owner makes a door key; the console offers its set-up link and QR.
  const consoleCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const consolePage = await consoleCtx.newPage();
  await consoleSignIn(consolePage);
  await consolePage.getByRole('navigation').getByRole('link', { name: 'Keys' }).click();
  await consolePage.getByLabel('Name (e.g. North gate)').fill('Phone at gate 1');
  await consolePage.getByRole('button', { name: 'Create door key' }).click();
  const doorKey = (await consolePage.getByTestId('shown-once').textContent())!.trim();
  const setup = consolePage.getByRole('region', { name: 'Set up a door device' });
  await expect(setup).toBeVisible();
  await expect(setup.getByRole('img', { name: 'QR code of the door set-up link' })).toBeVisible();
  const link = (await setup.getByRole('link', { name: 'Open the door scanner with this key' }).getAttribute('href'))!;
  expect(link).toBe(`${baseUrl()}/scanner?lang=en#key=${encodeURIComponent(doorKey)}`);
  await expectAccessible(consolePage, 'door set-up');
  await setup.screenshot({ path: `${shots}/console-setup-en-light.png` });

  // The door phone opens the link: no key to type, straight to scanning; the key leaves the address bar.
  const doorCtx = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  const door = await doorCtx.newPage();
  await door.goto(link);
  const eventSelect = door.getByLabel('Event');
  await expect(eventSelect).toBeVisible();
  expect(door.url()).toBe(`${baseUrl()}/scanner?lang=en`);
  expect(await door.evaluate(() => localStorage.getItem('tp.scanner.key'))).toBe(doorKey);
  const option = eventSelect.locator('option', { hasText: EVENT_NAME });
  await eventSelect.selectOption((await option.first().getAttribute('value')) ?? '');
  await expect(door.locator('#door-status')).toContainText('admissions list updated');
  // (d) The picked event in full under the picker, wrapped within the 360 px screen.
  const detail = door.locator('#event-detail');
  await expect(detail).toContainText(EVENT_NAME);
  await expect(detail).toContainText('Wellington');
  const box = (await detail.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  expect(await detail.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await door.screenshot({ path: `${shots}/door-ready-en-light-360.png`, fullPage: true });

  // (b) The giver gifts the ticket away: their pass says it moved, never naming the friend.
  const [given] = await ticketIds(giverT);
  const gift = await fetch(`${baseUrl()}/v1/mobile/giftTicket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${giverT.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ userTicketId: given, username: friend }),
  });
  expect(gift.status, await gift.clone().text()).toBe(200);
  let result = await scan(door, await passCode(giverT));
  await expect(result.locator('.verdict')).toHaveText('TICKET MOVED');
  await expect(result).toContainText('gifted or resold to someone else');
  await expect(result).not.toContainText(friend);
  await expect(result).toContainText('Holder: Fran Friendly');
  await expectAccessible(door, 'ticket moved');
  await door.screenshot({ path: `${shots}/door-moved-en-light-360.png`, fullPage: true });
  // The friend's pass admits it.
  result = await scan(door, await passCode(friendT));
  await expect(result.locator('.verdict')).toHaveText('ADMITTED');

  // The organiser voids a ticket: its holder's pass says so.
  await orgApi(apiKey, 'DELETE', 'tickets/d-1');
  result = await scan(door, await passCode(voidedT));
  await expect(result.locator('.verdict')).toHaveText('TICKET VOIDED');
  await expect(result).toContainText('The organiser voided this ticket');

  // (e) Offline, the door admits a pass another door admits first; back online the server refuses it.
  const lateCode = await passCode(lateT);
  await doorCtx.setOffline(true);
  result = await scan(door, lateCode);
  await expect(result.locator('.verdict')).toHaveText('ADMITTED');
  await expect(result).toContainText('decided offline, will sync');
  const other = await fetch(`${baseUrl()}/v1/access/check-in`, {
    method: 'POST',
    headers: { 'x-scanner-key': doorKey, 'content-type': 'application/json' },
    body: JSON.stringify({ code: await passCode(lateT), eventId: Number(await eventSelect.inputValue()) }),
  });
  expect(other.status).toBe(200);
  await doorCtx.setOffline(false);
  const conflicts = door.getByRole('region', { name: 'Not recorded on sync' });
  await expect(conflicts).toBeVisible({ timeout: 30_000 });
  await expect(conflicts).toContainText('already admitted at another door');
  await expectAccessible(door, 'refused on sync');
  await door.screenshot({ path: `${shots}/door-refused-en-light-360.png`, fullPage: true });
  await conflicts.getByRole('button', { name: 'Clear this list' }).click();
  await expect(conflicts).toBeHidden();
  // It stays cleared over a reload.
  await door.reload();
  await expect(eventSelect).toBeVisible();
  await expect(door.locator('#door-status')).toContainText('Online');
  await expect(conflicts).toBeHidden();

  // Screens to look at: Spanish and dark, phone and desktop.
  for (const [lang, scheme, viewport] of [
    ['es', 'dark', PHONE],
    ['es', 'light', { width: 1280, height: 900 }],
    ['en', 'dark', { width: 1280, height: 900 }],
  ] as const) {
    const ctx = await browser.newContext({ viewport, colorScheme: scheme });
    const page = await ctx.newPage();
    await page.goto(link.replace('lang=en', `lang=${lang}`));
    const select = page.locator('#event');
    await select.selectOption(await select.locator('option', { hasText: EVENT_NAME }).first().getAttribute('value'));
    await scan(page, await passCode(giverT));
    await expect(page.locator('#result .verdict')).toHaveText(lang === 'es' ? 'ENTRADA TRANSFERIDA' : 'TICKET MOVED');
    await page.screenshot({ path: `${shots}/door-moved-${lang}-${scheme}-${viewport.width}.png`, fullPage: true });
    await ctx.close();
  }
  const esConsole = await browser.newContext({ viewport: PHONE, colorScheme: 'dark' });
  const esPage = await esConsole.newPage();
  await consoleSignIn(esPage, 'es');
  await esPage.getByRole('navigation').getByRole('link', { name: 'Claves' }).click();
  await esPage.getByLabel('Nombre (p. ej. Puerta norte)').fill('Puerta 2');
  await esPage.getByRole('button', { name: 'Crear clave de puerta' }).click();
  await expect(esPage.getByRole('region', { name: 'Configurar un dispositivo de puerta' })).toBeVisible();
  await esPage.screenshot({ path: `${shots}/console-setup-es-dark-360.png`, fullPage: true });
  await esConsole.close();
  await consoleCtx.close();
  await doorCtx.close();
});
