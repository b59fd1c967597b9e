/**
 * The door-scanner page served at `/scanner` (`?lang=es` for Spanish): door staff enter the scanner key
 * (kept in the tab's sessionStorage only), pick the event, then scan passes with a USB/phone scanner that
 * types the code and Enter, or with the camera where the browser has `BarcodeDetector`. Each scan is
 * POSTed to /v1/access/check-in and answered with a big ADMITTED (green), ALREADY USED / LISTED FOR
 * RESALE (amber) or INVALID / NO TICKET (red) panel.
 *
 * No external scripts or styles: one inline script and one inline style, both allowed by a per-request
 * CSP nonce. Server text is escaped; data from the API is written with `textContent` only.
 */
import { escapeHtml as e } from './html.js';

export type ScannerLang = 'en' | 'es';

const T = {
  en: {
    title: 'Door scanner',
    lang: 'Español',
    langHref: '?lang=es',
    noScript: 'The door scanner needs JavaScript.',
    keyLabel: 'Scanner key',
    keyHelp: 'Ask the organiser for the scanner key. It is kept in this browser tab only.',
    start: 'Start scanning',
    wrongKey: 'Wrong scanner key.',
    eventLabel: 'Event',
    noEvents: 'No upcoming events.',
    codeLabel: 'Pass code',
    codeHelp: 'Scan the QR pass with a scanner, or type the code and press Enter.',
    check: 'Check',
    camera: 'Scan with camera',
    stopCamera: 'Stop camera',
    cameraError: 'The camera could not be opened.',
    changeKey: 'Change scanner key',
    ready: 'Ready',
    readyDetail: 'Scan a QR pass.',
    checking: 'Checking…',
    admitted: 'ADMITTED',
    ticketsOne: '1 ticket',
    ticketsMany: '{n} tickets',
    alreadyUsed: 'ALREADY USED',
    usedAt: 'used {time}',
    alsoUsed: 'Already used before:',
    listed: 'LISTED FOR RESALE',
    listedDetail: 'Listed for resale: the holder must unlist it in the ticket panel before entry.',
    alsoListed: 'Not admitted, listed for resale:',
    invalid: 'INVALID',
    invalidDetail: 'This pass is not valid or has expired. Ask the holder to open their QR pass again.',
    noTicket: 'NO TICKET',
    noTicketDetail: 'No ticket for this event.',
    eventNotFound: 'This event no longer exists. Pick another one.',
    tooMany: 'Too many scans from this device. Wait a moment and scan again.',
    network: 'Could not reach the server. Check the connection and scan again.',
    failed: 'Something went wrong. Scan again.',
    pickEvent: 'Pick an event first.',
    holder: 'Holder',
  },
  es: {
    title: 'Control de acceso',
    lang: 'English',
    langHref: '?lang=en',
    noScript: 'El control de acceso necesita JavaScript.',
    keyLabel: 'Clave del escáner',
    keyHelp: 'Pide la clave del escáner al organizador. Solo se guarda en esta pestaña del navegador.',
    start: 'Empezar a escanear',
    wrongKey: 'Clave del escáner incorrecta.',
    eventLabel: 'Evento',
    noEvents: 'No hay eventos próximos.',
    codeLabel: 'Código del pase',
    codeHelp: 'Escanea el pase QR con un lector o escribe el código y pulsa Intro.',
    check: 'Comprobar',
    camera: 'Escanear con la cámara',
    stopCamera: 'Detener cámara',
    cameraError: 'No se ha podido abrir la cámara.',
    changeKey: 'Cambiar clave del escáner',
    ready: 'Listo',
    readyDetail: 'Escanea un pase QR.',
    checking: 'Comprobando…',
    admitted: 'ADMITIDO',
    ticketsOne: '1 entrada',
    ticketsMany: '{n} entradas',
    alreadyUsed: 'YA USADA',
    usedAt: 'usada {time}',
    alsoUsed: 'Ya usadas antes:',
    listed: 'EN REVENTA',
    listedDetail: 'En reventa: el titular debe retirarla de la venta en el panel de entradas antes de entrar.',
    alsoListed: 'No admitidas, en reventa:',
    invalid: 'NO VÁLIDO',
    invalidDetail: 'Este pase no es válido o ha caducado. Pide al titular que vuelva a abrir su pase QR.',
    noTicket: 'SIN ENTRADA',
    noTicketDetail: 'No tiene entrada para este evento.',
    eventNotFound: 'Este evento ya no existe. Elige otro.',
    tooMany: 'Demasiados escaneos desde este dispositivo. Espera un momento y vuelve a escanear.',
    network: 'No se ha podido contactar con el servidor. Revisa la conexión y vuelve a escanear.',
    failed: 'Algo ha fallado. Vuelve a escanear.',
    pickEvent: 'Elige primero un evento.',
    holder: 'Titular',
  },
} as const;

