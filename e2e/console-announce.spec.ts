/**
 * Issue 46, changes are announced on purpose: the organiser moves an event's start in the console's event form, is
 * told before saving how many holders will be e-mailed (with the box to choose, checked), saves, and the holder's
 * "event changed" e-mail in the sink shows the old and the new start. Screenshots of the form with its notice (en/es,
 * light/dark, 360 px) in test-results/console-announce/.
 */
import type { Locale } from '@tp/contract';
import { formatEventDateTime } from '@tp/contract/format';
import { expect, test, type Page } from './fixtures';
import { createOrganisation, signInConsole } from './console-steps';
import { api } from './exchange-steps';
import { decoded, mailCount, waitForMail } from './mail';
import { expectAccessible, freshEmail, settled, watchNetwork } from './support';

const tag = Date.now().toString(36);
const ZONE = 'Australia/Sydney';
/** The saved start: 18:00 in Sydney (AEST) on 1 May 2027; the console moves it to 20:30 the same day. */
const OLD_START = '2027-05-01T08:00:00.000Z';
const NEW_WALL = '2027-05-01T20:30';
const NEW_START = '2027-05-01T10:30:00.000Z';

const TEXTS = {
  en: {
    edit: 'Edit: Harbour Lights',
    starts: "Starts (event's local time)",
    told: '2 holders will be told by e-mail.',
    box: 'E-mail the holders about this change',
    save: 'Save',
    cancel: 'Cancel',
  },
  es: {
    edit: 'Editar: Harbour Lights',
    starts: 'Empieza (hora local del evento)',
    told: 'Se avisará por correo a 2 titulares.',
    box: 'Avisar por correo a los titulares de este cambio',
    save: 'Guardar',
    cancel: 'Cancelar',
  },
} as const;

/** An organisation (owner `owner`) with the event `harbour` and two holders of a ticket each. */
async function eventWithHolders(slug: string, owner: string, holders: string[]) {
  const key = await createOrganisation(slug, owner, 'Acme Events');
  await api('/org/events/harbour', 'PUT', key, {
    name: 'Harbour Lights',
    venue: 'The Pier',
    city: 'Sydney',
    country: 'AU',
    startsAt: OLD_START,
    endsAt: '2027-05-01T12:00:00.000Z',
    timeZone: ZONE,
  });
  await api('/org/ticket-types/ga', 'PUT', key, {
    eventExternalId: 'harbour',
    name: 'General Admission',
    priceCents: 5000,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  });
  for (const [i, holderEmail] of holders.entries())
    await api(`/org/tickets/h-${i}`, 'PUT', key, { ticketTypeExternalId: 'ga', holderEmail });
}

/** Opens the event's form and moves its start: the notice appears with the count and the box, checked. */
async function moveStart(page: Page, lang: Locale) {
  const x = TEXTS[lang];
  await page.getByRole('button', { name: x.edit }).click();
  await page.getByLabel(x.starts).fill(NEW_WALL);
  await expect(page.getByText(x.told)).toBeVisible();
  await expect(page.getByRole('checkbox', { name: x.box })).toBeChecked();
}

test.beforeEach(({ context }) => watchNetwork(context));

test('the organiser moves the start in the console, sees who will be told, and the holder is e-mailed the old and new start', async ({
  page,
}) => {
  const owner = freshEmail('announce-owner');
  const holder = freshEmail('announce-holder');
  await eventWithHolders(`announce-${tag}`, owner, [holder, freshEmail('announce-other')]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInConsole(page, owner);
  await moveStart(page, 'en');
  await settled(page);
  await expectAccessible(page, 'event form with its change notice');
  const before = mailCount();
  // The event form's Save comes first (the refund policy box below has its own).
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await expect(page.getByRole('button', { name: TEXTS.en.edit })).toBeVisible();

  const raw = await waitForMail(holder, { after: before, match: (r) => /^Subject: New date for /im.test(r) });
  const text = decoded(raw);
  const was = formatEventDateTime('en', OLD_START, ZONE);
  const now = formatEventDateTime('en', NEW_START, ZONE);
  expect(text).toContain(`Start: was ${was}; now ${now}`);
  expect(text).not.toContain('End: was');
});

for (const lang of ['en', 'es'] as const)
  test(`the form's change notice at 360 px, light and dark (${lang})`, async ({ page }) => {
    const owner = freshEmail(`announce-shots-${lang}`);
    await eventWithHolders(`announce-${lang}-${tag}`, owner, [freshEmail('announce-a'), freshEmail('announce-b')]);
    await page.setViewportSize({ width: 360, height: 780 });
    await signInConsole(page, owner, lang);
    await moveStart(page, lang);
    await settled(page);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.screenshot({ path: `test-results/console-announce/form-${lang}-${theme}-360.png`, fullPage: true });
    }
    await expectAccessible(page, `change notice ${lang} dark`);
    // Leaving without saving e-mails nobody.
    const before = mailCount();
    await page.getByRole('button', { name: TEXTS[lang].cancel, exact: true }).click();
    await expect(page.getByRole('button', { name: TEXTS[lang].edit })).toBeVisible();
    expect(mailCount()).toBe(before);
  });
