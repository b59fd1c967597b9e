/** Issue 13, item 3 (server side): /help and /app pages in both languages; the language of the resale listing page carries to checkout, receipt, mail and PDF. */
import { accentPalette } from '../src/modules/branding/brand-colors.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { sql } from 'drizzle-orm';
import { formatEventDateTime } from '../src/lib/lang.js';
import { orgInitials } from '../src/pages/html.js';
import { bearer, createTestApp, type TestApp, onboardSandboxSeller } from './helper.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ seed: true });
});
afterEach(async () => {
  await t.close();
});

describe('help and app pages', () => {
  for (const [path, en, es] of [
    ['/help', 'Help centre', 'Centro de ayuda'],
    ['/app', 'Get the app', 'Consigue la app'],
  ] as const) {
    it(`${path} is a page in English by default, Spanish by ?lang=es or Accept-Language`, async () => {
      const plain = await t.app.inject({ url: path });
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-type']).toMatch(/^text\/html/);
      expect(plain.body).toContain('<html lang="en"');
      expect(plain.body).toContain(`<h1>${en}</h1>`);
      const query = await t.app.inject({ url: `${path}?lang=es` });
      expect(query.body).toContain('<html lang="es"');
      expect(query.body).toContain(`<h1>${es}</h1>`);
      const header = await t.app.inject({ url: path, headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.8' } });
      expect(header.body).toContain(`<h1>${es}</h1>`);
      expect(header.headers.vary).toContain('Accept-Language');
      const explicit = await t.app.inject({ url: `${path}?lang=en`, headers: { 'accept-language': 'es' } });
      expect(explicit.body).toContain(`<h1>${en}</h1>`);
    });
  }
  it('the panel config points at them by default', async () => {
    const cfg = (await t.app.inject({ url: '/v1/config' })).json<{ helpCenterUrl: string; appUrl: string }>();
    expect(new URL(cfg.helpCenterUrl).pathname).toBe('/help');
    expect(new URL(cfg.appUrl).pathname).toBe('/app');
  });
});

describe('the language of a resale purchase', () => {
  it("carries from the listing page to checkout, receipt, buyer mail and PDF; PDF date human, in the event time zone, 24 h in Spanish; the pages carry the listing organisation's brand (issue 23)", async () => {
    // Every organisation gets a logo and a light orange (darkened to 4.5:1 on the pages' white).
    await t.database.db.execute(
      `update organisations set logo = 'https://brand.example/logo.png', primary_color = '#ff9900'`,
    );
    const accent = accentPalette('#ff9900', 'light')!.accent;
    const alice = (await t.signIn('alice@example.com')).accessToken;
    await onboardSandboxSeller(t.app, alice);
    const [a] = (await t.app.inject({ url: '/v1/resell/tickets/available', headers: bearer(alice) })).json<
      { userTicketId: number; ticketId: number; currencyCode: string; currencySymbol: string }[]
    >();
    const { shareLinkUrl } = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/resell',
        headers: bearer(alice),
        payload: { userTicketId: a.userTicketId, amountCount: 1, price: 80, currencyCode: 'AUD', currencySymbol: 'A$' },
      })
    ).json<{ shareLinkUrl: string }>();
    const path = new URL(shareLinkUrl).pathname;
    // A Spanish browser gets the listing page in Spanish; its form keeps the language.
    const page = await t.app.inject({ url: path, headers: { 'accept-language': 'es-ES' } });
    expect(page.body).toContain('<html lang="es"');
    expect(page.body).toContain(`action="${path}?lang=es"`);
    const orgName =
      /<header class="brand"><img src="https:\/\/brand\.example\/logo\.png" alt="" data-initials="[A-Z]{2}"><span>([^<]+)<\/span>/.exec(
        page.body,
      )?.[1];
    expect(orgName).toBeTruthy();
    expect(page.body).toContain(`background:${accent}`);
    const started = await t.app.inject({
      method: 'POST',
      url: `${path}?lang=es`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        quantity: '1',
        email: 'compra@example.com',
        idempotencyKey: crypto.randomUUID(),
      }).toString(),
    });
    expect(started.statusCode).toBe(303);
    const checkoutPath = new URL(started.headers.location as string).pathname;
    // The checkout URL carries no language: the page takes the order's.
    const checkout = await t.app.inject({ url: checkoutPath });
    expect(checkout.body).toContain('<h1>Pago de prueba</h1>');
    expect(checkout.body).toContain(`<span>${orgName}</span>`);
    expect(checkout.body).toContain(`background:${accent}`);
    const receipt = await t.app.inject({
      method: 'POST',
      url: checkoutPath,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(receipt.body).toContain('<h1>Pago recibido</h1>');
    expect(receipt.body).toMatch(/http:\/\/panel\.test\/es\/\?org=[a-z-]+&amp;PANEL_TAB=REDEEM/);
    expect(receipt.body).toContain(`<span>${orgName}</span>`);
    const orderId = checkoutPath.split('/').pop()!;
    // Stripe's return page too carries the listing's organisation (issue 23).
    const done = (await t.app.inject({ url: `/resale/done/${orderId}` })).body;
    expect(done).toContain('<html lang="es"');
    expect(done).toContain(
      `<header class="brand"><img src="https://brand.example/logo.png" alt="" data-initials="${orgInitials(orgName!)}"><span>${orgName}</span>`,
    );
    expect(done).toContain(`background:${accent}`);
    const mail = t.mail.sent.find((m) => m.to === 'compra@example.com')!;
    expect(mail.subject).toBe('Tus entradas para Laneway Sessions');
    const pdf = await getDocumentProxy(new Uint8Array(mail.attachments![0].content));
    const { text } = await extractText(pdf, { mergePages: true });
    expect(text).toContain('Tus entradas de reventa');
    const [ev] = (
      (await t.database.db.execute(
        sql.raw(`select starts_at, time_zone from events where name = 'Laneway Sessions'`),
      )) as { rows: { starts_at: string | Date; time_zone: string }[] }
    ).rows;
    const when = formatEventDateTime('es', new Date(ev.starts_at), ev.time_zone);
    expect(when).toMatch(/ \d{2}:\d{2} /);
    expect(text).toContain(when);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    // No 12-hour time anywhere: the resale code (random letters and digits, e.g. 2AMS-…) is left out of the check.
    expect(text.replace(/\b[A-Z0-9]{4}(-[A-Z0-9]{4}){3}\b/g, '')).not.toMatch(/\d(\s?[ap]\.?\s?m\.?)/i);
  });
});

describe("an organisation's initials on its public pages (issue 40 point 5)", () => {
  it('covers a logo that does not load: first letters of two words, two of one word, symbols skipped', () => {
    expect(orgInitials('Harbour Lights Festival')).toBe('HL');
    expect(orgInitials('acme')).toBe('AC');
    expect(orgInitials('¡Éxito & Co.')).toBe('ÉC');
    expect(orgInitials(' - ')).toBe('');
  });
});
