/**
 * The door scanner's entry (index.html, served at /scanner): texts in the page's language, then the
 * page's behaviour (scanner.ts) against the server (door-api.ts).
 */
import './scanner.css';
import { onlineDoor } from './door-api';
import { catalogues, formatsFor, langOf, type TextKey } from './i18n';
import { startScanner } from './scanner';

const lang = langOf(document.documentElement.lang);
const texts = catalogues[lang];
document.title = texts.title;
for (const node of document.querySelectorAll<HTMLElement>('[data-i18n]')) {
  node.textContent = texts[node.dataset.i18n as TextKey];
}
const other = lang === 'es' ? 'en' : 'es';
const langLink = document.getElementById('lang-link');
langLink?.setAttribute('href', `?lang=${other}`);
langLink?.setAttribute('lang', other);

void startScanner({
  doc: document,
  texts,
  formats: formatsFor(lang),
  storage: sessionStorage,
  doorFor: (key) => onlineDoor(key),
});
