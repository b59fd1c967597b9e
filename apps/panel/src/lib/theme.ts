/**
 * Theme (spec section 4): light, dark or system, kept in local storage under the theme key; applied
 * as `data-theme` on <html>. Dark mode uses a lime accent (styles.css).
 */
import { useEffect, useSyncExternalStore } from 'react';
import { storage } from './storage';

export type ThemeMode = 'light' | 'dark' | 'system';
const listeners = new Set<() => void>();
const media = typeof window !== 'undefined' ? window.matchMedia?.('(prefers-color-scheme: dark)') : undefined;

export const getThemeMode = (): ThemeMode => {
  const v = storage.get('theme');
  return v === 'light' || v === 'dark' ? v : 'system';
};
export const effectiveTheme = (mode: ThemeMode): 'light' | 'dark' =>
  mode === 'system' ? (media?.matches ? 'dark' : 'light') : mode;

export function setThemeMode(mode: ThemeMode): void {
  storage.set('theme', mode);
  document.documentElement.dataset.theme = effectiveTheme(mode);
  listeners.forEach((l) => l());
}

/** The chosen mode and the theme in effect; follows the system while in system mode. */
export function useTheme(): { mode: ThemeMode; theme: 'light' | 'dark' } {
  const mode = useSyncExternalStore((l) => {
    listeners.add(l);
    media?.addEventListener?.('change', l);
    return () => {
      listeners.delete(l);
      media?.removeEventListener?.('change', l);
    };
  }, getThemeMode);
  const theme = useSyncExternalStore(
    (l) => {
      media?.addEventListener?.('change', l);
      return () => media?.removeEventListener?.('change', l);
    },
    () => effectiveTheme(mode),
  );
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return { mode, theme };
}
