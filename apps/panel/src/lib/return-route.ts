/**
 * Where the panel goes once a holder has signed in (issue 40 points 1 and 2). A signed-out holder who opens a
 * link from an e-mail (`PANEL_TAB=TICKET&USER_TICKET_ID=…` of the wallet buttons, `PANEL_TAB=REDEEM`,
 * `PANEL_TAB=MY_TICKET`, `PANEL_TAB=QR` of "Show my pass") is sent to LOGIN by the routing rules (spec section 2);
 * the screen asked for is kept here (`rememberReturn`, by `useRouteSync` on that redirect) and taken back after
 * the code (or the personal-data step) is accepted (`routeAfterSignIn`). With nothing kept, the holder lands on
 * the QR pass with no hub over it (decision 019: the pass is what a holder signing in at the gate came for).
 * Kept in the panel's storage (memory where the browser gives a frame none), for `RETURN_TTL_MS` only: a link
 * opened and left is not where a later, unrelated sign-in lands.
 */
import type { Route } from './routing';
import { storage } from './storage';

/** How long a remembered screen is honoured, in milliseconds (30 minutes, beyond a sign-in code's life). */
export const RETURN_TTL_MS = 30 * 60 * 1000;

/** Remembers `route` (the screen a signed-out holder asked for) with the time it was asked, `now` in epoch ms. */
export function rememberReturn(route: Route, now = Date.now()): void {
  storage.set('returnTo', JSON.stringify({ at: now, route }));
}

/** Forgets the remembered screen (a logout, or once it has been taken). */
export function forgetReturn(): void {
  storage.remove('returnTo');
}

/** The remembered screen if it was asked less than `RETURN_TTL_MS` before `now`, and forgets it; else null. */
export function takeReturn(now = Date.now()): Route | null {
  const raw = storage.get('returnTo');
  if (!raw) return null;
  forgetReturn();
  try {
    const { at, route } = JSON.parse(raw) as { at?: unknown; route?: Partial<Route> };
    if (typeof at !== 'number' || now - at > RETURN_TTL_MS || now < at || typeof route?.tab !== 'string') return null;
    return {
      tab: route.tab,
      overlay: route.overlay ?? null,
      userTicketId: route.userTicketId ?? null,
      ticketName: route.ticketName ?? null,
      settingsTab: route.settingsTab ?? null,
    };
  } catch {
    return null;
  }
}

/**
 * The route to go to once signed in (and named): the remembered screen, else the QR pass with no overlay. All
 * route keys are set, so a stale `USER_TICKET_ID` left on the sign-in steps' URL does not carry over.
 */
export function routeAfterSignIn(now = Date.now()): Route {
  return takeReturn(now) ?? { tab: 'QR', overlay: null, userTicketId: null, ticketName: null, settingsTab: null };
}
