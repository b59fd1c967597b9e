/**
 * The current route as React state over `location.search`, and `navigate` to change it. Reading the
 * route has no side effects: the URL rewrite of a redirect, the scroll to the top, the mirror to the
 * host page and the host's navigate messages live in `useRouteSync` (app/), mounted once at the root.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { resolveRoute, routeToSearch, type Route } from './routing';
import { useSignedIn } from './session';

const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
window.addEventListener('popstate', emit);
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};

/**
 * How many history entries the panel has pushed since this document loaded, to reach the current one
 * (kept in `history.state`): the embed loader goes back that many when the modal closes (embed protocol).
 */
export function routeDepth(): number {
  const depth = (window.history.state as { depth?: unknown } | null)?.depth;
  return typeof depth === 'number' ? depth : 0;
}

/** The history depth as React state (re-read on every navigation and Back), for the embed's `route` message. */
export function useRouteDepth(): number {
  return useSyncExternalStore(subscribe, routeDepth);
}

/** The history entry's mark of the HUB overlay opened by the avatar (app/layout.tsx, features/hub). */
export const HUB_SHEET = 'HUB';

/** The sheet (an open dialog, issue 40 point 3) whose history entry is the current one, or null. */
function currentSheet(): string | null {
  const sheet = (window.history.state as { sheet?: unknown } | null)?.sheet;
  return typeof sheet === 'string' ? sheet : null;
}

/**
 * Changes the route: `patch` keys present are set (null removes). Pushes one history entry unless
 * `replace` or the URL does not change. `sheet` marks the entry as an open sheet's (the HUB overlay opened by the
 * avatar), so closing it goes back (`closeSheet`) rather than adding an entry. A navigation from inside a dialog
 * that is not in the URL (`useSheetEntry`) replaces that dialog's entry: Back from the new screen returns to the
 * screen under the dialog, not to a copy of it. (From the hub, a tile adds an entry: Back shows the hub again.)
 */
export function navigate(patch: Partial<Route>, opts: { replace?: boolean; sheet?: string } = {}): void {
  const next = routeToSearch(patch, new URLSearchParams(window.location.search));
  const url = `${window.location.pathname}?${next.toString()}`;
  const depth = routeDepth();
  const state = { depth, ...(opts.sheet ? { sheet: opts.sheet } : {}) };
  const sheet = currentSheet();
  if (opts.replace || (sheet && sheet !== HUB_SHEET) || url === `${window.location.pathname}${window.location.search}`)
    window.history.replaceState(state, '', url);
  else window.history.pushState({ ...state, depth: depth + 1 }, '', url);
  emit();
}

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

/**
 * The resolved route and whether a routing rule redirected it (spec section 2 Routing). Only reads:
 * `useRouteSync` writes the redirect into the URL.
 */
export function useResolvedRoute(): { route: Route; redirected: boolean; wanted?: Route } {
  const search = useSyncExternalStore(subscribe, () => window.location.search);
  const signedIn = useSignedIn();
  return resolveRoute(new URLSearchParams(search), signedIn);
}

/** The resolved route (spec section 2 Routing). Only reads. */
export function useRoute(): Route {
  return useResolvedRoute().route;
}
