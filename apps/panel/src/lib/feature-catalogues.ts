/**
 * Catalogues of one feature's texts (decision 004: the later catalogues are at their budget), each a chunk per
 * language loaded only with the screen or section that shows them, so neither the first screens nor the later
 * catalogues carry them: `refund`, the ticket page's refund section and the `api.refund.*` refusals it shows (issue
 * 46); `step_up`, the step-up sheet and the `api.auth.step_up_*` refusals (issue 47), which a holder meets only once
 * the sheet was open; `passkeys`, Settings' passkeys section and the offer of one after a sign-in (issue 47); `entry`, the days and zones
 * of a pass with entry rules on the ticket page, its card and the QR screen (issue 48, ui/entry-summary.tsx). This module loads with the first of them, not with the app (lib/i18n.ts is on the LOGIN
 * screen's path). Same rule as the other catalogues: both languages hold every key (locales/catalogues.test.ts).
 */
import i18next from 'i18next';
import type { Locale } from '@tp/contract/constants';
import { langOf } from '@tp/contract/locale';

const catalogues = {
  refund: {
    en: () => import('../locales/refund/refund-en.json').then((m) => m.default),
    es: () => import('../locales/refund/refund-es.json').then((m) => m.default),
  },
  step_up: {
    en: () => import('../locales/step-up/step-up-en.json').then((m) => m.default),
    es: () => import('../locales/step-up/step-up-es.json').then((m) => m.default),
  },
  passkeys: {
    en: () => import('../locales/passkeys/passkeys-en.json').then((m) => m.default),
    es: () => import('../locales/passkeys/passkeys-es.json').then((m) => m.default),
  },
  entry: {
    en: () => import('../locales/entry/entry-en.json').then((m) => m.default),
    es: () => import('../locales/entry/entry-es.json').then((m) => m.default),
  },
} satisfies Record<string, Record<Locale, () => Promise<Record<string, unknown>>>>;
export type FeatureCatalogue = keyof typeof catalogues;

/** The catalogues added to i18next, by `name:lang`. */
const added = new Map<string, Promise<void>>();
/** The catalogues asked for: added again in the new language when the language changes. */
const wanted = new Set<FeatureCatalogue>();

function add(name: FeatureCatalogue, lang: Locale): Promise<void> {
  const key = `${name}:${lang}`;
  let done = added.get(key);
  if (!done) {
    done = catalogues[name][lang]().then((texts) => {
      i18next.addResourceBundle(lang, 'translation', texts, true, false);
    });
    added.set(key, done);
  }
  return done;
}

i18next.on('languageChanged', (lng: string) => {
  for (const name of wanted) void add(name, langOf(lng));
});

/**
 * Adds the feature catalogue `name` in the active language to i18next (once), and in each language changed to
 * later; resolves when `t` has its texts. Load it with the code that shows them (`lazy(() => Promise.all(...))`).
 */
export function loadCatalogue(name: FeatureCatalogue): Promise<void> {
  wanted.add(name);
  return add(name, langOf(i18next.language));
}
