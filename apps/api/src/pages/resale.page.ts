/** Public resale pages: the share-link listing, the sandbox checkout and the confirmation. */
import type { OrganisationBranding } from '@tp/contract';
import { escapeHtml as e, pageBrand } from './html.js';
import { formatCents } from '@tp/contract/format';
import type { Locale } from '@tp/contract';
import { textTable } from '../lib/i18n.js';
import { plural } from '../lib/lang.js';
export const resaleText = (lang: Locale) => textTable(lang, 'pages.resale');

/** A resale page (listing, checkout, confirmation, messages) under the listing's organisation's brand, if any. */
export function resaleLayout(lang: Locale, title: string, body: string, brand?: OrganisationBranding | null): string {
  const b = pageBrand(brand);
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(title)}</title>
<style>:root{color-scheme:light dark}body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#15171a}main{max-width:480px;margin:1.5rem auto;background:#fff;border-radius:16px;padding:1.5rem;box-shadow:0 4px 24px #0001}
img.hero{width:100%;border-radius:12px;aspect-ratio:2/1;object-fit:cover}h1{font-size:1.35rem;margin:.75rem 0 .25rem}.muted{color:#5b6270}.price{font-size:1.6rem;font-weight:700}.note{background:#fff7d6;border-radius:8px;padding:.5rem .75rem;font-size:.9rem}
label{display:block;margin-top:.75rem;font-weight:600}input,select{width:100%;box-sizing:border-box;padding:.7rem;border:1px solid #c8ccd3;border-radius:10px;font:inherit;margin-top:.25rem}
button,a.btn{display:block;width:100%;box-sizing:border-box;text-align:center;padding:.85rem;border-radius:10px;border:0;font:inherit;font-weight:600;margin-top:1rem;cursor:pointer;text-decoration:none;background:#1a56db;color:#fff}
a.btn.secondary,button.secondary{background:#eef0f3;color:#15171a}.code{font:700 1.5rem/1.2 ui-monospace,monospace;letter-spacing:.08em;background:#f1f5ff;border-radius:10px;padding:.75rem;text-align:center}
nav{text-align:right}nav a{color:inherit;font-size:.9rem}@media (prefers-color-scheme:dark){body{background:#111;color:#eee}main{background:#1c1d20}.muted{color:#aab}input,select{background:#111;color:#eee;border-color:#444}.code{background:#22283a}.note{background:#3a3410}a.btn.secondary{background:#2a2c30;color:#eee}}${b.css}</style></head>
<body><main>${b.header}${body}</main></body></html>`;
}

/** The page behind `shareLinkUrl`: event, ticket, quantity, price per ticket including the fee, Buy. */
export function renderListingPage(p: {
  lang: Locale;
  /** The listing's organisation (issue 23); null or absent: the product's look. */
  brand?: OrganisationBranding | null;
  token: string;
  idempotencyKey: string;
  listing: {
    eventName: string;
    venue: string;
    city: string;
    when: string;
    image: string | null;
    ticketName: string;
    remaining: number;
    unitCents: number;
    /** ISO 4217 code of unitCents. */
    currencyCode: string;
  };
}): string {
  const t = textTable(p.lang, 'pages.resale');
  const l = p.listing;
  const options = Array.from(
    { length: Math.min(l.remaining, 10) },
    (_, i) => `<option value="${i + 1}">${i + 1}</option>`,
  ).join('');
  const form =
    l.remaining > 0
      ? `<form method="post" action="/r/${e(p.token)}?lang=${p.lang}">
<input type="hidden" name="idempotencyKey" value="${e(p.idempotencyKey)}">
<label for="quantity">${t.qty}</label><select id="quantity" name="quantity">${options}</select>
<label for="email">${t.email}</label><input id="email" name="email" type="email" required autocomplete="email">
<button type="submit">${t.buy}</button></form>`
      : `<p role="alert">${t.soldOut}</p>`;
  return resaleLayout(
    p.lang,
    `${l.eventName} · ${t.listing}`,
    `<nav><a href="?lang=${t.langHref}">${t.lang}</a></nav>
${l.image ? `<img class="hero" src="${e(l.image)}" alt="">` : ''}<p class="muted">${t.listing}</p><h1>${e(l.eventName)}</h1>
<p class="muted">${e(l.venue)}, ${e(l.city)} · ${e(l.when)}</p><p><strong>${e(l.ticketName)}</strong> · ${l.remaining} ${plural(p.lang, l.remaining, t.left)}</p>
<p><span class="price">${e(formatCents(l.unitCents, l.currencyCode, p.lang))}</span> <span class="muted">${t.perTicket}</span></p>${form}`,
    p.brand,
  );
}

/** A short message page (not found, paid already, Stripe's return page), under the listing's brand when known. */
export function renderResaleMessage(
  lang: Locale,
  title: string,
  message: string,
  brand?: OrganisationBranding | null,
): string {
  return resaleLayout(lang, title, `<h1>${e(title)}</h1><p role="alert">${e(message)}</p>`, brand);
}

/** The sandbox payment page of an order. */
export function renderResaleCheckout(p: {
  lang: Locale;
  /** The listing's organisation (issue 23); null or absent: the product's look. */
  brand?: OrganisationBranding | null;
  orderId: string;
  eventName: string;
  ticketName: string;
  quantity: number;
  totalCents: number;
  /** ISO 4217 code of totalCents. */
  currencyCode: string;
  /** Where Pay posts; the resale order's own page by default (an exchange offer has its own). */
  action?: string;
}): string {
  const t = textTable(p.lang, 'pages.resale');
  const action = p.action ?? `/resale/checkout/${p.orderId}`;
  return resaleLayout(
    p.lang,
    t.checkout,
    `<h1>${t.checkout}</h1><p class="note">${t.sandbox}</p><p><strong>${e(p.eventName)}</strong><br>${e(p.ticketName)} × ${p.quantity}</p>
<p>${t.total}: <span class="price">${e(formatCents(p.totalCents, p.currencyCode, p.lang))}</span></p><form method="post" action="${e(action)}?lang=${p.lang}"><button type="submit">${t.pay}</button></form>`,
    p.brand,
  );
}

/** After payment: the code, the PDF download and the way to redeem. */
export function renderResaleConfirmation(p: {
  lang: Locale;
  orderId: string;
  code: string;
  /** The panel's redeem tab, on the listing's organisation's panel (`?org=`). */
  redeemUrl: string;
  /** The listing's organisation (issue 23); null or absent: the product's look. */
  brand?: OrganisationBranding | null;
}): string {
  const t = textTable(p.lang, 'pages.resale');
  return resaleLayout(
    p.lang,
    t.thanks,
    `<h1>${t.thanks}</h1><p>${t.codeIs}</p><p class="code" data-testid="resale-code">${e(p.code)}</p><p class="muted">${t.codeHelp}</p>
<form method="post" action="/v1/resell/${e(p.orderId)}"><input type="hidden" name="code" value="${e(p.code)}"><button type="submit" class="secondary">${t.download}</button></form>
<a class="btn" href="${e(p.redeemUrl)}">${t.redeem}</a>`,
    p.brand,
  );
}
