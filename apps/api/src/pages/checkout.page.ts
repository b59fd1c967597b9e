/**
 * Sandbox checkout pages for swaps (served while CHECKOUT_BASE_URL is not set), under the ticket's organisation's
 * brand like the resale pages (issue 23).
 */
import type { Locale, OrganisationBranding } from '@tp/contract';
import { escapeHtml as e, pageBrand } from './html.js';
import { formatCents } from '@tp/contract/format';
import { textTable } from '../lib/i18n.js';

interface Order {
  swap: { swapType: string; quantity: number; differenceCents: number; currencyCode: string; status: string };
  base: { type: { name: string }; event: { name: string } };
  target: { type: { name: string } };
  expired: boolean;
}

/** A checkout page; `brand`: the ticket's organisation (its name, logo and colour on the primary button). */
const layout = (lang: Locale, body: string, brand?: OrganisationBranding | null) => {
  const b = pageBrand(brand, 'button:not(.secondary)');
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${textTable(lang, 'pages.checkout').title}</title>
<style>:root{color-scheme:light dark}body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#15171a}main{max-width:440px;margin:2rem auto;background:#fff;border-radius:16px;padding:1.5rem;box-shadow:0 4px 24px #0001}
h1{font-size:1.3rem;margin:0 0 .25rem}.note{background:#fff7d6;border-radius:8px;padding:.5rem .75rem;font-size:.9rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}dt{color:#5b6270}dd{margin:0;font-weight:600}
button,a.btn{display:block;width:100%;box-sizing:border-box;text-align:center;padding:.8rem;border-radius:10px;border:0;font:inherit;font-weight:600;margin-top:.75rem;cursor:pointer;text-decoration:none}
button{background:#1a56db;color:#fff}a.btn,button.secondary{background:#eef0f3;color:#15171a}@media (prefers-color-scheme:dark){body{background:#111;color:#eee}main{background:#1c1d20}a.btn,button.secondary{background:#2a2c30;color:#eee}dt{color:#aab}.note{background:#3a3410}}${b.css}</style></head><body><main>${b.header}${body}</main></body></html>`;
};

/** The cancel action of an order page (`…/{orderIdentifier}/cancel`, keeping the query). */
const cancelAction = (action: string) => {
  const [path, query] = action.split('?');
  return `${path}/cancel${query ? `?${query}` : ''}`;
};

/** The order page: what is swapped, the amount to pay, pay or confirm, or cancel (which releases the held stock). */
export function renderSwapCheckout(p: {
  lang: Locale;
  order: Order;
  /** The ticket's organisation; null or absent: the product's look. */
  brand?: OrganisationBranding | null;
  action: string;
  backUrl: string;
  redirectDomain: string;
}): string {
  const t = textTable(p.lang, 'pages.checkout');
  const { swap, base, target } = p.order;
  const upgrade = swap.swapType === 'UPGRADE';
  const amount = e(formatCents(upgrade ? swap.differenceCents * swap.quantity : 0, swap.currencyCode, p.lang));
  const state =
    swap.status === 'CONFIRMED'
      ? `<p role="status">${t.done}</p>`
      : p.order.expired || swap.status !== 'PENDING'
        ? `<p role="alert">${t.expired}</p>`
        : `<form method="post" action="${e(p.action)}"><button type="submit">${upgrade ? t.pay : t.confirm}</button></form>`;
  return layout(
    p.lang,
    `<h1>${t.title}</h1><p class="note">${t.sandbox}</p><h2>${t.swap}: ${e(base.event.name)}</h2>
<dl><dt>${t.from}</dt><dd>${e(base.type.name)}</dd><dt>${t.to}</dt><dd>${e(target.type.name)}</dd><dt>${t.qty}</dt><dd>${swap.quantity}</dd><dt>${t.total}</dt><dd>${amount}</dd></dl>
<p>${upgrade ? t.upgrade : t.downgrade}</p>${state}${
      swap.status === 'PENDING' && !p.order.expired
        ? `<form method="post" action="${e(cancelAction(p.action))}"><button type="submit" class="secondary">${t.cancel}</button></form>`
        : `<a class="btn" href="${e(p.backUrl)}">${t.cancel}</a>`
    }`,
    p.brand,
  );
}

/** A short message page (not found, cannot confirm) with a way back. */
export function renderCheckoutMessage(
  lang: Locale,
  what: string,
  backUrl: string,
  brand?: OrganisationBranding | null,
): string {
  const t = textTable(lang, 'pages.checkout');
  const text =
    what === 'notFound'
      ? t.notFound
      : what === 'api.swap.already_confirmed'
        ? t.done
        : what === 'api.swap.expired'
          ? t.expired
          : t.error;
  return layout(
    lang,
    `<h1>${t.title}</h1><p role="alert">${text}</p><a class="btn" href="${e(backUrl)}">${t.cancel}</a>`,
    brand,
  );
}
