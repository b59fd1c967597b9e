/**
 * The web app manifests, one per language (issue 29): the installed panel opens that language's panel and
 * is named in it; the door scanner likewise. Written by the Vite builds (vite.config.ts, vite.scanner.config.ts)
 * as `/manifest-{lang}.webmanifest` and `/scanner/manifest-{lang}.webmanifest`; each language's page links its own.
 */
import type { Locale } from '@tp/contract/constants';
import en from './locales/en.json';
import es from './locales/es.json';
import laterEn from './locales/later/later-en.json';
import laterEs from './locales/later/later-es.json';
import scannerEn from './scanner/locales/scanner-en.json';
import scannerEs from './scanner/locales/scanner-es.json';

/** Each language's catalogues: the panel's first-screen and later ones, and the door scanner's. */
const CATALOGUES = {
  en: { main: en, later: laterEn, scanner: scannerEn },
  es: { main: es, later: laterEs, scanner: scannerEs },
} satisfies Record<Locale, unknown>;

/** The panel's name, short name and description in `lang`, from its catalogues. */
const panelTexts = (lang: Locale) => {
  const { main, later } = CATALOGUES[lang];
  return { name: main.doc_title.app, ...later.manifest };
};

/** The panel's manifest in `lang`: starts on that language's QR screen. */
export function panelManifest(lang: Locale) {
  return {
    id: `/${lang}/`,
    lang,
    ...panelTexts(lang),
    start_url: `/${lang}/?PANEL_TAB=QR`,
    scope: '/',
    display: 'standalone' as const,
    background_color: '#ffffff',
    theme_color: '#14161a',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/icon-512-maskable.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

/** The door scanner's name, short name and description in `lang`, from its catalogues. */
const scannerTexts = (lang: Locale) => {
  const texts = CATALOGUES[lang].scanner;
  return { name: texts.title, short_name: texts.appShortName, description: texts.appDescription };
};

/** The door scanner's manifest in `lang`: starts on the scanner page in that language. */
export function scannerManifest(lang: Locale) {
  return {
    id: lang === 'en' ? '/scanner' : `/scanner?lang=${lang}`,
    lang,
    ...scannerTexts(lang),
    start_url: lang === 'en' ? '/scanner' : `/scanner?lang=${lang}`,
    scope: '/scanner',
    display: 'standalone' as const,
    background_color: '#f4f5f7',
    theme_color: '#1a56db',
    icons: [{ src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
  };
}

/** A Vite plugin that writes `manifest-{lang}.webmanifest` of each language beside the build's files. */
export function languageManifests(make: (lang: Locale) => object) {
  return {
    name: 'tp:language-manifests',
    generateBundle(this: { emitFile: (f: { type: 'asset'; fileName: string; source: string }) => void }) {
      for (const lang of ['en', 'es'] as const)
        this.emitFile({
          type: 'asset',
          fileName: `manifest-${lang}.webmanifest`,
          source: JSON.stringify(make(lang), null, 2),
        });
    },
  };
}
