import { isLocale, type Locale } from '@tp/contract';

/**
 * The language of a request (en or es): an explicit `lang` wins, then the first of `en`/`es` in
 * Accept-Language (by q-value), else English. `Lang` is the contract's `Locale`.
 */
export type Lang = Locale;

/** Picks `en` or `es` from an explicit value (query `?lang=`, body field) or an Accept-Language header. */
export function pickLang(explicit?: unknown, acceptLanguage?: string): Lang {
  if (isLocale(explicit)) return explicit;
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return { base: tag.split('-')[0], q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => isLocale(x.base) && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return (ranked[0]?.base as Lang | undefined) ?? 'en';
}

/** The raw `?lang=` of a request (any type, undefined when absent), for `pickLang`; routes need not declare it. */
export function queryLang(req: { query: unknown }): unknown {
  const query = req.query as { lang?: unknown } | null | undefined;
  return query?.lang;
}

/**
 * The language of the panel a request comes from (issue 29): the panel sends its active language as
 * `Accept-Language` on every call (apps/panel/src/lib/api-client.ts); a browser's own header is read the
 * same way (first of en/es by q-value, else English).
 */
export const requestLang = (req: { headers: { 'accept-language'?: string } }): Lang =>
  pickLang(undefined, req.headers['accept-language']);

/**
 * A human date and time of an event in its own time zone, in the reader's language: the contract's one
 * date helper (`@tp/contract/format`, issue 29), re-exported for the pages, mails and PDF.
 */
export { formatEventDateTime } from '@tp/contract/format';

/**
 * The CLDR plural form of `count` in `lang` (the rules i18next applies in the panel), picking `forms.one`
 * or `forms.other`: plural(lang, 1, { one: 'disponible', other: 'disponibles' }).
 */
export function plural(lang: Lang, count: number, forms: { one: string; other: string }): string {
  return new Intl.PluralRules(lang).select(count) === 'one' ? forms.one : forms.other;
}
