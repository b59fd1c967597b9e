/**
 * The current route as React state over `location.search`, and `navigate` to change it.
 * Each tab change scrolls to the top and is mirrored to the host page (embed protocol).
 */
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { resolveRoute, routeToSearch, type Route } from './routing';
import { useSignedIn } from '../lib/session';
import { postToHost, onHostNavigate } from '../lib/host-bridge';

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

/** The resolved route; rewrites the URL when a routing rule redirects. */
export function useRoute(): Route {
  const search = useSyncExternalStore(subscribe, () => window.location.search);
  const signedIn = useSignedIn();
  const { route, redirected } = resolveRoute(new URLSearchParams(search), signedIn);
  useEffect(() => {
    if (redirected) navigate(route, { replace: true });
  }, [redirected, route]);
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [route.tab]);
  useEffect(() => {
    postToHost({
      type: 'route',
      params: {
        PANEL_TAB: route.tab,
        PANEL_OVERLAY_TAB: route.overlay ?? undefined,
        USER_TICKET_ID: route.userTicketId ?? undefined,
        SETTINGS_TAB: route.settingsTab ?? undefined,
      },
    });
  }, [route.tab, route.overlay, route.userTicketId, route.settingsTab]);
  useEffect(
    () =>
      onHostNavigate((p) =>
        navigate({
          tab: (p.PANEL_TAB as Route['tab']) ?? null,
          overlay: (p.PANEL_OVERLAY_TAB as Route['overlay']) ?? null,
          userTicketId: p.USER_TICKET_ID ?? null,
          settingsTab: p.SETTINGS_TAB ?? null,
        } as Partial<Route>),
      ),
    [],
  );
  return route;
}

/** Memoised navigate for event handlers. */
export function useNavigate() {
  return useCallback(navigate, []);
}
