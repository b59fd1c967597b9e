/**
 * The language of a request (en or es): an explicit `lang` wins, then the first of `en`/`es` in
 * Accept-Language (by q-value), else English.
 */
export type Lang = 'en' | 'es';

/** Picks `en` or `es` from an explicit value (query `?lang=`, body field) or an Accept-Language header. */
export function pickLang(explicit?: unknown, acceptLanguage?: string): Lang {
  if (explicit === 'es' || explicit === 'en') return explicit;
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return { base: tag.split('-')[0], q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => (x.base === 'en' || x.base === 'es') && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return (ranked[0]?.base as Lang | undefined) ?? 'en';
}

/** The raw `?lang=` of a request (any type, undefined when absent), for `pickLang`; routes need not declare it. */
export function queryLang(req: { query: unknown }): unknown {
  const query = req.query as { lang?: unknown } | null | undefined;
  return query?.lang;
}

/**
 * A human date and time of an event in its own time zone (IANA `timeZone`), in the reader's language:
 * "Saturday 14 March 2026 at 7:30 pm AEDT" / "sábado, 14 de marzo de 2026, 19:30 GMT+11".
 * Spanish uses the 24-hour clock.
 */
export function formatEventDateTime(lang: Lang, at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat(lang === 'es' ? 'es-ES' : 'en-AU', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: lang === 'es' ? '2-digit' : 'numeric',
    minute: '2-digit',
    hourCycle: lang === 'es' ? 'h23' : 'h12',
    timeZone,
    timeZoneName: 'short',
  }).format(at);
}

/**
 * The CLDR plural form of `count` in `lang` (the rules i18next applies in the panel), picking `forms.one`
 * or `forms.other`: plural(lang, 1, { one: 'disponible', other: 'disponibles' }).
 */
export function plural(lang: Lang, count: number, forms: { one: string; other: string }): string {
  return new Intl.PluralRules(lang).select(count) === 'one' ? forms.one : forms.other;
}
