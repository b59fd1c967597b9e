/**
 * Back closes the open sheet (issue 40 point 3): a dialog's own history entry. Apart from lib/use-route.ts so that
 * only the screens with a dialog load it (ui/modal.tsx, the hub), not the sign-in screen (e2e/bytes.spec.ts).
 */
import { useEffect, useRef } from 'react';
import { currentSheet, emit, routeDepth } from './use-route';

/**
 * Closes the sheet `id` whose entry is the current one by going back (Back then does not reopen it); false when
 * the current entry is not its own (the sheet came with the page's URL, or an entry was added over it).
 */
export function closeSheet(id: string): boolean {
  if (currentSheet() !== id) return false;
  window.history.back();
  return true;
}

/** Sheets mounted now: a sheet unmounted and mounted again at once (React's StrictMode) keeps its entry. */
const mountedSheets = new Set<string>();

/**
 * One history entry per open sheet (issue 40 point 3: Android Back with a sheet open closed nothing and opened
 * the hub under it): while `open`, the sheet `id` has an entry of its own (same URL, `{ sheet: id }` state); Back
 * (popstate onto another entry) calls `onClose`; a sheet closed otherwise (its button, Escape) goes back past its
 * entry, unless a navigation already replaced it. A dialog in the URL (the HUB overlay) passes `open` false: its
 * route entry is its history entry.
 */
export function useSheetEntry(id: string, open: boolean, onClose: () => void): void {
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  useEffect(() => {
    if (!open) return;
    mountedSheets.add(id);
    if (currentSheet() !== id) {
      window.history.pushState({ depth: routeDepth() + 1, sheet: id }, '', window.location.href);
      emit();
    }
    const onPop = () => {
      if (currentSheet() !== id) close.current();
    };
    window.addEventListener('popstate', onPop);
    return () => {
      window.removeEventListener('popstate', onPop);
      mountedSheets.delete(id);
      queueMicrotask(() => {
        if (!mountedSheets.has(id)) closeSheet(id);
      });
    };
  }, [id, open]);
}
