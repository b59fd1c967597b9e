/**
 * Query-parameter routing of spec section 2 (Routing), as pure functions.
 * PANEL_TAB chooses the screen (lower case accepted), PANEL_OVERLAY_TAB=HUB the hub overlay,
 * USER_TICKET_ID the ticket (encoded), TICKET_NAME its encoded name, SETTINGS_TAB the settings tab.
 */
import { PANEL_TABS, PANEL_OVERLAY_TABS, type PanelTab, type PanelOverlayTab } from '@tp/contract/constants';

export interface Route {
  tab: PanelTab;
  overlay: PanelOverlayTab | null;
  userTicketId: string | null;
  ticketName: string | null;
  settingsTab: string | null;
}

/** The sign-in steps (spec section 2). */
export const AUTH_TABS: readonly PanelTab[] = ['LOGIN', 'OTP', 'PERSONAL_DATA'];

const upper = (v: string | null) => (v ? v.trim().toUpperCase() : null);

/** Reads a valid tab, lower case accepted; null when absent or unknown. */
export function parseTab(v: string | null): PanelTab | null {
  const u = upper(v);
  return u && (PANEL_TABS as readonly string[]).includes(u) ? (u as PanelTab) : null;
}
export function parseOverlay(v: string | null): PanelOverlayTab | null {
  const u = upper(v);
  return u && (PANEL_OVERLAY_TABS as readonly string[]).includes(u) ? (u as PanelOverlayTab) : null;
}

/**
 * Applies the routing rules:
 * - no access token, a valid tab or overlay requested, tab not OTP or LOGIN: go to LOGIN;
 * - token present and tab LOGIN: go to QR and open the HUB overlay;
 * - nothing requested: LOGIN when signed out, QR when signed in.
 * `redirected` tells whether the URL must be rewritten. `wanted` (issue 40 point 1): on the redirect to LOGIN,
 * the screen that was asked for (a link from an e-mail), where the panel goes once the holder has signed in
 * (lib/return-route.ts); absent otherwise.
 */
export function resolveRoute(
  search: URLSearchParams,
  hasToken: boolean,
): { route: Route; redirected: boolean; wanted?: Route } {
  const requestedTab = parseTab(search.get('PANEL_TAB'));
  const requestedOverlay = parseOverlay(search.get('PANEL_OVERLAY_TAB'));
  const rawTicket = search.get('USER_TICKET_ID');
  const base = {
    userTicketId: rawTicket ? decodeURIComponent(rawTicket) : null,
    ticketName: search.get('TICKET_NAME') ? decodeURIComponent(search.get('TICKET_NAME')!) : null,
    settingsTab: upper(search.get('SETTINGS_TAB')),
  };
  if (!hasToken && requestedTab !== 'OTP' && requestedTab !== 'LOGIN' && (requestedTab || requestedOverlay)) {
    const wanted: Route = { ...base, tab: requestedTab ?? 'QR', overlay: requestedOverlay };
    return {
      route: { ...base, tab: 'LOGIN', overlay: null },
      redirected: true,
      ...(AUTH_TABS.includes(wanted.tab) ? {} : { wanted }),
    };
  }
  if (hasToken && requestedTab === 'LOGIN') return { route: { ...base, tab: 'QR', overlay: 'HUB' }, redirected: true };
  if (!requestedTab)
    return {
      route: { ...base, tab: hasToken ? 'QR' : 'LOGIN', overlay: requestedOverlay },
      redirected: search.has('PANEL_TAB'),
    };
  return { route: { ...base, tab: requestedTab, overlay: requestedOverlay }, redirected: false };
}

/** Writes a route into query parameters, keeping unrelated ones (e.g. the embed parameters). */
export function routeToSearch(route: Partial<Route>, current: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(current);
  const put = (k: string, v: string | null | undefined) => (v ? next.set(k, v) : next.delete(k));
  if ('tab' in route) put('PANEL_TAB', route.tab);
  if ('overlay' in route) put('PANEL_OVERLAY_TAB', route.overlay);
  if ('userTicketId' in route)
    put('USER_TICKET_ID', route.userTicketId ? encodeURIComponent(route.userTicketId) : null);
  if ('ticketName' in route) put('TICKET_NAME', route.ticketName ? encodeURIComponent(route.ticketName) : null);
  if ('settingsTab' in route) put('SETTINGS_TAB', route.settingsTab);
  return next;
}
