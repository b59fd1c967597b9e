/**
 * The help centre (`/help`) and get-the-app (`/app`) pages: the defaults of HELP_CENTER_URL and APP_URL
 * (issue 13, item 3), in English and Spanish, with the look of the other public pages.
 */
import { escapeHtml as e } from './html.js';
import { resaleLayout } from './resale.page.js';
import { otherLocale as other, type Locale } from '@tp/contract';
import { text, textTable } from '../lib/i18n.js';

const nav = (lang: Locale, label: string) =>
  `<nav><a href="?lang=${other(lang)}" lang="${other(lang)}" hreflang="${other(lang)}">${e(label)}</a></nav>`;

/** GET /help: frequent questions and a way back to the panel. */
export function renderHelpPage(p: { lang: Locale; productName: string }): string {
  const t = textTable(p.lang, 'pages.help');
  const items = t.qa.map(([q, a]) => `<details><summary>${e(q)}</summary><p>${e(a)}</p></details>`).join('\n');
  return resaleLayout(
    p.lang,
    `${t.title} · ${p.productName}`,
    `${nav(p.lang, t.lang)}<p class="muted">${e(p.productName)}</p><h1>${e(t.title)}</h1><p>${e(t.intro)}</p>
<style>details{border-top:1px solid #8884;padding:.6rem 0}summary{cursor:pointer;font-weight:600}details p{margin:.4rem 0 0}</style>
${items}
<a class="btn" href="/${p.lang}/?PANEL_TAB=MY_TICKET">${e(t.open)}</a>`,
  );
}

/** GET /app: how to put the panel on the home screen, and the way in. */
export function renderAppPage(p: { lang: Locale; productName: string }): string {
  const t = textTable(p.lang, 'pages.app');
  return resaleLayout(
    p.lang,
    `${t.title} · ${p.productName}`,
    `${nav(p.lang, t.lang)}<p class="muted">${e(p.productName)}</p><h1>${e(t.title)}</h1><p>${e(text(p.lang, 'pages.app.intro', { product: p.productName }))}</p>
<style>h2{font-size:1.05rem;margin:1.25rem 0 .25rem}h2+p{margin-top:0}</style>
<h2>${e(t.iosTitle)}</h2><p>${e(t.ios)}</p><h2>${e(t.androidTitle)}</h2><p>${e(t.android)}</p>
<a class="btn" href="/${p.lang}/?PANEL_TAB=QR">${e(t.open)}</a><a class="btn secondary" href="/help?lang=${p.lang}">${e(t.help)}</a>`,
  );
}
