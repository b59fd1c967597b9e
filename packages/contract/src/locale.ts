/**
 * The reader's language from any string, in a module of its own so that the sign-in screen can use it without
 * the formatters of `format.ts` (first-screen budget, decision 004).
 */
import type { Locale } from './constants.js';

/** `en` or `es` from any string (a stored locale, `i18next.language`, a `lang` attribute): English unless `es`. */
export const langOf = (value: string | null | undefined): Locale => (value === 'es' ? 'es' : 'en');
