/**
 * The demo host page served at `/`: an organiser's own web site that embeds the panel through the
 * loader (`/embed.js`), as a modal (the "My tickets" buttons) and inline (the "Your tickets" section).
 * The page's own script (apps/panel/src/demo-host, built to /demo-host.js) mounts the inline panel and
 * writes the loader's onClose / onLogout callbacks into a visible status line, so a person (or a test)
 * sees them fire. `?lang=es` shows the page and the panel in Spanish; `?noembed=1` leaves the loader
 * and that script out (the same page without the panel, the baseline of the benchmark's Lighthouse
 * comparison); `?inline=0` keeps the loader and its open buttons but leaves the inline panel and its script
 * out (the page the benchmark's Lighthouse run measures: an organiser's site with only the open button);
 * `?org=<slug>` is the site of that organisation, its panel branded through the loader's
 * `data-org` (issue 12). No inline script.
 */
import type { Locale } from '@tp/contract';
import { textTable } from '../lib/i18n.js';
import { escapeHtml as e } from './html.js';

const EVENTS = [
  { name: 'Harbour Lights Festival', city: 'Sydney', img: 'harbour-lights' },
  { name: 'Laneway Sessions', city: 'Melbourne', img: 'laneway-sessions' },
  { name: 'Aotearoa Sound', city: 'Auckland', img: 'aotearoa-sound' },
  { name: 'River Nights', city: 'Brisbane', img: 'river-nights' },
];

/**
 * Renders the demo host page. `panelOrigin` is where `/embed.js` and the panel are served; `nonce` is the
 * response's CSP script nonce (lib/security-headers.ts), carried by the page's inline script.
 */
export function renderDemoHostPage(opts: {
  nonce: string;
  /** The organisation the embedded panel is shown for (the loader's `data-org`). */
  orgSlug: string;
  orgName: string;
  orgLogoUrl: string;
  orgWebsite: string;
  panelOrigin: string;
  lang: Locale;
  /** Include the loader and its open buttons (default true). */
  embed?: boolean;
  /** With the loader, also the inline panel and the page's script that mounts it (default true). */
  inline?: boolean;
}): string {
  const t = textTable(opts.lang, 'pages.demo_host');
  const inline = opts.embed !== false && opts.inline !== false;
  const loader = `<script src="${e(opts.panelOrigin)}/embed.js" data-org="${e(opts.orgSlug)}" data-lang="${opts.lang}" data-title="${t.myTickets}"></script>
${
  inline
    ? `<script src="${e(opts.panelOrigin)}/demo-host.js"></script>
`
    : ''
}`;
  const cards = EVENTS.map(
    (ev) =>
      `<li class="card"><img src="${e(opts.panelOrigin)}/public/images/${ev.img}.svg" alt="" width="320" height="160"><div><strong>${e(ev.name)}</strong><span>${e(ev.city)}</span></div></li>`,
  ).join('');
  return `<!doctype html>
<html lang="${opts.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(opts.orgName)}</title>
<link rel="icon" href="${e(opts.orgLogoUrl)}">
<style>
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#161326;background:#faf8ff}
a{color:#5b21b6}
header{display:flex;align-items:center;gap:16px;padding:14px 20px;background:#1e1b4b;color:#fff;flex-wrap:wrap}
header img{border-radius:10px}header .brand{display:flex;align-items:center;gap:10px;font-weight:800;font-size:1.1rem;color:#fff;text-decoration:none}
nav{display:flex;gap:16px;flex-wrap:wrap}nav a{color:#e9e5ff;text-decoration:none;font-size:.95rem}
.spacer{flex:1}.btn{display:inline-flex;align-items:center;gap:8px;min-height:44px;padding:10px 18px;border:0;border-radius:999px;background:#facc15;color:#1e1b4b;font-weight:700;cursor:pointer;font-size:1rem}
.lang{color:#e9e5ff}
.hero{padding:56px 20px;background:linear-gradient(135deg,#1e1b4b,#7c3aed);color:#fff}
.hero>div{max-width:1024px;margin:0 auto}.hero h1{font-size:clamp(1.8rem,5vw,3rem);line-height:1.1;margin:8px 0 12px}.hero p{max-width:560px;color:#e9e5ff}
.eyebrow{text-transform:uppercase;letter-spacing:.12em;font-size:.8rem;color:#facc15;font-weight:700}
main{max-width:1024px;margin:0 auto;padding:32px 20px}
.cards{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:16px}
.card{background:#fff;border-radius:16px;overflow:hidden;box-shadow:0 6px 20px rgba(30,27,75,.08)}.card img{display:block;width:100%;height:auto}
.card div{padding:12px 14px;display:flex;flex-direction:column}.card span{color:#5b5675;font-size:.9rem}
.inline{margin-top:40px}.inline-frame{border:1px solid #e4defa;border-radius:18px;overflow:hidden;background:#fff}
.status{margin-top:24px;padding:12px 16px;border-radius:12px;background:#efeaff}.status h2{font-size:1rem;margin:0 0 4px}.status p{margin:0}
footer{padding:24px 20px;text-align:center;color:#5b5675;font-size:.9rem}
</style>
</head>
<body>
<header>
  <a class="brand" href="${e(opts.orgWebsite)}"><img src="${e(opts.orgLogoUrl)}" alt="" width="40" height="40">${e(opts.orgName)}</a>
  <nav aria-label="${e(opts.orgName)}">${t.nav.map((n) => `<a href="#events">${e(n)}</a>`).join('')}</nav>
  <span class="spacer"></span>
  <a class="lang" href="${t.langHref}">${t.lang}</a>
  <button class="btn" type="button" data-ticket-panel-open>${t.myTickets}</button>
</header>
<section class="hero"><div>
  <span class="eyebrow">${t.season}</span>
  <h1>${t.hero}</h1>
  <p>${t.lead}</p>
  <button class="btn" type="button" data-ticket-panel-open="MY_TICKET">${t.myTickets}</button>
</div></section>
<main>
  <h2 id="events">${t.events}</h2>
  <ul class="cards">${cards}</ul>
  ${
    inline
      ? `<section class="inline" aria-labelledby="inline-title">
    <h2 id="inline-title">${t.inline}</h2>
    <p>${t.inlineLead}</p>
    <div id="ticket-panel-inline" class="inline-frame"></div>
  </section>`
      : ''
  }
  <section class="status" aria-labelledby="status-title">
    <h2 id="status-title">${t.status}</h2>
    <p id="panel-status" role="status" aria-live="polite" data-closed="${e(t.closed)}" data-logged-out="${e(t.loggedOut)}">${t.idle}</p>
  </section>
</main>
<footer>${t.foot}${opts.embed === false ? '' : `<br><code>${e(`<script src="${opts.panelOrigin}/embed.js" data-org="${opts.orgSlug}"></script>`)}</code>`}</footer>
${opts.embed === false ? '' : loader}</body>
</html>`;
}
