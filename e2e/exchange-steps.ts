/**
 * Steps of the exchange queue's browser tests (issue 45), shared by the queue's spec and its journey: the
 * organisation API, an event with a queue, the console's queue page and its release form, and joining through the
 * API (where the queue's public page is not the subject).
 */
import type { Locale } from '@tp/contract';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import { baseUrl } from './support';

const tag = Date.now().toString(36);

/** A call of the API's `/v1` with a bearer key, expected to succeed. */
export async function api(path: string, method: string, key: string, body?: unknown) {
  const r = await fetch(`${baseUrl()}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(r.status, `${method} ${path}: ${await r.clone().text()}`).toBeLessThan(300);
  return r;
}

/**
 * An organisation (owner `ownerEmail`) with a sold-out show (`harbour`, type `ga` at A$50) starting in `startsInMs`
 * (next month by default); its queue on unless `off`; its payout account verified (where releases are paid) unless
 * `noPayoutAccount`.
 */
export async function queueEvent(
  name: string,
  ownerEmail: string,
  {
    off = false,
    startsInMs = 30 * 86_400_000,
    noPayoutAccount = false,
  }: { off?: boolean; startsInMs?: number; noPayoutAccount?: boolean } = {},
) {
  const slug = `xq-${name}-${tag}`;
  const made = await api('/admin/organisations', 'POST', process.env.E2E_ADMIN_KEY!, {
    slug,
    name: `Queue ${name}`,
    ownerEmail,
  });
  const { apiKey } = (await made.json()) as { apiKey: string };
  // The tickets the organiser releases are paid to its own payout account (the sandbox's form, as its owner would).
  if (!noPayoutAccount)
    await api('/org/payout-account/sandbox-onboarding', 'POST', apiKey, {
      country: 'AU',
      firstName: 'A',
      lastName: 'B',
      birthdate: '1990-01-02',
      bankAccount: '062-000 12345678',
    });
  await api('/org/events/harbour', 'PUT', apiKey, {
    name: `Harbour Lights ${name}`,
    venue: 'The Pier',
    city: 'Sydney',
    country: 'AU',
    startsAt: new Date(Date.now() + startsInMs).toISOString(),
    endsAt: new Date(Date.now() + startsInMs + 4 * 3_600_000).toISOString(),
    timeZone: 'Australia/Sydney',
  });
  await api('/org/ticket-types/ga', 'PUT', apiKey, {
    eventExternalId: 'harbour',
    name: 'General Admission',
    priceCents: 5000,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  });
  if (!off)
    await api('/org/events/harbour/exchange', 'PUT', apiKey, {
      enabled: true,
      offerMinutes: 20,
      order: 'first_come',
      maxQuantity: 4,
    });
  return { slug, apiKey };
}

/** The console's queue page of the event, `lang` as the owner's. */
export async function openQueuePage(page: Page, lang: Locale = 'en') {
  await page.goto(`${baseUrl()}/console/events/harbour/exchange?lang=${lang}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(
    lang === 'es' ? 'Cola de intercambio' : 'Exchange queue',
  );
}

/** On the console's queue page: opens the queue to fans (offers held 20 minutes, four tickets an entry at most). */
export async function turnOnInConsole(page: Page) {
  const settings = page.getByRole('form', { name: 'Settings' });
  await settings.getByLabel('Queue open to fans').check();
  await settings.getByLabel('Minutes an offer is held').fill('20');
  await settings.getByLabel('Most tickets per entry').fill('4');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings.getByRole('status')).toHaveText('Settings saved.');
  await expect(page.getByTestId('exchange-closes')).toContainText('The queue closes');
}

/** Releases `quantity` tickets of General Admission at 50.00 from the console's form. */
export async function releaseInConsole(page: Page, quantity: number, offered: number) {
  const form = page.getByRole('form', { name: 'Release tickets' });
  await form.getByLabel('Ticket type').selectOption({ label: 'General Admission' });
  await form.getByLabel('How many').fill(String(quantity));
  await form.getByLabel('Price each').fill('50');
  await form.getByRole('button', { name: 'Release' }).click();
  await expect(form.getByRole('status')).toHaveText(
    `${quantity} ticket${quantity === 1 ? '' : 's'} released; ${offered} fans offered tickets.`,
  );
}

/** Joins the event's GA queue for `quantity` tickets, through the API. */
export const join = (slug: string, accessToken: string, quantity: number) =>
  api(`/exchange/${slug}/harbour/entries`, 'POST', accessToken, { ticketTypeExternalId: 'ga', quantity });
