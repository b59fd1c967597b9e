/**
 * The door scanner's entry (index.html, served at /scanner/): texts in the page's language, then the
 * page's behaviour (scanner.ts) against the offline-capable door (offline-door.ts: the server while
 * online, the admissions snapshot and queue in IndexedDB while offline), and the service worker that
 * serves the page with no network (vite-plugin-pwa, vite.scanner.config.ts).
 */
import './scanner.css';
import { createStore, get, set } from 'idb-keyval';
import { otherLocale } from '@tp/contract/constants';
import { formatsFor, langOf, textsFor, type TextKey } from './i18n';
import { offlineDoor, type DoorStore } from './offline-door';
import { passVerifier } from './pass-verifier';
import { DEVICE_ID_KEY, keyFromFragment, startScanner } from './scanner';

// `?lang=` first: offline, the service worker answers with the page as cached, whatever its language.
const lang = langOf(new URLSearchParams(location.search).get('lang') ?? document.documentElement.lang);
document.documentElement.lang = lang;
const texts = textsFor(lang);
document.title = texts('title');
for (const node of document.querySelectorAll<HTMLElement>('[data-i18n]')) {
  node.textContent = texts(node.dataset.i18n as TextKey);
}
const other = otherLocale(lang);
const langLink = document.getElementById('lang-link');
langLink?.setAttribute('href', `?lang=${other}`);
langLink?.setAttribute('lang', other);

const idb = createStore('tp-scanner', 'door');
/** The door's snapshot, queue, conflicts and event list: IndexedDB `tp-scanner`, kept across reloads. */
const store: DoorStore = { get: (key) => get(key, idb), set: (key, value) => set(key, value, idb) };

/** This device's stable id, sent with every door call for the server's check-in log (issue 26 point 7). */
function deviceId(): string {
  const kept = localStorage.getItem(DEVICE_ID_KEY);
  if (kept) return kept;
  const made = crypto.randomUUID();
  localStorage.setItem(DEVICE_ID_KEY, made);
  return made;
}

// A set-up link from the organiser's console (`/scanner#key=tpd_…`): take the key, then remove it from the
// address bar (and this history entry) so that it is not shown, bookmarked or shared by accident.
const linkKey = keyFromFragment(location.hash);
if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);

void startScanner({
  linkKey,
  doc: document,
  texts,
  formats: formatsFor(lang),
  // The door key stays on the device until "Forget this door" (issue 20 point 4).
  storage: localStorage,
  doorFor: (key) => offlineDoor({ key, deviceId: deviceId(), store, verify: passVerifier, win: window }),
});

/**
 * The service worker (vite-plugin-pwa): it precaches the scripts and styles, and keeps the page; the
 * page is fetched once through it as soon as it controls this tab, so a first visit opens offline too.
 */
async function installOffline() {
  if (!('serviceWorker' in navigator)) return;
  const { registerSW } = await import('virtual:pwa-register');
  registerSW({ immediate: true });
  const sw = navigator.serviceWorker;
  if (!sw.controller) await new Promise((resolve) => sw.addEventListener('controllerchange', resolve, { once: true }));
  await fetch(location.href, { credentials: 'same-origin' }).catch(() => undefined);
}
void installOffline();
