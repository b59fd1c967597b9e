/**
 * The API's texts in en and es (issue 43: one i18n mechanism for every surface): catalogues per language
 * (`src/locales/en.json`, `es.json`) read through i18next, the library the panel and console use, with the same
 * rules: `{{name}}` interpolation, CLDR plurals by `count` (`key_one`, `key_other`; Spanish `many` falls back to
 * `other`). Texts are plain: each surface escapes what it renders (the mail layout escapes every slot).
 * A key the English catalogue lacks fails the typecheck ({@link TextKey}); the panel's `src/locales/catalogues.test.ts`
 * checks that both languages have the same keys, none empty.
 */
import i18next from 'i18next';
import type { Locale } from '@tp/contract';
import en from '../locales/en.json' with { type: 'json' };
import es from '../locales/es.json' with { type: 'json' };

/** The dotted keys of a catalogue, plural forms named once (`mail.sign_in.valid` for `valid_one`/`valid_other`). */
type Keys<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? `${Prefix}${K extends `${infer Base}_${'one' | 'other'}` ? Base : K}`
    : T[K] extends readonly unknown[]
      ? never
      : Keys<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** A key of the API's catalogues (the English one is the reference; the Spanish one must have the same keys). */
export type TextKey = Keys<typeof en>;

/** The keys under `P` without it (distributes over the union of keys). */
type Under<K extends string, P extends string> = K extends `${P}.${infer Rest}` ? Rest : never;

/** The values a text interpolates: strings as they are (plain text), `count` picks the plural form. */
export type TextValues = Record<string, string | number>;

/** Both catalogues; Spanish typed as English's shape, so a key Spanish lacks fails the typecheck. */
const catalogues: Record<Locale, typeof en> = { en, es };

const instance = i18next.createInstance();
void instance.init({
  resources: { en: { translation: catalogues.en }, es: { translation: catalogues.es } },
  lng: 'en',
  fallbackLng: false,
  initAsync: false,
  // Plain text out: the mail layout and the pages escape what they render.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/**
 * The text of `key` in `locale` with `values` interpolated.
 * @example text('es', 'mail.sign_in.valid', { count: 5 }) // 'Caduca en 5 minutos. …'
 */
export function text(locale: Locale, key: TextKey, values: TextValues = {}): string {
  return instance.t(key, { ...values, lng: locale });
}

/** `text` bound to one language and one key prefix: `const t = texts('es', 'mail.gift_sent'); t('subject', {…})`. */
export function texts<P extends string>(
  locale: Locale,
  prefix: P,
): (key: Under<TextKey, P>, values?: TextValues) => string {
  return (key, values) => text(locale, `${prefix}.${key}` as TextKey, values);
}

/** The names of the pages' and documents' tables of fixed texts. */
type TableName = Extract<keyof typeof en.pages, string>;

/** A page's or a document's table of fixed texts: `pages.<name>`. */
export type TextTable = `pages.${TableName}`;

/**
 * The fixed texts of one page or document as one object (strings, lists such as the help page's questions, plural
 * pairs `{ one, other }`), typed as the English catalogue's: `textTable('es', 'pages.checkout').title`. A text with
 * values goes through `text`.
 */
export function textTable<P extends TextTable>(
  locale: Locale,
  table: P,
): (typeof en)['pages'][P extends `pages.${infer Name extends TableName}` ? Name : never] {
  return catalogues[locale].pages[table.slice('pages.'.length) as keyof typeof en.pages] as never;
}
