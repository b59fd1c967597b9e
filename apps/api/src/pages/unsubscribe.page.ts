/**
 * The page of the reminder e-mail's unsubscribe link (issue 41 point 9, `GET /v1/reminders/unsubscribe`): it asks
 * before it changes anything (a link scanner's GET must not unsubscribe), then says where the holder stands. In
 * English and Spanish, under the organisation's brand when the link names one. No script: the button is a form
 * that POSTs to the same URL (RFC 8058's one-click POST is the same request a mail client sends).
 */
import { otherLocale, type Locale, type OrganisationBranding } from '@tp/contract';
import { textTable } from '../lib/i18n.js';
import { escapeHtml as e } from './html.js';
import { resaleLayout } from './resale.page.js';

/** What the page shows: the question (reminders on), the answer (off), or a link that does not work. */
export type UnsubscribeState = 'ask' | 'off' | 'invalid';

/**
 * The unsubscribe page. `action`: the URL the button POSTs to (the link itself, path and query); `panel`: the
 * panel's settings (`PANEL_TAB=SETTINGS`, with `?org=`); `other`: this page in the other language.
 */
export function renderUnsubscribePage(p: {
  lang: Locale;
  state: UnsubscribeState;
  action: string;
  panel: string;
  other: string;
  brand?: OrganisationBranding | null;
}): string {
  const t = textTable(p.lang, 'pages.unsubscribe');
  const [title, text] =
    p.state === 'ask' ? [t.askTitle, t.ask] : p.state === 'off' ? [t.offTitle, t.off] : [t.invalidTitle, t.invalid];
  const otherLang = otherLocale(p.lang);
  const button =
    p.state === 'ask'
      ? `<form method="post" action="${e(p.action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${e(t.stop)}</button></form>`
      : '';
  const open = `<a class="btn${p.state === 'ask' ? ' secondary' : ''}" href="${e(p.panel)}">${e(t.open)}</a>`;
  return resaleLayout(
    p.lang,
    title,
    `<nav><a href="${e(p.other)}" lang="${otherLang}" hreflang="${otherLang}">${e(t.lang)}</a></nav>
<h1>${e(title)}</h1><p${p.state === 'ask' ? '' : ' role="status"'}>${e(text)}</p>${button}${open}`,
    p.brand,
  );
}