/** The page's strings in a language (tests read them). */
export const scannerText = (lang: ScannerLang) => T[lang];

/** JSON for an inline script: `<` escaped so no `</script>` can close it. */
const inlineJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const STYLE = `
:root{color-scheme:light dark;--bg:#f4f5f7;--surface:#fff;--text:#15171a;--muted:#5b6270;--border:#c8ccd3;--accent:#1a56db;--accent-text:#fff;
--ok:#15803d;--ok-text:#fff;--warn:#f59e0b;--warn-text:#1c1917;--bad:#b91c1c;--bad-text:#fff}
@media (prefers-color-scheme:dark){:root{--bg:#111214;--surface:#1c1d20;--text:#eceef1;--muted:#a6adbb;--border:#3d4048;--accent:#5b8def;--accent-text:#0b0c0e;--ok:#16a34a;--ok-text:#04140a;--bad:#dc2626}}
*{box-sizing:border-box}
body{font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:var(--bg);color:var(--text)}
header{display:flex;align-items:center;justify-content:space-between;gap:.5rem;max-width:560px;margin:0 auto;padding:.75rem 1rem 0}
h1{font-size:1.2rem;margin:0}
header a{color:inherit;font-size:.95rem}
main{max-width:560px;margin:.5rem auto 2rem;padding:0 1rem}
.card{background:var(--surface);border-radius:14px;padding:1rem;box-shadow:0 2px 12px #0000000f}
label{display:block;font-weight:600;margin:.25rem 0}
input,select{width:100%;min-height:48px;padding:.6rem .75rem;border:1px solid var(--border);border-radius:10px;font:inherit;background:var(--surface);color:var(--text)}
input:focus-visible,select:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
button{min-height:48px;padding:.6rem 1rem;border:0;border-radius:10px;font:inherit;font-weight:650;cursor:pointer;background:var(--accent);color:var(--accent-text)}
button.secondary{background:transparent;color:var(--text);border:1px solid var(--border);width:100%}
button.link{background:none;color:var(--muted);text-decoration:underline;min-height:44px;padding:.5rem 0;font-weight:500}
.wide{width:100%;margin-top:.75rem}
.row{display:flex;gap:.5rem}
.row input{flex:1;min-width:0;font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
.muted{color:var(--muted);font-size:.9rem;margin:.35rem 0 0}
.error{color:var(--bad);font-weight:600;margin:.5rem 0 0}
.error:empty{display:none}
.field{margin-top:.9rem}
.field:first-child{margin-top:0}
.result{margin:.9rem 0;border-radius:14px;padding:1rem 1.1rem;min-height:8.5rem;background:var(--surface);border:2px solid var(--border)}
.result .verdict{font-size:clamp(2rem,11vw,3.2rem);font-weight:800;letter-spacing:.02em;line-height:1.05;margin:0;overflow-wrap:anywhere}
.result .detail{font-size:1.15rem;font-weight:600;margin:.35rem 0 0}
.result .holder{margin:.35rem 0 0;font-size:1.05rem}
.result ul{margin:.4rem 0 0;padding-left:1.2rem;font-size:1.05rem}
.result .sub{margin:.6rem 0 0;font-weight:600}
.result.idle .verdict,.result.busy .verdict{font-size:1.6rem;color:var(--muted)}
.result.ok{background:var(--ok);color:var(--ok-text);border-color:var(--ok)}
.result.warn{background:var(--warn);color:var(--warn-text);border-color:var(--warn)}
.result.bad{background:var(--bad);color:var(--bad-text);border-color:var(--bad)}
video{display:block;width:100%;max-height:55vh;object-fit:cover;border-radius:12px;margin-top:.75rem;background:#000}
[hidden]{display:none!important}
`;

