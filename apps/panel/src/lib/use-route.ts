/**
 * The current route as React state over `location.search`, and `navigate` to change it. Reading the
 * route has no side effects: the URL rewrite of a redirect, the scroll to the top, the mirror to the
 * host page and the host's navigate messages live in `useRouteSync` (app/), mounted once at the root.
 */
import { useSyncExternalStore } from 'react';
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

/**
 * Changes the route: `patch` keys present are set (null removes). Pushes one history entry unless
 * `replace` or the URL does not change.
 */
export function navigate(patch: Partial<Route>, opts: { replace?: boolean } = {}): void {
  const next = routeToSearch(patch, new URLSearchParams(window.location.search));
  const url = `${window.location.pathname}?${next.toString()}`;
  const depth = routeDepth();
  if (opts.replace || url === `${window.location.pathname}${window.location.search}`)
    window.history.replaceState({ depth }, '', url);
  else window.history.pushState({ depth: depth + 1 }, '', url);
  emit();
}

/**
 * The resolved route and whether a routing rule redirected it (spec section 2 Routing). Only reads:
 * `useRouteSync` writes the redirect into the URL.
 */
export function useResolvedRoute(): { route: Route; redirected: boolean } {
  const search = useSyncExternalStore(subscribe, () => window.location.search);
  const signedIn = useSignedIn();
  return resolveRoute(new URLSearchParams(search), signedIn);
}

/** The resolved route (spec section 2 Routing). Only reads. */
export function useRoute(): Route {
  return useResolvedRoute().route;
}
