/**
 * The router's effects, in one place, mounted once at the root (`App`): a redirect of the routing
 * rules is written into the URL (replace, no history entry), a tab change scrolls to the top, every
 * route change is mirrored to the host page (with the history depth, so the loader can go back past the
 * modal's entries when it closes), and the host's `navigate` messages (embed protocol,
 * packages/contract/src/embed.ts) become one navigation each (a replacement when the host says so: reopening
 * the modal), so one navigation is one history entry. A redirect of a signed-out holder to LOGIN remembers the
 * screen asked for (lib/return-route.ts, issue 40 point 1); the depth is re-sent when a sheet adds or leaves its
 * history entry (issue 40 point 3), so the loader's close goes back past it too.
 */
import { useEffect } from 'react';
import type { Route } from '../lib/routing';
import { navigate, useResolvedRoute, useRouteDepth } from '../lib/use-route';
import { onHostNavigate, postToHost } from '../lib/host-bridge';

export function useRouteSync(): void {
  const { route, redirected, wanted } = useResolvedRoute();
  const depth = useRouteDepth();
  useEffect(() => {
    // Loaded only then: the sign-in screen's own bundle stays within its budget (e2e/bytes.spec.ts).
    if (wanted) void import('../lib/return-route').then((m) => m.rememberReturn(wanted));
    if (redirected) navigate(route, { replace: true });
  }, [redirected, route, wanted]);
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
      depth,
    });
  }, [route.tab, route.overlay, route.userTicketId, route.settingsTab, depth]);
  useEffect(
    () =>
      onHostNavigate((p, replace) =>
        navigate(
          {
            tab: (p.PANEL_TAB as Route['tab'] | undefined) ?? null,
            overlay: (p.PANEL_OVERLAY_TAB as Route['overlay'] | undefined) ?? null,
            userTicketId: p.USER_TICKET_ID ?? null,
            settingsTab: p.SETTINGS_TAB ?? null,
          } as Partial<Route>,
          { replace },
        ),
      ),
    [],
  );
}
