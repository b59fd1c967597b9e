/**
 * The public page of an event's exchange queue (issue 45): `/exchange/{orgSlug}/{eventExternalId}`, in the
 * organisation's brand, phone first. It names the event and, per ticket type, the face value, with a form that opens
 * the panel's My tickets with the wish to join (`EXCHANGE_EVENT`, `EXCHANGE_TYPE`, `EXCHANGE_QUANTITY`): a signed-in
 * holder confirms it there in one tap; anyone else signs in with the e-mail code first and then confirms.
 */
import type { Locale, OrganisationBranding } from '@tp/contract';
import { formatCents } from '@tp/contract/format';
import { textTable } from '../lib/i18n.js';
import { escapeHtml as e } from './html.js';
import { resaleLayout } from './resale.page.js';

/** The page's fixed texts in `lang`. */
export const exchangePageText = (lang: Locale) => textTable(lang, 'pages.exchange');

/** The queue's page: the event and each type with its face value and the join form, or that the queue is closed. */
export function renderExchangePage(p: {
  lang: Locale;
  brand?: OrganisationBranding | null;
  orgSlug: string;
  eventExternalId: string;
  event: { name: string; venue: string; city: string; when: string };
  open: boolean;
  maxQuantity: number;
  types: { ticketTypeExternalId: string; name: string; priceCents: number; currencyCode: string }[];
}): string {
  const t = exchangePageText(p.lang);
  const options = Array.from({ length: p.maxQuantity }, (_, i) => `<option value="${i + 1}">${i + 1}</option>`).join(
    '',
  );
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${e(value)}">`;
  const types = p.types
    .map(
      (type, i) => `<form method="get" action="/${p.lang}/" aria-label="${e(type.name)}">
<h2>${e(type.name)}</h2><p><span class="price">${e(formatCents(type.priceCents, type.currencyCode, p.lang))}</span> <span class="muted">${t.faceValue}</span></p>
${hidden('PANEL_TAB', 'MY_TICKET')}${hidden('org', p.orgSlug)}${hidden('EXCHANGE_EVENT', p.eventExternalId)}${hidden('EXCHANGE_TYPE', type.ticketTypeExternalId)}
<label for="q${i}">${t.quantity}</label><select id="q${i}" name="EXCHANGE_QUANTITY">${options}</select>
<button type="submit">${t.join}</button></form>`,
    )
    .join('');
  const body = p.open ? `<p>${t.intro}</p>${types}<p class="muted">${t.signIn}</p>` : `<p role="alert">${t.closed}</p>`;
  return resaleLayout(
    p.lang,
    `${p.event.name} · ${t.title}`,
    `<nav><a href="?lang=${t.langHref}">${t.lang}</a></nav>
<p class="muted">${t.title}</p><h1>${e(p.event.name)}</h1>
<p class="muted">${e(p.event.venue)}, ${e(p.event.city)} · ${e(p.event.when)}</p>${body}`,
    p.brand,
  );
}
