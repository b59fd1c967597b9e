/**
 * The door scanner's texts in English and Spanish, from its catalogues (`locales/scanner-en.json`,
 * `locales/scanner-es.json`, beside the panel's and the console's) read through i18next, the library the panel, the
 * console and the API's mails use, with the same rules (issue 43: one way to speak two languages): `{{name}}`
 * interpolation, CLDR plurals by `count` (`key_one`, `key_other`, and `key_zero` for a count of 0; Spanish `many`
 * falls back to `other`). The page's language comes from `<html lang>`, which the server sets from `?lang=es` (apps/api
 * scanner.public.routes.ts). Elements of index.html name their text with `data-i18n="<key>"`; a test checks every key
 * exists in both.
 */
import i18next from 'i18next';
import type { Locale } from '@tp/contract';
import {
  formatAt,
  formatDateTime,
  formatLocalDays,
  langOf as contractLangOf,
  type DateViewer,
} from '@tp/contract/format';
import en from './locales/scanner-en.json';
import es from './locales/scanner-es.json';

/** A text key of the scanner, plural forms named once (`tickets` for `tickets_one`/`tickets_other`). */
export type TextKey = keyof typeof en extends infer K
  ? K extends `${infer Base}_${'zero' | 'one' | 'other'}`
    ? Base
    : K & string
  : never;

/** Both languages' catalogues (Spanish must have every English key, the typecheck says). */
export const catalogues: Record<Locale, typeof en> = { en, es: es satisfies typeof en };

/**
 * The scanner's texts in one language: `t('ready')`, `t('tickets', { count: 2 })` (`2 tickets`),
 * `t('usedAt', { time })`. Values are put in as they are: the page sets them as text, never as HTML.
 */
export type Texts = (key: TextKey, values?: Record<string, string | number>) => string;

const instance = i18next.createInstance();
void instance.init({
  resources: { en: { translation: catalogues.en }, es: { translation: catalogues.es } },
  lng: 'en',
  fallbackLng: false,
  initAsync: false,
  // Plain text out: the page sets every text with `textContent`.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** The texts of `lang` (see {@link Texts}). */
export const textsFor =
  (lang: Locale): Texts =>
  (key, values = {}) =>
    instance.t(key, { ...values, lng: lang });

/** The page language from a `lang` attribute: Spanish for `es`, English otherwise (the contract's helper). */
export const langOf: (value: string | null | undefined) => Locale = contractLangOf;

/**
 * Date formats of the page, through the product's one date helper (`@tp/contract/format`) in the page
 * language: check-in times in the picked event's time zone (`setTimeZone`), event dates each in its own zone, with
 * the zone's short name when it differs from the device's and the year when it is not this one (issue 40).
 * `viewer` (the device's zone and clock when omitted) is for tests.
 */
export function formatsFor(lang: Locale, viewer?: DateViewer) {
  const locale = lang === 'es' ? 'es-ES' : 'en-AU';
  let zone: string | undefined;
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  return {
    /** How long ago `iso` (ISO 8601 UTC) was at `nowMs`: "now", "2 minutes ago", "hace 1 hora". */
    ago: (iso: string, nowMs: number) => {
      const seconds = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));
      if (seconds < 60) return relative.format(-seconds, 'second');
      if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), 'minute');
      if (seconds < 86_400) return relative.format(-Math.floor(seconds / 3600), 'hour');
      return relative.format(-Math.floor(seconds / 86_400), 'day');
    },
    /** The IANA zone of the picked event, in which check-in times are shown (the device's until one is picked). */
    setTimeZone: (timeZone: string | undefined) => {
      zone = timeZone;
    },
    /** A check-in time (ISO 8601 UTC) inside a sentence: "Wed, 25 Nov, 9:53 PM" / "mié, 25 nov a las 21:53". */
    time: (iso: string) => formatAt(iso, zone, lang, viewer),
    /** An event's start (ISO 8601 UTC) in its own zone, as the panel's cards: "Tue, 01 Dec, 7:00 PM" / "mar, 1 dic 19:00". */
    date: (iso: string, timeZone?: string) => formatDateTime(iso, timeZone, lang, viewer),
    /** The days an entry rule admits on (event-local `YYYY-MM-DD`, sorted): "Sat 11–Sun 12" / "sáb 11–dom 12". */
    days: (days: readonly string[]) => formatLocalDays(days, lang),
  };
}
export type Formats = ReturnType<typeof formatsFor>;
