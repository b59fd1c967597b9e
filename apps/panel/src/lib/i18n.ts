/**
 * i18next set-up: en and es catalogues; the language is the first path segment (spec section 2 Routing).
 * Server message keys are catalogue keys (spec section 8).
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCALES, type Locale } from '@tp/contract/constants';

/**
 * Each catalogue is its own chunk, fetched only for the language in use: the
 * other one never crosses the wire (each is ~5 KiB compressed). Both hold every key (a test checks).
 */
const catalogues: Record<Locale, () => Promise<Record<string, unknown>>> = {
  en: () => import('../locales/en.json').then((m) => m.default),
  es: () => import('../locales/es.json').then((m) => m.default),
};

/** The language of a path: its first segment when it is a supported locale, else en. */
export function langFromPath(pathname: string): Locale {
  const seg = pathname.split('/').filter(Boolean)[0];
  return (LOCALES as readonly string[]).includes(seg) ? (seg as Locale) : 'en';
}

/** The same URL with another language segment. */
export function pathWithLang(pathname: string, lang: Locale): string {
  const parts = pathname.split('/').filter(Boolean);
  if ((LOCALES as readonly string[]).includes(parts[0])) parts[0] = lang;
  else parts.unshift(lang);
  return `/${parts.join('/')}/`;
}

/** Loads the catalogue of `lang` and starts i18next on it; resolves once `t` can translate. */
export async function initI18n(lang: Locale) {
  const translation = await catalogues[lang]();
  await i18next.use(initReactI18next).init({
    resources: { [lang]: { translation } },
    lng: lang,
    fallbackLng: lang,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = lang;
  return i18next;
}

/** Translates a server message key, falling back to `request_failed`. */
export function translateKey(key: string, fallback = 'request_failed'): string {
  return i18next.exists(key) ? i18next.t(key) : i18next.t(fallback);
}
