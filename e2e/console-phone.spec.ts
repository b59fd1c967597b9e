/**
 * Issue 41, point 5 (the layout half): the organiser console on a phone. Every console screen, at 360 and 390 px, in
 * English (light theme) and Spanish (dark theme, the longer strings), is no wider than the screen
 * (`document.documentElement.scrollWidth <= innerWidth`): tables scroll inside their own region. The ticket drawer's
 * Close button lies inside the viewport, is the element hit at its centre, and closes the drawer; every table's row
 * actions lie on the screen without a sideways swipe. The organisation's
 * data is made long on purpose (a long event name, long e-mail addresses, a long webhook URL, an API and a door key).
 * Screenshots of each screen at 360 px, in both themes, in test-results/console-phone/.
 */
import type { Locale } from '@tp/contract';
import { expect, test, type Page } from './fixtures';
import { readFileSync } from 'node:fs';
import { createOrganisation, signInConsole } from './console-steps';
import { baseUrl, settled, watchNetwork } from './support';

const tag = Date.now().toString(36);
// A phone: the layout viewport follows the meta viewport, and a page wider than the screen widens it (how a phone
// pushed the drawer's Close off-screen).
test.use({ isMobile: true, hasTouch: true, viewport: { width: 360, height: 780 } });
type Catalogue = { console: Record<string, Record<string, string>> & Record<string, string> };
const texts = (lang: Locale) =>
  (JSON.parse(readFileSync(`apps/panel/src/console/locales/console-${lang}.json`, 'utf8')) as Catalogue).console;

/** The page's width against the screen's: the page must not scroll sideways. */
async function expectFits(page: Page, what: string, width: number) {
  await settled(page);
  const { scroll, inner, wide } = await page.evaluate((screen) => {
    // The outermost elements that reach past the screen's edge, named for the failure message.
    const name = (e: Element) =>
      `${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? `.${e.className.split(' ').join('.')}` : ''} (${Math.round(e.getBoundingClientRect().right)} px)`;
    const scrolled = (e: Element) => {
      for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== 'visible') return true;
      return false;
    };
    const past = Array.from(document.querySelectorAll('body *')).filter(
      (e) => e.getBoundingClientRect().right > screen + 0.5 && !scrolled(e),
    );
    return {
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
      wide: past.slice(0, 6).map(name).join(', '),
    };
  }, width);
  expect
    .soft(scroll, `${what}: the page is ${scroll} px wide on a ${inner} px screen; past the edge: ${wide}`)
    .toBeLessThanOrEqual(inner);
  expect
    .soft(inner, `${what}: the screen is ${width} px wide, the page's viewport ${inner} px; past the edge: ${wide}`)
    .toBe(width);
}

/**
 * Every button and link in a table's rows lies on the screen and is what a finger hits at its centre, without a
 * sideways swipe, and no table is wider than its region (issue 41, point 5 re-walk: Details, Revoke and Remove sat
 * past the edge of their scrolling table).
 */
async function expectRowActionsOnScreen(page: Page, what: string, width: number) {
  const off = await page.evaluate((screen) => {
    const actions = Array.from(document.querySelectorAll('.table-wrap tbody :is(button, a)'));
    return actions
      .filter((e) => {
        if (e.getBoundingClientRect().width === 0) return false;
        // Scrolled to vertically only (the page, not the table's own scroller): below the fold nothing is hit.
        window.scrollBy(0, e.getBoundingClientRect().top - window.innerHeight / 2);
        const r = e.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return r.left < 0 || r.right > screen + 0.5 || !(hit && (hit === e || e.contains(hit)));
      })
      .map((e) => `${e.textContent?.trim()} (${Math.round(e.getBoundingClientRect().right)} px)`);
  }, width);
  expect.soft(off, `${what}: row actions off the screen or covered`).toEqual([]);
  // Nor does any column hide past the table's edge (the re-walk: Status under a sticky Details column).
  const sideways = await page.evaluate(() =>
    Array.from(document.querySelectorAll('.table-wrap'))
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => `${e.getAttribute('aria-label')}: ${e.scrollWidth} px in ${e.clientWidth} px`),
  );
  expect.soft(sideways, `${what}: tables wider than their region`).toEqual([]);
}

/** Makes the organisation's data through the organiser API: an event with a long name, tickets, a webhook. */
async function fill(apiKey: string, event: string) {
  const call = async (method: string, path: string, body: object) => {
    const r = await fetch(`${baseUrl()}/v1/org/${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(r.status, await r.clone().text()).toBeLessThan(300);
  };
  const start = Date.now() + 86_400_000;
  await call('PUT', `events/${event}`, {
    name: 'Harbour Nights Summer Festival of Lights and Music',
    venue: 'Overseas Passenger Terminal',
    city: 'Sydney',
    country: 'AU',
    timeZone: 'Australia/Sydney',
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(start + 6 * 3600_000).toISOString(),
  });
  await call('PUT', `ticket-types/${event}-general-admission`, {
    eventExternalId: event,
    name: 'General Admission with Early Entry',
    priceCents: 12_950,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  });
  for (const n of [1, 2])
    await call('PUT', `tickets/T-100${n}`, {
      ticketTypeExternalId: `${event}-general-admission`,
      holderEmail: `a-rather-long-holder-address-${n}-${tag}@subdomain.console-example.com`,
    });
  await call('POST', 'webhooks', {
    url: `https://hooks.console-example.com/integrations/ticketing/${tag}/receive-every-event`,
    events: ['ticket.issued'],
  });
}

