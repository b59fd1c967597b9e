/**
 * i18next set-up: en and es catalogues; the language is the first path segment (spec section 2 Routing).
 * Server message keys are catalogue keys (spec section 8).
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCALES, type Locale } from '@tp/contract/constants';
import { langOf } from '@tp/contract/locale';

/**
 * Each catalogue is its own chunk, fetched only for the language in use: the
 * other one never crosses the wire (each is ~5 KiB compressed). Both hold every key (a test checks).
 */
const catalogues: Record<Locale, () => Promise<Record<string, unknown>>> = {
  en: () => import('../locales/en.json').then((m) => m.default),
  es: () => import('../locales/es.json').then((m) => m.default),
};

/**
 * Texts no LOGIN screen shows (issue 13's feedback: empty states, the swap summary, the resend countdown; since
 * issue 30 every signed-in screen's group: otp, personal, qr, offline_pass, tickets, ticket, gift, swap, account,
 * settings, resell, redeem, payout...): a second chunk per language, loaded with the first screen past LOGIN
 * (app.tsx; preloaded by the document for a signed-in start, vite.config.ts), so the cold LOGIN screen stays
 * within its 120 KiB (e2e/bytes.spec.ts, decision 004). The main catalogue keeps what the frame, the hub, the
 * toasts and LOGIN show. Same rule as the main catalogues: both hold every key.
 */
const laterCatalogues: Record<Locale, () => Promise<Record<string, unknown>>> = {
  en: () => import('../locales/later/later-en.json').then((m) => m.default),
  es: () => import('../locales/later/later-es.json').then((m) => m.default),
};
let later: Promise<void> | null = null;

/** Adds the later texts of the active language to i18next (once per `initI18n`); resolves when `t` has them. */
export function loadLaterTexts(): Promise<void> {
  later ??= (async () => {
    const lang = langFromPath(`/${i18next.language}/`);
    i18next.addResourceBundle(lang, 'translation', await laterCatalogues[lang](), true, false);
  })();
  return later;
}

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
  later = null;
  await i18next.use(initReactI18next).init({
    resources: { [lang]: { translation } },
    lng: lang,
    fallbackLng: lang,
    interpolation: { escapeValue: false },
    returnNull: false,
    // The one translate path: every `t(key)` (screens, validation messages, server keys) ends here
    // when the catalogue lacks the key, so no screen ever shows a raw message key.
    parseMissingKeyHandler: missingKey,
  });
  document.documentElement.lang = lang;
  return i18next;
}

/** The generic message shown for a key the catalogue lacks (an unknown server key, a typo). */
export const FALLBACK_KEY = 'request_failed';

/**
 * What `t` returns for a key missing from the catalogue: the caller's `defaultValue` when it gave one,
 * else the generic `request_failed` message; in development the key is logged so it gets added.
 */
export function missingKey(key: string, defaultValue?: string): string {
  if (import.meta.env.DEV) console.warn(`[i18n] missing message key: ${key}`);
  if (defaultValue !== undefined && defaultValue !== key) return defaultValue;
  return key === FALLBACK_KEY ? 'Request failed.' : i18next.t(FALLBACK_KEY);
}

/**
 * A link out of the panel (help centre, get the app) carrying the panel's language as `?lang=` (issue 29),
 * so the page opens in it rather than in the browser's. A URL that does not parse is returned as given.
 */
export function linkWithLang(url: string, lang: string): string {
  try {
    const u = new URL(url, window.location.href);
    u.searchParams.set('lang', langOf(lang));
    return u.toString();
  } catch {
    return url;
  }
}
