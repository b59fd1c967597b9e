/**
 * The web app manifests, one per language (issue 29): the installed panel opens that language's panel and
 * is named in it; the door scanner likewise. Written by the Vite builds (vite.config.ts, vite.scanner.config.ts)
 * as `/manifest-{lang}.webmanifest` and `/scanner/manifest-{lang}.webmanifest`; each language's page links its own.
 */
import type { Locale } from '@tp/contract/constants';

const PANEL_TEXTS: Record<Locale, { name: string; short_name: string; description: string }> = {
  en: { name: 'My tickets', short_name: 'Tickets', description: 'Your tickets and entry pass, also offline.' },
  es: {
    name: 'Mis entradas',
    short_name: 'Entradas',
    description: 'Tus entradas y tu pase de acceso, también sin conexión.',
  },
};

/** The panel's manifest in `lang`: starts on that language's QR screen. */
export function panelManifest(lang: Locale) {
  return {
    id: `/${lang}/`,
    lang,
    ...PANEL_TEXTS[lang],
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

const SCANNER_TEXTS: Record<Locale, { name: string; short_name: string; description: string }> = {
  en: { name: 'Door scanner', short_name: 'Scanner', description: 'Check tickets at the door, also offline.' },
  es: {
    name: 'Control de acceso',
    short_name: 'Escáner',
    description: 'Comprueba las entradas en la puerta, también sin conexión.',
  },
};

/** The door scanner's manifest in `lang`: starts on the scanner page in that language. */
export function scannerManifest(lang: Locale) {
  return {
    id: lang === 'en' ? '/scanner' : `/scanner?lang=${lang}`,
    lang,
    ...SCANNER_TEXTS[lang],
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