for (const lang of ['en', 'es'] as const) {
  test(`every console screen fits a phone: ${lang}`, async ({ page, context }) => {
    test.setTimeout(240_000);
    watchNetwork(context);
    const c = texts(lang);
    const theme = lang === 'es' ? 'dark' : 'light';
    await page.addInitScript((th) => localStorage.setItem('tp.theme', th), theme);
    const owner = `owner-phone-${lang}-${tag}@console.example`;
    const event = `evt-phone-${lang}-${tag}`;
    const apiKey = await createOrganisation(
      `phone-${lang}-${tag}`,
      owner,
      'Harbour Nights Presents: The Long Organisation Name',
    );
    await fill(apiKey, event);
    await page.setViewportSize({ width: 360, height: 780 });
    await signInConsole(page, owner, lang);
    const nav = page.getByRole('navigation');
    const go = (screen: string) => nav.getByText(c.nav[screen], { exact: true }).click();

    /** Switches the theme with the console's own button (a click event: the drawer's backdrop covers the header). */
    const setTheme = async (th: 'light' | 'dark') => {
      if ((await page.locator('html').getAttribute('data-theme')) !== th)
        await page.getByRole('button', { name: th === 'dark' ? c.theme_dark : c.theme_light }).dispatchEvent('click');
      await expect(page.locator('html')).toHaveAttribute('data-theme', th);
    };
    /** Screenshots at 360 px in both themes, then back to the test's theme. */
    const shots = async (what: string, fullPage: boolean) => {
      for (const th of ['light', 'dark'] as const) {
        await setTheme(th);
        await settled(page);
        await page.screenshot({ path: `test-results/console-phone/${what}-${lang}-${th}-360.png`, fullPage });
      }
      await setTheme(theme);
    };
    /** Checks the screen at 390 and 360 px and keeps screenshots at 360. */
    const check = async (what: string) => {
      await page.locator('main h1').first().waitFor();
      for (const width of [390, 360]) {
        await page.setViewportSize({ width, height: 780 });
        await expectFits(page, `${what} at ${width} px (${lang})`, width);
        await expectRowActionsOnScreen(page, `${what} at ${width} px (${lang})`, width);
      }
      await shots(what, true);
    };

    // Events and what hangs off an event: its form, its ticket types and their form, its dashboard.
    await check('events');
    const name = 'Harbour Nights Summer Festival of Lights and Music';
    await page.getByRole('button', { name: `${c.edit}: ${name}` }).click();
    await check('event-form');
    await page.getByRole('button', { name: c.cancel, exact: true }).click();
    await page.getByRole('button', { name: `${c.events.ticket_types}: ${name}` }).click();
    await expect(page.getByRole('table')).toBeVisible();
    await check('ticket-types');
    await page.getByRole('button', { name: `${c.edit}: General Admission with Early Entry` }).click();
    await check('ticket-type-form');
    await page.getByRole('button', { name: c.cancel, exact: true }).click();
    await page.getByRole('button', { name: c.back }).click();
    await page.getByRole('button', { name: `${c.events.dashboard}: ${name}` }).click();
    await expect(page.getByTestId('stat-issued')).toHaveText('2');
    await check('dashboard');

    // Holders, with the ticket drawer: Close inside the screen and the element a finger hits.
    await go('holders');
    await expect(page.locator('tbody tr')).toHaveCount(2);
    await check('holders');
    await page.getByRole('button', { name: `${c.holders.open}: T-1001` }).click();
    const drawer = page.getByRole('dialog');
    await expect(drawer.getByRole('listitem').first()).toBeVisible();
    for (const width of [390, 360]) {
      await page.setViewportSize({ width, height: 780 });
      await expectFits(page, `ticket drawer at ${width} px (${lang})`, width);
      const close = drawer.getByRole('button', { name: c.close, exact: true });
      const box = (await close.boundingBox())!;
      expect(box.x, `Close starts inside the screen at ${width} px`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `Close ends inside the screen at ${width} px`).toBeLessThanOrEqual(width);
      expect(box.y + box.height).toBeLessThanOrEqual(780);
      const hit = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x, y)?.closest('button')?.textContent?.trim() ?? null,
        [box.x + box.width / 2, box.y + box.height / 2],
      );
      expect(hit, `the element at Close's centre at ${width} px`).toBe(c.close);
    }
    await shots('drawer', false);
    const box = (await drawer.getByRole('button', { name: c.close, exact: true }).boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(drawer).toHaveCount(0);

    // The other screens, as they come.
    await go('import');
    await check('import');
    await go('webhooks');
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await check('webhooks');
    await go('keys');
    await page.getByLabel(c.keys.door_name).fill('North gate of the Overseas Passenger Terminal');
    await page.getByRole('button', { name: c.keys.door_create }).click();
    await expect(page.getByTestId('shown-once').first()).toBeVisible();
    await page.getByRole('button', { name: c.keys.api_create }).click();
    await expect(page.getByTestId('shown-once')).toHaveCount(2);
    await check('keys');
    await go('branding');
    await check('branding');
    await go('members');
    await check('members');
    await go('activity');
    await expect(page.locator('tbody tr').first()).toBeVisible();
    await check('activity');
  });
}
