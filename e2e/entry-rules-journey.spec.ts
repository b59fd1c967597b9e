/**
 * The festival journey (issue 48), through the real pages at every end: an organiser, in the console, gives a
 * ticket type a two-day pass with re-entry and a VIP zone and makes three door keys (the main gate, an exit door,
 * a Backstage door); the holder's ticket page and QR screen show the days; the holder's QR, read from the phone's
 * screen, is typed into /scanner pages in entry and exit mode, online and offline: admitted, refused on the wrong
 * day (a second ticket valid tomorrow only), already inside, let out, admitted again, refused at the wrong zone; the
 * offline exit syncs; the console's dashboard counts who is inside.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from './fixtures';
import { createOrganisation, signInConsole } from './console-steps';
import { openDoor, qrImage, showPassAtDoor } from './door-steps';
import { baseUrl, freshEmail, signInContext } from './support';

const HOUR = 3_600_000;
const ZONE = 'Australia/Sydney';

/** The event-local date (YYYY-MM-DD) of `at` in Sydney. */
const localDay = (at: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
/** The panel's and the door's short day: "Tue 1". */
const shortDay = (day: string) => {
  const p = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', day: 'numeric' }).formatToParts(
    new Date(`${day}T12:00:00Z`),
  );
  return `${p.find((x) => x.type === 'weekday')!.value} ${p.find((x) => x.type === 'day')!.value}`;
};

