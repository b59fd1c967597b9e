/**
 * Issue 29, CI check: no English reaches a Spanish surface. Every Spanish e-mail, public page, the resale PDF
 * and the web app manifests are rendered, and none may contain an English word from the English catalogues
 * (apps/panel/src/locales) or from the same surface rendered in English. Names (events, tickets, people),
 * numbers, URLs and a short list of words both languages share are left aside.
 */
import { describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import en from '../../panel/src/locales/en.json' with { type: 'json' };
import enLater from '../../panel/src/locales/later/later-en.json' with { type: 'json' };
import { panelManifest, scannerManifest } from '../../panel/src/manifests.js';
import {
  eventChangedMail,
  giftReceivedMail,
  listingSoldMail,
  reminderMail,
  resaleCodeMail,
  signInCodeMail,
  swapDoneMail,
  ticketIssuedMail,
  ticketRevokedMail,
  refundApprovedMail,
  refundDeclinedMail,
  memberInvitedMail,
  exchangeOfferedMail,
  exchangeEndedMail,
} from '../src/providers/mail/templates.js';
import { acmeBrand, productBrand, sampleTicket } from './mail-fixtures.js';
import {
  renderListingPage,
  renderResaleCheckout,
  renderResaleConfirmation,
  renderResaleMessage,
  resaleText,
} from '../src/pages/resale.page.js';
import { renderCheckoutMessage, renderSwapCheckout } from '../src/pages/checkout.page.js';
import { renderAppPage, renderHelpPage } from '../src/pages/info.page.js';
import { renderCodePdf } from '../src/modules/resale/resale.pdf.js';
import type { Lang } from '../src/lib/lang.js';

/** Names and values the surfaces are filled with: never counted as English. */
const NAMES = [
  'Laneway Sessions',
  'General Admission',
  'Alice Nguyen',
  'Acme Events',
  'Ticket Panel',
  'Sydney Showground',
  '1 Showground Rd',
  'Sydney',
  'Australia',
  // The places of the "event changed" mail's list (issue 46).
  'Luna Park',
  '1 Olympic Dr',
  'Enmore',
  'Melbourne',
];
/** Words Spanish shares with English (or brand and format words). */
const SHARED = new Set([
  'total',
  'app',
  'apps',
  'email',
  'mail',
  'https',
  'http',
  'panel',
  'sandbox',
  'stripe',
  'web',
  'aedt',
  'online',
  'offline',
  'ticket',
  'tickets',
  // brands and proper names
  'iphone',
  'ipad',
  'safari',
  'android',
  'chrome',
  'spam',
]);

const wordsOf = (text: string): string[] =>
  text
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\{\{\w+\}\}/g, ' ')
    .toLowerCase()
    .match(/\p{L}{4,}/gu) ?? [];

/** Visible text of an HTML document (tags, styles and attributes dropped, entities decoded). */
const textOfHtml = (html: string) =>
  html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, '&');

const stripNames = (text: string) => NAMES.reduce((s, n) => s.split(n).join(' '), text);

function catalogueWords(o: unknown, into: Set<string>): Set<string> {
  if (typeof o === 'string') for (const w of wordsOf(o)) into.add(w);
  else if (o && typeof o === 'object') for (const v of Object.values(o)) catalogueWords(v, into);
  return into;
}
const spanishCatalogues = [
  await import('../../panel/src/locales/es.json', { with: { type: 'json' } }),
  await import('../../panel/src/locales/later/later-es.json', { with: { type: 'json' } }),
];
const spanishWords = spanishCatalogues.reduce((s, c) => catalogueWords(c.default, s), new Set<string>());
/** English catalogue words that are not also Spanish catalogue words ("error", "local"...). */
const ENGLISH = [...catalogueWords(enLater, catalogueWords(en, new Set<string>()))].filter(
  (w) => !spanishWords.has(w) && !SHARED.has(w),
);

/** What a person reads of a manifest (home screen, install prompt). */
const manifestText = (m: { name: string; short_name: string; description: string }) =>
  `${m.name}\n${m.short_name}\n${m.description}`;

