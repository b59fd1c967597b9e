/**
 * The help centre (`/help`) and get-the-app (`/app`) pages: the defaults of HELP_CENTER_URL and APP_URL
 * (issue 13, item 3), in English and Spanish, with the look of the other public pages.
 */
import { escapeHtml as e } from './html.js';
import { resaleLayout } from './resale.page.js';
import type { Lang } from '../lib/lang.js';

const HELP = {
  en: {
    title: 'Help centre',
    intro: 'Answers to what ticket holders ask most. Still stuck? Reply to any e-mail we sent you.',
    open: 'Open my tickets',
    lang: 'Español',
    qa: [
      [
        'How do I sign in?',
        'Enter your e-mail address and we send you a 6-digit code. Type it in and you are in: there is no password. An account is created the first time.',
      ],
      [
        "I didn't get the code",
        'Check your spam folder, then ask for a new code after a minute with "Resend code". Only the latest code works.',
      ],
      [
        'How do I get in at the door?',
        'Open "My QR Code" and show it at the entrance. It refreshes every few seconds, so a screenshot will not work; keep it private.',
      ],
      [
        'Can I give my ticket to a friend?',
        'Yes, with "Gift Ticket": pick the ticket, then your friend by e-mail or username. A gift is permanent and cannot be taken back.',
      ],
      [
        'How does resale work?',
        'Verify a payout account in Settings, then list your ticket with "Resell Ticket" at up to the organiser’s price cap. The buyer pays through your share link and you are paid the price; the service fee is added to what the buyer pays.',
      ],
      [
        'I bought a resale ticket: where is it?',
        'We e-mailed you a PDF with a secret code. Sign in, open "Redeem Ticket" and enter the code; the ticket moves to your account.',
      ],
      [
        'Can I change my ticket type?',
        'Where the organiser allows it, "Swap Ticket" lets you upgrade (you pay the difference) or downgrade.',
      ],
      [
        'My data and my account',
        'In Settings you can export your data, sign out of other devices and delete your account once you have no upcoming or listed tickets.',
      ],
    ],
  },
  es: {
    title: 'Centro de ayuda',
    intro:
      'Respuestas a lo que más se pregunta. ¿Sigues con dudas? Responde a cualquier correo que te hayamos enviado.',
    open: 'Abrir mis entradas',
    lang: 'English',
    qa: [
      [
        '¿Cómo inicio sesión?',
        'Escribe tu correo y te enviaremos un código de 6 dígitos. Introdúcelo y listo: no hay contraseña. La cuenta se crea la primera vez.',
      ],
      [
        'No me ha llegado el código',
        'Revisa la carpeta de spam y pide otro código pasado un minuto con «Reenviar código». Solo funciona el último.',
      ],
      [
        '¿Cómo entro al evento?',
        'Abre «Mi código QR» y enséñalo en la puerta. Se renueva cada pocos segundos, así que una captura no sirve; no lo compartas.',
      ],
      [
        '¿Puedo dar mi entrada a un amigo?',
        'Sí, con «Regalar entrada»: elige la entrada y a tu amigo por correo o nombre de usuario. Un regalo es definitivo y no se puede deshacer.',
      ],
      [
        '¿Cómo funciona la reventa?',
        'Verifica una cuenta de cobros en Ajustes y pon tu entrada a la venta con «Revender entrada», hasta el precio máximo del organizador. Quien compra paga con tu enlace y tú recibes el precio; los gastos de gestión los paga quien compra.',
      ],
      [
        'He comprado una entrada de reventa: ¿dónde está?',
        'Te hemos enviado un PDF con un código secreto. Inicia sesión, abre «Canjear entrada» e introduce el código; la entrada pasa a tu cuenta.',
      ],
      [
        '¿Puedo cambiar el tipo de entrada?',
        'Si el organizador lo permite, «Cambiar entrada» te deja subir de categoría (pagas la diferencia) o bajar.',
      ],
      [
        'Mis datos y mi cuenta',
        'En Ajustes puedes exportar tus datos, cerrar sesión en otros dispositivos y eliminar tu cuenta cuando no tengas entradas próximas ni a la venta.',
      ],
    ],
  },
} as const;

const APP = {
  en: {
    title: 'Get the app',
    intro: (product: string) =>
      `${product} works in your phone's browser and can be added to your home screen like an app: your QR pass is one tap away, even with a weak signal.`,
    iosTitle: 'iPhone and iPad (Safari)',
    ios: 'Open your tickets, tap Share, then "Add to Home Screen".',
    androidTitle: 'Android (Chrome)',
    android: 'Open your tickets, tap the ⋮ menu, then "Add to Home screen".',
    open: 'Open my tickets',
    help: 'Help centre',
    lang: 'Español',
  },
  es: {
    title: 'Consigue la app',
    intro: (product: string) =>
      `${product} funciona en el navegador del móvil y se puede añadir a la pantalla de inicio como una app: tu pase QR a un toque, incluso con poca cobertura.`,
    iosTitle: 'iPhone y iPad (Safari)',
    ios: 'Abre tus entradas, toca Compartir y luego «Añadir a pantalla de inicio».',
    androidTitle: 'Android (Chrome)',
    android: 'Abre tus entradas, toca el menú ⋮ y luego «Añadir a pantalla de inicio».',
    open: 'Abrir mis entradas',
    help: 'Centro de ayuda',
    lang: 'English',
  },
} as const;

const other = (lang: Lang): Lang => (lang === 'es' ? 'en' : 'es');
const nav = (lang: Lang, label: string) =>
  `<nav><a href="?lang=${other(lang)}" lang="${other(lang)}" hreflang="${other(lang)}">${e(label)}</a></nav>`;

/** GET /help: frequent questions and a way back to the panel. */
export function renderHelpPage(p: { lang: Lang; productName: string }): string {
  const t = HELP[p.lang];
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
export function renderAppPage(p: { lang: Lang; productName: string }): string {
  const t = APP[p.lang];
  return resaleLayout(
    p.lang,
    `${t.title} · ${p.productName}`,
    `${nav(p.lang, t.lang)}<p class="muted">${e(p.productName)}</p><h1>${e(t.title)}</h1><p>${e(t.intro(p.productName))}</p>
<style>h2{font-size:1.05rem;margin:1.25rem 0 .25rem}h2+p{margin-top:0}</style>
<h2>${e(t.iosTitle)}</h2><p>${e(t.ios)}</p><h2>${e(t.androidTitle)}</h2><p>${e(t.android)}</p>
<a class="btn" href="/${p.lang}/?PANEL_TAB=QR">${e(t.open)}</a><a class="btn secondary" href="/help?lang=${p.lang}">${e(t.help)}</a>`,
  );
}
