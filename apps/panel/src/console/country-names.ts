/**
 * Country names for the console's forms, in the viewer's language (Spanish review N2: the new-event form showed
 * "New Zealand" on the Spanish console). The names come from the browser's CLDR data (`Intl.DisplayNames`), so no
 * catalogue has to list them; the codes are the contract's (ISO 3166-1 alpha-2).
 */

/** One `<option>` of a country select: the ISO code and its name in `lang`. */
export interface CountryOption {
  code: string;
  name: string;
}

/**
 * The `codes` (ISO 3166-1 alpha-2, e.g. `['AU', 'NZ']`) with their names in `lang` (`en`, `es`, or any BCP 47 tag),
 * sorted by that name as the language sorts. A code the runtime cannot name is shown as the code itself.
 */
export function countryOptions(codes: readonly string[], lang: string): CountryOption[] {
  const names = new Intl.DisplayNames([lang], { type: 'region', fallback: 'code' });
  return codes
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, lang));
}
