/**
 * Issue 40 point 4, in Chromium: the My tickets list writes dates through the one formatter, read from a
 * device in London of events in Sydney. An event starting in an hour says "In 1 hour" / "Dentro de 1 hora"
 * (not "In 1 day" / "En 1 día"), times read "7:00 PM" with a space, the zone is named ("AEDT"/"GMT+11") because
 * it is not the device's, an event next year shows its year, and a range within one day names the day once.
 * The ticket page writes the same range. Screenshots of the list and the ticket page (en/es, light/dark,
 * 360/1280) go to test-results/dates/.
 */
import { expect, test, type Page } from './fixtures';
import { baseUrl, settled, signInContext, watchNetwork } from './support';

const SLUG = `dates-${Date.now().toString(36)}`;
const SOON = 'Soon Night';
const NEXT_YEAR = 'Next Year Gala';

async function call(path: string, method: string, token: string, body?: unknown) {
  const res = await fetch(`${baseUrl()}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

test.use({ timezoneId: 'Europe/London' });

test.beforeAll(async () => {
  const { apiKey } = (await call('/admin/organisations', 'POST', process.env.E2E_ADMIN_KEY!, {
    slug: SLUG,
    name: 'Dates Check',
  })) as { apiKey: string };
  // In an hour and a bit (so the card still reads one hour when the page opens), three hours long.
  const soon = Date.now() + 90 * 60_000;
  // 6 March next year, 19:00–23:00 in Sydney (AEDT, UTC+11): one day, another year.
  const year = new Date().getUTCFullYear() + 1;
  const events = [
    ['d-soon', SOON, new Date(soon).toISOString(), new Date(soon + 3 * 3_600_000).toISOString()],
    ['d-next', NEXT_YEAR, `${year}-03-06T08:00:00.000Z`, `${year}-03-06T12:00:00.000Z`],
  ] as const;
  for (const [id, name, startsAt, endsAt] of events) {
    await call(`/org/events/${id}`, 'PUT', apiKey, {
      name,
      venue: 'Town Hall',
      city: 'Sydney',
      country: 'AU',
      startsAt,
      endsAt,
      timeZone: 'Australia/Sydney',
    });
    await call(`/org/ticket-types/${id}-ga`, 'PUT', apiKey, {
      eventExternalId: id,
      name: 'General',
      priceCents: 5000,
      currency: 'AUD',
      isGiftable: true,
      isResellable: false,
      isSwappable: false,
    });
    await call(`/org/tickets/${id}-t1`, 'PUT', apiKey, {
      ticketTypeExternalId: `${id}-ga`,
      holderEmail: 'alice@example.com',
    });
  }
});

const card = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(name) });

for (const lang of ['en', 'es'] as const) {
  test(`My tickets in ${lang}: relative start, zone, year, one day named once`, async ({ page, context }) => {
    watchNetwork(context);
    await signInContext(context, 'alice@example.com');
    await page.goto(`${baseUrl()}/${lang}/?org=${SLUG}&PANEL_TAB=MY_TICKET`);
    const soon = card(page, SOON);
    const next = card(page, NEXT_YEAR);
    await expect(soon).toBeVisible();
    await expect(next).toBeVisible();
    const year = new Date().getUTCFullYear() + 1;
    const when = (c: typeof soon) => c.locator('.ticket-card__meta').nth(1);
    if (lang === 'en') {
      await expect(soon.locator('.ticket-card__when')).toHaveText('In 1 hour');
      // "Sat, 06 Mar 2027, 7:00 – 11:00 PM AEDT": the day once, a space before PM, the year, the zone.
      await expect(when(next)).toHaveText(new RegExp(`^[A-Z][a-z]{2}, 06 Mar ${year}, 7:00 – 11:00 PM AEDT$`));
      // Soon Night starts in 90 minutes and lasts three hours: run in the evening in Melbourne, it ends after midnight,
      // and a range over two days names both ("Sun, 29 Nov, 11:00 PM AEDT – Mon, 30 Nov, 2:00 AM AEDT").
      await expect(when(soon)).toHaveText(
        /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2}, \d{1,2}:\d{2}( [AP]M)?( AEDT)? – .* [AP]M AEDT$/,
      );
    } else {
      await expect(soon.locator('.ticket-card__when')).toHaveText('Dentro de 1 hora');
      await expect(when(next)).toHaveText(new RegExp(`^[a-záéíóú]{3}, 6 mar ${year} 19:00–23:00 GMT\\+11$`));
      await expect(when(soon)).toHaveText(/^[a-záéíóú]{3}, \d{1,2} [a-z]{3,4} \d{2}:\d{2}.*\d{2}:\d{2} GMT\+11$/);
    }

    for (const theme of ['light', 'dark'] as const)
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
        await page.getByRole('combobox', { name: lang === 'es' ? 'Tema' : 'Theme' }).selectOption(theme);
        await settled(page);
        await page.screenshot({ path: `test-results/dates/my-tickets-${lang}-${theme}-${width}.png` });
      }

    // The ticket page writes the same range.
    await next.click();
    const range =
      lang === 'en'
        ? new RegExp(`^[A-Z][a-z]{2}, 06 Mar ${year}, 7:00 – 11:00 PM AEDT$`)
        : new RegExp(`^[a-záéíóú]{3}, 6 mar ${year} 19:00–23:00 GMT\\+11$`);
    await expect(page.locator('.icon-line').first()).toHaveText(range);
    for (const theme of ['light', 'dark'] as const)
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
        await page.getByRole('combobox', { name: lang === 'es' ? 'Tema' : 'Theme' }).selectOption(theme);
        await settled(page);
        await page.screenshot({ path: `test-results/dates/ticket-${lang}-${theme}-${width}.png` });
      }
  });
}