/** Client script: key step, event picker, code input, camera scanning, check-in calls and the result panel. */
const SCRIPT = `
const KEY = 'tp.scanner.key', EVENT = 'tp.scanner.event';
const $ = (id) => document.getElementById(id);
const keyStep = $('key-step'), scanStep = $('scan-step'), keyForm = $('key-form'), keyInput = $('scanner-key'), keyError = $('key-error');
const eventSel = $('event'), noEvents = $('no-events'), codeForm = $('code-form'), codeInput = $('code'), result = $('result');
const cameraBtn = $('camera'), video = $('video');
let key = sessionStorage.getItem(KEY) || '';
let busy = false, stream = null, detector = null, lastHolder = '', lastSeen = 0;

const fmt = (s, vars) => s.replace(/\\{(\\w+)\\}/g, (_, k) => String(vars[k]));
const timeFmt = new Intl.DateTimeFormat(LANG === 'es' ? 'es-ES' : 'en-AU', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
const dateFmt = new Intl.DateTimeFormat(LANG === 'es' ? 'es-ES' : 'en-AU', { weekday: 'short', day: 'numeric', month: 'short' });
const el = (tag, text, cls) => { const n = document.createElement(tag); if (text != null) n.textContent = text; if (cls) n.className = cls; return n; };

function show(kind, verdict, detail, extra) {
  result.className = 'result ' + kind;
  result.replaceChildren(el('p', verdict, 'verdict'));
  if (detail) result.append(el('p', detail, 'detail'));
  for (const node of extra || []) result.append(node);
}
function list(items) { const ul = el('ul'); for (const text of items) ul.append(el('li', text)); return ul; }
/** "2 × General Admission" for repeated names. */
function grouped(tickets, label) {
  const counts = new Map();
  for (const t of tickets) counts.set(t.ticketName, (counts.get(t.ticketName) || 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? n + ' × ' : '') + name + (label ? label(name) : ''));
}
const usedList = (used) => used.map((t) => t.ticketName + ' · ' + fmt(T.usedAt, { time: timeFmt.format(new Date(t.usedAt)) }));
const holderLine = (name) => el('p', T.holder + ': ' + name, 'holder');
const buzz = (pattern) => { try { navigator.vibrate && navigator.vibrate(pattern); } catch {} };

function showCheckIn(body) {
  const { admitted, alreadyUsed, listedForResale, holderName } = body;
  if (admitted.length > 0) {
    const extra = [holderLine(holderName), list(grouped(admitted))];
    if (alreadyUsed.length) extra.push(el('p', T.alsoUsed, 'sub'), list(usedList(alreadyUsed)));
    if (listedForResale.length) extra.push(el('p', T.alsoListed, 'sub'), list(grouped(listedForResale)));
    show('ok', T.admitted, admitted.length === 1 ? T.ticketsOne : fmt(T.ticketsMany, { n: admitted.length }), extra);
    buzz(120);
  } else if (alreadyUsed.length > 0) {
    const extra = [holderLine(holderName), list(usedList(alreadyUsed))];
    if (listedForResale.length) extra.push(el('p', T.alsoListed, 'sub'), list(grouped(listedForResale)));
    show('warn', T.alreadyUsed, alreadyUsed.length === 1 ? T.ticketsOne : fmt(T.ticketsMany, { n: alreadyUsed.length }), extra);
    buzz([80, 60, 80]);
  } else if (listedForResale.length > 0) {
    show('warn', T.listed, T.listedDetail, [holderLine(holderName), list(grouped(listedForResale))]);
    buzz([80, 60, 80]);
  } else {
    show('bad', T.noTicket, T.noTicketDetail, [holderLine(holderName)]);
    buzz([200, 80, 200]);
  }
}

async function api(path, init) {
  const headers = Object.assign({ 'x-scanner-key': key }, init && init.body ? { 'content-type': 'application/json' } : {});
  const r = await fetch('/v1' + path, Object.assign({}, init, { headers, cache: 'no-store' }));
  const body = await r.json().catch(() => ({}));
  return { status: r.status, body };
}

function toKeyStep(message) {
  stopCamera();
  key = '';
  sessionStorage.removeItem(KEY);
  scanStep.hidden = true;
  keyStep.hidden = false;
  keyError.textContent = message || '';
  keyInput.value = '';
  keyInput.focus();
}

async function loadEvents() {
  const { status, body } = await api('/access/events');
  if (status === 401) return toKeyStep(T.wrongKey);
  if (status !== 200) throw new Error('events ' + status);
  const saved = sessionStorage.getItem(EVENT);
  eventSel.replaceChildren(...body.map((ev) => {
    const o = el('option', ev.name + ' · ' + ev.city + ' · ' + dateFmt.format(new Date(ev.startsAt)));
    o.value = String(ev.id);
    return o;
  }));
  if (saved && body.some((ev) => String(ev.id) === saved)) eventSel.value = saved;
  noEvents.hidden = body.length > 0;
  keyStep.hidden = true;
  scanStep.hidden = false;
  show('idle', T.ready, T.readyDetail);
  codeInput.focus();
}

async function check(code, fromInput) {
  code = code.trim();
  if (!code || busy) return;
  if (!eventSel.value) { show('bad', T.pickEvent); return; }
  busy = true;
  show('busy', T.checking);
  try {
    const { status, body } = await api('/access/check-in', { method: 'POST', body: JSON.stringify({ code, eventId: Number(eventSel.value) }) });
    if (status === 200) showCheckIn(body);
    else if (status === 401) return toKeyStep(T.wrongKey);
    else if (status === 400) { show('bad', T.invalid, T.invalidDetail); buzz([200, 80, 200]); }
    else if (status === 404) { show('bad', T.eventNotFound); loadEvents().catch(() => {}); }
    else if (status === 429) show('bad', T.tooMany);
    else show('bad', T.failed);
  } catch {
    show('bad', T.network);
  } finally {
    busy = false;
    if (fromInput) { codeInput.value = ''; codeInput.focus(); }
  }
}

keyForm.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const value = keyInput.value.trim();
  if (!value) return;
  key = value;
  sessionStorage.setItem(KEY, key);
  keyError.textContent = '';
  try { await loadEvents(); } catch { keyError.textContent = T.network; }
});
codeForm.addEventListener('submit', (ev) => { ev.preventDefault(); check(codeInput.value, true); });
eventSel.addEventListener('change', () => { sessionStorage.setItem(EVENT, eventSel.value); show('idle', T.ready, T.readyDetail); });
$('change-key').addEventListener('click', () => toKeyStep(''));

function stopCamera() {
  if (stream) for (const track of stream.getTracks()) track.stop();
  stream = null;
  video.srcObject = null;
  video.hidden = true;
  cameraBtn.textContent = T.camera;
}
async function scanLoop() {
  if (!stream) return;
  try {
    if (!busy && video.readyState >= 2) {
      const found = await detector.detect(video);
      const hit = found.find((b) => b.rawValue.startsWith('TP1.')) || found[0];
      if (hit) {
        // A pass held in view (its code turns every ttl) is checked once: the same holder is checked
        // again only after being out of view for 3 s, so ADMITTED is not replaced by ALREADY USED.
        const holder = hit.rawValue.split('.').slice(0, 2).join('.');
        const again = holder === lastHolder && Date.now() - lastSeen < 3000;
        lastHolder = holder;
        lastSeen = Date.now();
        if (!again) await check(hit.rawValue, false);
      }
    }
  } catch {}
  setTimeout(scanLoop, 200);
}
if ('BarcodeDetector' in window && navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
  cameraBtn.hidden = false;
  cameraBtn.addEventListener('click', async () => {
    if (stream) return stopCamera();
    try {
      detector = detector || new BarcodeDetector({ formats: ['qr_code'] });
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      video.srcObject = stream;
      video.hidden = false;
      await video.play();
      cameraBtn.textContent = T.stopCamera;
      scanLoop();
    } catch {
      stopCamera();
      show('bad', T.cameraError);
    }
  });
}

if (key) loadEvents().catch(() => { keyStep.hidden = false; keyError.textContent = T.network; });
else { keyStep.hidden = false; keyInput.focus(); }
`;