/** Each surface rendered in a language: its visible text. */
async function surfaces(lang: Lang): Promise<Record<string, string>> {
  const mail = (m: { subject: string; text: string; html: string }) => `${m.subject}\n${m.text}\n${textOfHtml(m.html)}`;
  const event = { eventName: 'Laneway Sessions', ticketName: 'General Admission' };
  const ticketMail = { ticket: sampleTicket(), link: 'http://x.test/', brand: acmeBrand, at: new Date() };
  const listing = {
    eventName: 'Laneway Sessions',
    venue: 'Sydney Showground',
    city: 'Sydney',
    when: '1 dic',
    image: null,
    ticketName: 'General Admission',
    remaining: 3,
    unitCents: 123_450,
    currencyCode: 'AUD',
  };
  const order = {
    swap: { swapType: 'UPGRADE', differenceCents: 1_250, quantity: 2, currencyCode: 'NZD', status: 'PENDING' },
    base: { event: { name: 'Laneway Sessions' }, type: { name: 'General Admission' } },
    target: { type: { name: 'General Admission' } },
    expired: false,
  };
  const pdf = await renderCodePdf({
    lang,
    eventName: 'Laneway Sessions',
    venue: 'Sydney Showground',
    city: 'Sydney',
    startsAt: new Date('2026-12-01T08:00:00Z'),
    timeZone: 'Australia/Sydney',
    ticketName: 'General Admission',
    quantity: 2,
    code: 'X7K3-Q9Z2',
    redeemUrl: 'http://panel.test/es/?PANEL_TAB=REDEEM',
  });
  const t = resaleText(lang);
  return {
    'sign-in code mail': mail(await signInCodeMail(lang, '123456', 10, productBrand)),
    'branded sign-in code mail': mail(await signInCodeMail(lang, '123456', 10, acmeBrand)),
    'gift mail': mail(await giftReceivedMail(lang, { giver: 'Alice Nguyen', ...ticketMail })),
    'resale code mail': mail(await resaleCodeMail(lang, { quantity: 2, ...ticketMail })),
    'sold mail': mail(
      await listingSoldMail(lang, {
        ...event,
        quantity: 2,
        amountCents: 123_450,
        currencyCode: 'AUD',
        link: 'http://x.test/',
        brand: productBrand,
      }),
    ),
    'issued mail': mail(await ticketIssuedMail(lang, ticketMail)),
    'reminder mail': mail(await reminderMail(lang, ticketMail)),
    'event changed mail': mail(
      await eventChangedMail(lang, {
        ...ticketMail,
        sequence: 1,
        // Issue 46: what changed, old and new, every kind of field (an empty address, no map position before).
        changes: {
          startsAt: { from: new Date('2026-11-30T08:00:00Z'), to: new Date('2026-12-01T08:00:00Z') },
          endsAt: { from: new Date('2026-11-30T12:00:00Z'), to: new Date('2026-12-01T12:00:00Z') },
          timeZone: { from: 'Australia/Melbourne', to: 'Australia/Sydney' },
          venue: { from: 'Enmore', to: 'Luna Park' },
          address1: { from: '', to: '1 Olympic Dr' },
          city: { from: 'Melbourne', to: 'Sydney' },
          country: { from: 'NZ', to: 'AU' },
          position: { from: null, to: { latitude: -33.85, longitude: 151.21 } },
        },
      }),
    ),
    'swap done mail': mail(await swapDoneMail(lang, { ...ticketMail, quantity: 2 })),
    'ticket revoked mail': mail(await ticketRevokedMail(lang, ticketMail)),
    'refund approved mail': mail(await refundApprovedMail(lang, { ...ticketMail, reference: '4021-77' })),
    'refund declined mail': mail(await refundDeclinedMail(lang, { ...ticketMail, reason: '2027-04-01' })),
    'member invited mail': mail(
      await memberInvitedMail(lang, { role: 'door', link: 'http://x.test/console', brand: acmeBrand }),
    ),
    'exchange offer mail': mail(
      await exchangeOfferedMail(lang, {
        ...ticketMail,
        quantity: 2,
        amountCents: 18_000,
        currencyCode: 'AUD',
        expiresAt: new Date('2026-12-01T08:20:00Z'),
      }),
    ),
    'exchange expired mail': mail(
      await exchangeEndedMail(lang, {
        eventName: event.eventName,
        reason: 'expired',
        link: 'http://x.test/',
        brand: acmeBrand,
      }),
    ),
    'exchange closed mail': mail(
      await exchangeEndedMail(lang, {
        eventName: event.eventName,
        reason: 'closed',
        link: 'http://x.test/',
        brand: acmeBrand,
      }),
    ),
    'listing page': textOfHtml(renderListingPage({ lang, token: 't', idempotencyKey: 'k', listing })),
    'sold-out listing page': textOfHtml(
      renderListingPage({ lang, token: 't', idempotencyKey: 'k', listing: { ...listing, remaining: 0 } }),
    ),
    'resale messages': [t.notFound, t.keyReused, t.failed, t.paidAlready]
      .map((m) => textOfHtml(renderResaleMessage(lang, t.listing, m)))
      .join('\n'),
    'resale checkout page': textOfHtml(
      renderResaleCheckout({ lang, orderId: 'o', ...event, quantity: 2, totalCents: 123_450, currencyCode: 'AUD' }),
    ),
    'resale confirmation page': textOfHtml(renderResaleConfirmation({ lang, orderId: 'o', code: 'C', redeemUrl: 'u' })),
    'swap checkout page': textOfHtml(
      renderSwapCheckout({ lang, order: order, action: '/a', backUrl: 'u', redirectDomain: 'd' }),
    ),
    'swap checkout messages': ['notFound', 'api.swap.already_confirmed', 'api.swap.expired', 'other']
      .map((w) => textOfHtml(renderCheckoutMessage(lang, w, 'u')))
      .join('\n'),
    'help page': textOfHtml(renderHelpPage({ lang, productName: 'Ticket Panel' })),
    'app page': textOfHtml(renderAppPage({ lang, productName: 'Ticket Panel' })),
    'resale PDF': (await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true })).text,
    'panel manifest': manifestText(panelManifest(lang)),
    'scanner manifest': manifestText(scannerManifest(lang)),
  };
}

describe('no English on a Spanish surface (issue 29)', async () => {
  const es = await surfaces('es');
  const enSurfaces = await surfaces('en');
  const spanishHere = (text: string) => new Set(wordsOf(stripNames(text)));
  for (const [name, text] of Object.entries(es)) {
    it(`the Spanish ${name} has no English word of the catalogues or of its English version`, () => {
      const english = new Set([
        ...ENGLISH,
        ...wordsOf(stripNames(enSurfaces[name])).filter((w) => !SHARED.has(w) && !spanishWords.has(w)),
      ]);
      const found = [...spanishHere(text)].filter((w) => english.has(w));
      expect(found, text).toEqual([]);
      expect(text.length).toBeGreaterThan(0);
    });
  }

  it('writes amounts and dates the Spanish way there', () => {
    expect(es['sold mail']).toContain('1.234,50\u00a0AUD');
    expect(es['listing page']).toContain('1.234,50\u00a0AUD');
    expect(es['swap checkout page']).toContain('25,00\u00a0NZD');
    expect(es['resale PDF']).toContain('martes, 1 de diciembre de 2026, 19:00');
    expect(enSurfaces['listing page']).toContain('A$1,234.50');
  });
});
