/**
 * The page of the reminder e-mail's unsubscribe link (issue 41 point 9, `GET /v1/reminders/unsubscribe`): it asks
 * before it changes anything (a link scanner's GET must not unsubscribe), then says where the holder stands. In
 * English and Spanish, under the organisation's brand when the link names one. No script: the button is a form
 * that POSTs to the same URL (RFC 8058's one-click POST is the same request a mail client sends).
 */
import type { OrganisationBranding } from '@tp/contract';
import type { Lang } from '../lib/lang.js';
import { escapeHtml as e } from './html.js';
import { resaleLayout } from './resale.page.js';

const T = {
  en: {
    askTitle: 'Stop reminder e-mails?',
    ask: 'We e-mail you a reminder before each event you have a ticket for. Stop them? Your tickets, sign-in codes and receipts still come by e-mail.',
    stop: 'Stop reminders',
    offTitle: 'Reminders are off',
    off: 'You will no longer get reminder e-mails before your events. To get them again, turn on “Event reminders” in the settings of your tickets panel.',
    invalidTitle: 'This link does not work',
    invalid: 'It is not valid or has expired. You can turn reminder e-mails off in the settings of your tickets panel.',
    open: 'Open my tickets',
    lang: 'Español',
  },
  es: {
    askTitle: '¿Dejar de recibir recordatorios?',
    ask: 'Te enviamos un recordatorio por correo antes de cada evento para el que tienes entrada. ¿Quieres dejar de recibirlos? Tus entradas, los códigos para iniciar sesión y los recibos te seguirán llegando por correo.',
    stop: 'Dejar de recibir recordatorios',
    offTitle: 'Recordatorios desactivados',
    off: 'Ya no recibirás recordatorios por correo antes de tus eventos. Para volver a recibirlos, activa «Recordatorios de eventos» en los ajustes de tu panel de entradas.',
    invalidTitle: 'Este enlace no funciona',
    invalid:
      'No es válido o ha caducado. Puedes desactivar los recordatorios por correo en los ajustes de tu panel de entradas.',
    open: 'Abrir mis entradas',
    lang: 'English',
  },
} as const;

/** What the page shows: the question (reminders on), the answer (off), or a link that does not work. */
export type UnsubscribeState = 'ask' | 'off' | 'invalid';

/**
 * The unsubscribe page. `action`: the URL the button POSTs to (the link itself, path and query); `panel`: the
 * panel's settings (`PANEL_TAB=SETTINGS`, with `?org=`); `other`: this page in the other language.
 */
export function renderUnsubscribePage(p: {
  lang: Lang;
  state: UnsubscribeState;
  action: string;
  panel: string;
  other: string;
  brand?: OrganisationBranding | null;
}): string {
  const t = T[p.lang];
  const [title, text] =
    p.state === 'ask' ? [t.askTitle, t.ask] : p.state === 'off' ? [t.offTitle, t.off] : [t.invalidTitle, t.invalid];
  const otherLang = p.lang === 'es' ? 'en' : 'es';
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
