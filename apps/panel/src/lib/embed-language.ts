/**
 * The embedded panel's language across host page reloads (issue 23). The loader opens the panel in the host
 * page's language (`data-lang`, else the page's `lang`) on every load; the holder's own choice in the panel's
 * footer is kept in the panel origin's storage (per organisation, lib/storage) and wins on the next load.
 * Standalone the path is the language (spec section 2 Routing) and nothing is kept.
 */
import { LOCALES, type Locale } from '@tp/contract/constants';
import { embedMode } from './host-bridge';
import { langFromPath, pathWithLang } from './i18n';
import { storage } from './storage';

/** Keeps the holder's choice when embedded; standalone, nothing. */
export function rememberEmbedLanguage(lang: Locale): void {
  if (embedMode !== 'standalone') storage.set('lang', lang);
}

/**
 * The URL of this document in the remembered language when embedded and it differs from the path's, else null.
 * @param location the document's location (pathname, search, hash)
 */
export function rememberedLanguageUrl(location: Pick<Location, 'pathname' | 'search' | 'hash'>): string | null {
  if (embedMode === 'standalone') return null;
  const kept = storage.get('lang');
  if (!kept || !(LOCALES as readonly string[]).includes(kept)) return null;
  if (kept === langFromPath(location.pathname)) return null;
  return `${pathWithLang(location.pathname, kept as Locale)}${location.search}${location.hash}`;
}