/** The organisation API, as the organiser's own systems call it (the event, the tickets; not the rules). */
function orgApi(apiKey: string) {
  return async (path: string, body: unknown) => {
    const r = await fetch(`${baseUrl()}/v1/org/${path}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(r.status, await r.clone().text()).toBe(201);
  };
}

/** Creates a door key in the console's Keys screen; returns the key, shown once. */
async function doorKey(console: Page, name: string, mode: 'entry' | 'exit', zone = ''): Promise<string> {
  await console.getByRole('navigation').getByRole('link', { name: 'Keys' }).click();
  await console.getByLabel('Name (e.g. North gate)').fill(name);
  await console.getByLabel('Mode').selectOption(mode);
  await console.getByLabel('Zone (e.g. VIP; empty: the general doors)').fill(zone);
  await console.getByRole('button', { name: 'Create door key' }).click();
  const shown = console.getByTestId('shown-once');
  const key = (await shown.textContent())!.trim();
  expect(key).toMatch(/^tpd_/);
  await expect(console.getByRole('row', { name: new RegExp(`^${name} tpd_`) })).toBeVisible();
  // Put away, so that the next key's box is a new one (never this key read again).
  await console.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  return key;
}

/** A /scanner page of its own (a context that can lose its signal) with `key`, on the organisation's one event. */
async function door(browser: Browser, key: string, eventName: string) {
  const context = await browser.newContext({ viewport: { width: 400, height: 860 } });
  const page = await context.newPage();
  await openDoor(page, key, eventName);
  return { context, page };
}

test('festival: console rules and doors → holder sees the days → entry and exit doors, online and offline', async ({
  page: console,
  browser,
}) => {
  test.setTimeout(300_000);
  const tag = Date.now().toString(36);
  const owner = freshEmail(`fest-owner-${tag}`);
  const holderEmail = freshEmail(`fest-holder-${tag}`);
  const apiKey = await createOrganisation(`fest-${tag}`, owner);
  const put = orgApi(apiKey);
  const now = Date.now();
  const today = localDay(now);
  const tomorrow = localDay(now + 24 * HOUR);
  const eventName = `Lantern Festival ${tag}`;
  await put('events/lantern', {
    name: eventName,
    venue: 'The Domain',
    city: 'Sydney',
    country: 'AU',
    startsAt: new Date(now - HOUR).toISOString(),
    endsAt: new Date(now + 40 * HOUR).toISOString(),
    timeZone: ZONE,
  });
  const type = { eventExternalId: 'lantern', priceCents: 9000, currency: 'AUD', isGiftable: true };
  await put('ticket-types/weekend', { ...type, name: 'Weekend Pass', isResellable: false, isSwappable: false });
  await put('ticket-types/day2', {
    ...type,
    name: 'Day Two',
    isResellable: false,
    isSwappable: false,
    entryRules: { days: [tomorrow], entries: 'once' },
  });
  await put('tickets/w-1', { ticketTypeExternalId: 'weekend', holderEmail });
  await put('tickets/d-1', { ticketTypeExternalId: 'day2', holderEmail });

  // The organiser, in the console: the Weekend Pass admits today and tomorrow, with re-entry, and to the VIP zone.
  await signInConsole(console, owner);
  await console
    .getByRole('article')
    .filter({ hasText: eventName })
    .getByRole('button', { name: `Ticket types: ${eventName}` })
    .click();
  await console.getByRole('button', { name: /Edit.*Weekend Pass/ }).click();
  await console.getByLabel('Entries').selectOption('reentry');
  const days = console.getByTestId('entry-days');
  await days.locator(`input[value="${today}"]`).check();
  await days.locator(`input[value="${tomorrow}"]`).check();
  await console.getByLabel('Zones').fill('VIP');
  await console.getByRole('button', { name: 'Add zone' }).click();
  await expect(console.getByTestId('zone-tags')).toContainText('VIP');
  await console.getByRole('button', { name: 'Save' }).click();
  await expect(console.getByRole('row', { name: /Weekend Pass/ })).toContainText('VIP');
  const mainGate = await doorKey(console, 'Main gate', 'entry');
  const exitDoor = await doorKey(console, 'Exit', 'exit');
  const backstage = await doorKey(console, 'Backstage door', 'entry', 'Backstage');

  // The holder's phone: the ticket page and the QR screen say which days the pass admits.
  const phoneContext: BrowserContext = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await signInContext(phoneContext, holderEmail);
  const phone = await phoneContext.newPage();
  await phone.goto(`${baseUrl()}/en/?PANEL_TAB=QR`);
  await qrImage(phone);
  const passDays = phone.getByTestId('pass-entry').filter({ hasText: 'Weekend Pass' });
  await expect(passDays).toContainText(`${shortDay(today)} · ${shortDay(tomorrow)}`);
  await expect(phone.getByTestId('pass-entry').filter({ hasText: 'Day Two' })).toContainText(shortDay(tomorrow));

  // The main gate, online: the Weekend Pass gets in; Day Two is not valid today, and the door says which day it is.
  const gate = await door(browser, mainGate, eventName);
  await expect(gate.page.locator('#door-mode')).toHaveAttribute('data-mode', 'entry');
  expect(await showPassAtDoor(gate.page, phone)).toBe('ADMITTED');
  const gateResult = gate.page.locator('#result');
  await expect(gateResult).toContainText('Weekend Pass');
  await expect(gateResult).toContainText(`Day Two · Not valid today (valid ${shortDay(tomorrow)})`);
  // Scanned again: inside already.
  expect(await showPassAtDoor(gate.page, phone)).toBe('ALREADY INSIDE');
  await expect(gateResult).toContainText('Already inside — scan out first');

  // The exit door, offline: it lets the Weekend Pass out from its own list, and syncs once back online.
  const exit = await door(browser, exitDoor, eventName);
  await expect(exit.page.locator('#door-mode')).toHaveAttribute('data-mode', 'exit');
  await exit.context.setOffline(true);
  await expect(exit.page.locator('#door-status')).toHaveAttribute('data-online', 'false');
  expect(await showPassAtDoor(exit.page, phone)).toBe('EXIT RECORDED');
  await expect(exit.page.locator('#result')).toContainText('decided offline, will sync');
  await exit.context.setOffline(false);
  await expect(exit.page.locator('#result .verdict')).toHaveText('1 check-in synced, none refused', {
    timeout: 40_000,
  });

  // Back in at the main gate (re-entry), online; the holder's ticket page then says since when they are inside.
  expect(await showPassAtDoor(gate.page, phone)).toBe('ADMITTED');
  await phone.goto(`${baseUrl()}/en/?PANEL_TAB=MY_TICKET`);
  await phone.getByRole('button', { name: new RegExp(`^${eventName}, Weekend Pass`) }).click();
  await expect(phone).toHaveURL(/USER_TICKET_ID=/);
  const summary = phone.getByTestId('entry-summary');
  await expect(summary).toHaveCount(1);
  await expect(summary.getByTestId('entry-days')).toHaveText(`${shortDay(today)} ✓ used · ${shortDay(tomorrow)}`);
  await expect(summary.getByTestId('entry-state')).toContainText('Inside since');
  await expect(summary.getByTestId('entry-zones')).toHaveText('Zones: VIP');
  await phone.goto(`${baseUrl()}/en/?PANEL_TAB=QR`);

  // The Backstage door, offline: the Weekend Pass is not for its zone, decided from its list alone.
  const back = await door(browser, backstage, eventName);
  await expect(back.page.locator('#door-mode')).toContainText('Backstage');
  await back.context.setOffline(true);
  await expect(back.page.locator('#door-status')).toHaveAttribute('data-online', 'false');
  expect(await showPassAtDoor(back.page, phone)).toBe('WRONG ZONE');
  await expect(back.page.locator('#result')).toContainText('Not for this zone: Backstage (valid for VIP)');
  await expect(back.page.locator('#result')).toContainText('decided offline');

  // The organiser's dashboard: one person inside through the general doors, one ticket entered today.
  await console.getByRole('navigation').getByRole('link', { name: 'Events' }).click();
  await console.getByRole('button', { name: `Dashboard: ${eventName}` }).click();
  await expect(console.getByTestId('inside-general')).toHaveText('1', { timeout: 10_000 });
  await expect(console.getByTestId(`entries-${today}`)).toHaveText('1');

  for (const c of [phoneContext, gate.context, exit.context, back.context]) await c.close();
});
