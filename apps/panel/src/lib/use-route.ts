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

/** Changes the route: `patch` keys present are set (null removes). Pushes history unless `replace`. */
export function navigate(patch: Partial<Route>, opts: { replace?: boolean } = {}): void {
  const next = routeToSearch(patch, new URLSearchParams(window.location.search));
  const url = `${window.location.pathname}?${next.toString()}`;
  if (opts.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
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