/**
 * The scanner page's HTML.
 * @param nonce the per-request CSP nonce allowing the inline script and style.
 */
export function renderScannerPage(p: { lang: ScannerLang; nonce: string }): string {
  const t = T[p.lang];
  const n = e(p.nonce);
  return `<!doctype html><html lang="${p.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>${e(t.title)}</title><style nonce="${n}">${STYLE}</style></head>
<body><header><h1>${e(t.title)}</h1><a href="${e(t.langHref)}" lang="${p.lang === 'es' ? 'en' : 'es'}">${e(t.lang)}</a></header>
<main>
<noscript><p class="card error">${e(t.noScript)}</p></noscript>
<section id="key-step" class="card" hidden>
<form id="key-form" novalidate>
<label for="scanner-key">${e(t.keyLabel)}</label>
<input id="scanner-key" name="scanner-key" type="password" autocomplete="off" required>
<p class="muted">${e(t.keyHelp)}</p>
<p id="key-error" class="error" role="alert"></p>
<button type="submit" class="wide">${e(t.start)}</button>
</form>
</section>
<section id="scan-step" hidden>
<div class="card">
<label for="event">${e(t.eventLabel)}</label>
<select id="event" name="event"></select>
<p id="no-events" class="error" hidden>${e(t.noEvents)}</p>
</div>
<div id="result" class="result idle" role="status" aria-live="assertive" aria-atomic="true"><p class="verdict">${e(t.ready)}</p><p class="detail">${e(t.readyDetail)}</p></div>
<div class="card">
<form id="code-form" novalidate>
<label for="code">${e(t.codeLabel)}</label>
<div class="row"><input id="code" name="code" autocomplete="off" autocapitalize="off" autocorrect="off" spellcheck="false" enterkeyhint="go" maxlength="200" aria-describedby="code-help"><button type="submit">${e(t.check)}</button></div>
<p id="code-help" class="muted">${e(t.codeHelp)}</p>
</form>
<button id="camera" type="button" class="secondary wide" hidden>${e(t.camera)}</button>
<video id="video" playsinline muted hidden></video>
</div>
<button id="change-key" type="button" class="link">${e(t.changeKey)}</button>
</section>
</main>
<script nonce="${n}">const LANG = ${inlineJson(p.lang)}; const T = ${inlineJson(t)};${SCRIPT}</script>
</body></html>`;
}
