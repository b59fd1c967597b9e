/**
 * The current route as React state over `location.search`, and `navigate` to change it. Reading the
 * route has no side effects: the URL rewrite of a redirect, the scroll to the top, the mirror to the
 * host page and the host's navigate messages live in `useRouteSync` (app/), mounted once at the root.
 */
import { useSyncExternalStore } from 'react';
import { resolveRoute, routeToSearch, type Route } from './routing';
import { useSignedIn } from './session';

const listeners = new Set<() => void>();
/** Tells every route reader that the history entry changed (navigate, and a sheet's entry: lib/sheet-entry.ts). */
export const emit = () => listeners.forEach((l) => l());
window.addEventListener('popstate', emit);
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};
/** Calls `l` after every change of history entry (navigate, Back); returns the unsubscribe. */
export const onRouteChange = subscribe;

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
export function currentSheet(): string | null {
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
