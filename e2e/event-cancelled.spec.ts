/**
 * Issue 46 (decision 045), in Chromium: the organiser cancels an event through the API with a reason; its holder's
 * My tickets shows the card with a Cancelled badge, the ticket page opens with the notice and the organiser's words,
 * no gift action and its event-access item Cancelled (not Unused), and the QR screen says the event's ticket no longer admits. Screenshots of the ticket page and
 * the QR screen (en/es, light/dark, 360 px) in test-results/event-cancelled/. The event is the spec's own (a fresh
 * organisation), so that the shared seed's events stay on for the other specs.
 */
import { expect, test } from './fixtures';
import { createOrganisation } from './console-steps';
import { api } from './exchange-steps';
import { expectAccessible, freshEmail, openPanel, settled, signInContext, watchNetwork } from './support';

const tag = Date.now().toString(36);
const REASON = 'The venue flooded. Refunds within 14 days.';
const TEXTS = {
  en: {
    badge: 'Cancelled',
    notice: 'This event was cancelled. Your ticket no longer admits.',
    by: `From the organiser: ${REASON}`,
    gift: 'Gift',
    admits: 'What this pass admits',
    yours: 'Your ticket',
    access: 'No longer admits: the event was cancelled.',
    unused: 'Unused',
  },
  es: {
    badge: 'Cancelado',
    notice: 'Este evento fue cancelado. Tu entrada ya no da acceso.',
    by: `Del organizador: ${REASON}`,
    gift: 'Regalar',
    admits: 'A qué da acceso este pase',
    yours: 'Tu entrada',
    access: 'Ya no da acceso: el evento se canceló.',
    unused: 'Sin usar',
  },
} as const;

/** A fresh organisation's event, a giftable ticket of it for `holder`, and the event cancelled with `REASON`. */
async function cancelledTicket(slug: string, holder: string) {
  const key = await createOrganisation(slug, freshEmail('cancel-owner'), 'Acme Events');
  const start = Date.now() + 7 * 86_400_000;
  await api('/org/events/harbour', 'PUT', key, {
    name: 'Harbour Lights',
    venue: 'The Pier',
    city: 'Sydney',
    country: 'AU',
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(start + 4 * 3_600_000).toISOString(),
    timeZone: 'Australia/Sydney',
  });
  await api('/org/ticket-types/ga', 'PUT', key, {
    eventExternalId: 'harbour',
    name: 'General Admission',
    priceCents: 5000,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: true,
  });
  await api('/org/tickets/c-1', 'PUT', key, { ticketTypeExternalId: 'ga', holderEmail: holder });
  await api('/org/events/harbour/cancel', 'POST', key, { reason: REASON });
}

test.beforeEach(({ context }) => watchNetwork(context));

for (const lang of ['en', 'es'] as const)
  test(`a cancelled event's ticket: badge, notice on its page and on the QR screen (${lang})`, async ({
    page,
    context,
  }) => {
    const x = TEXTS[lang];
    const holder = freshEmail(`cancel-holder-${lang}`);
    await cancelledTicket(`cancel-${lang}-${tag}`, holder);
    await signInContext(context, holder);
    await page.setViewportSize({ width: 360, height: 780 });

    await openPanel(page, 'PANEL_TAB=MY_TICKET', lang);
    const card = page.getByRole('button', { name: /^Harbour Lights, General Admission/ });
    await expect(card.getByText(x.badge, { exact: true })).toBeVisible();

    await card.click();
    const notice = page.locator('section.ticket-cancelled');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(x.by);
    await expect(page.getByRole('heading', { name: 'Harbour Lights' })).toBeVisible();
    await expect(page.getByRole('button', { name: x.gift, exact: true })).toHaveCount(0);
    // The event-access item: cancelled, not unused (as if it could still be used).
    const access = page.getByRole('region', { name: x.yours, exact: true });
    await expect(access).toContainText(x.access);
    await expect(access.getByText(x.badge, { exact: true })).toBeVisible();
    await expect(access).not.toContainText(x.unused);
    await settled(page);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.screenshot({ path: `test-results/event-cancelled/ticket-${lang}-${theme}-360.png`, fullPage: true });
    }
    await expectAccessible(page, `cancelled ticket page ${lang}`);

    await openPanel(page, 'PANEL_TAB=QR', lang);
    const admits = page.getByRole('region', { name: x.admits });
    await expect(admits.getByTestId('pass-cancelled')).toHaveText(x.notice);
    await expect(admits).toContainText(x.by);
    await expect(admits).not.toContainText(/\d (tickets?|entradas?):/);
    await settled(page);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.screenshot({ path: `test-results/event-cancelled/qr-${lang}-${theme}-360.png`, fullPage: true });
    }
  });
