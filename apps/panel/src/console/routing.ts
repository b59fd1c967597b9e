/**
 * The console's URLs (issue 41, point 5): each screen, the event it is about and an open ticket have a path under
 * /console, so Back and Forward move between screens, a reload keeps the screen and a link or bookmark opens it
 * (after the sign-in, which leaves the URL alone). The same approach as the holder panel's router (lib/use-route.ts):
 * the History API read through `useSyncExternalStore`, no router library. `?lang=` stays on every URL.
 *
 * Paths (`:event` is the organiser's event id, `:ticket` a ticket id, `:type` a ticket type id, `:endpoint` a
 * webhook endpoint's number; each segment URL-encoded):
 * - /console/events, /console/events/new, /console/events/:event/edit, /console/events/:event/dashboard,
 *   /console/events/:event/ticket-types, …/ticket-types/new, …/ticket-types/:type/edit
 * - /console/holders, /console/events/:event/holders (the Holders screen for one event), either followed by /:ticket
 *   for the ticket's drawer
 * - /console/refunds (issue 46: the holders' refund requests waiting for a decision), /console/refunds/:status (those
 *   approved, declined or withdrawn)
 * - /console/webhooks, /console/webhooks/:endpoint/deliveries
 * - /console/import, /console/keys, /console/branding, /console/members, /console/activity
 * - /console: the first screen the member's role opens; an unknown path is read as /console.
 */
import { useSyncExternalStore } from 'react';
import { CONSOLE_SCREENS, refunds, type ConsoleScreen } from '@tp/contract';

/** What the URL names: the screen and, on some screens, what it shows. */
export type ConsoleRoute =
  | { screen: null }
  | { screen: Exclude<ConsoleScreen, 'events' | 'holders' | 'refunds' | 'webhooks'> }
  | { screen: 'events'; view?: 'new' }
  | { screen: 'events'; event: string; view: 'edit' | 'dashboard' | 'ticket-types' | 'exchange' }
  | { screen: 'events'; event: string; view: 'ticket-type'; type: string | null }
  | { screen: 'holders'; event?: string; ticket?: string }
  | { screen: 'refunds'; status?: DecidedStatus }
  | { screen: 'webhooks'; endpoint?: number };

/** A refund request's status other than pending (the Refunds screen's first list, which its bare path shows). */
export type DecidedStatus = Exclude<refunds.RefundRequestStatus, 'pending'>;
const isDecidedStatus = (s: string | undefined): s is DecidedStatus =>
  s !== undefined && s !== 'pending' && (refunds.refundRequestStatus.options as readonly string[]).includes(s);

/** A screen's own route (its list, nothing open): every screen's route type takes a bare `{ screen }`. */
export const screenRoute = (screen: ConsoleScreen): ConsoleRoute => ({ screen }) as ConsoleRoute;

const ROOT = '/console';

const isScreen = (s: string | undefined): s is ConsoleScreen =>
  s !== undefined && Object.keys(CONSOLE_SCREENS).includes(s);

/** Reads a path (`location.pathname`) into a route; `{ screen: null }` for /console and what it does not know. */
export function parseConsolePath(pathname: string): ConsoleRoute {
  if (!pathname.startsWith(`${ROOT}/`)) return { screen: null };
  let parts: string[];
  try {
    parts = pathname
      .slice(ROOT.length + 1)
      .split('/')
      .filter((p) => p !== '')
      .map(decodeURIComponent);
  } catch {
    return { screen: null };
  }
  const [screen, a, b, c, d, e] = parts;
  if (!isScreen(screen)) return { screen: null };
  const extra = (n: number) => parts.length > n;
  switch (screen) {
    case 'events':
      if (a === undefined) return { screen };
      if (a === 'new' && !extra(2)) return { screen, view: 'new' };
      if ((b === 'edit' || b === 'dashboard' || b === 'exchange') && !extra(3)) return { screen, event: a, view: b };
      if (b === 'holders' && !extra(4)) return { screen: 'holders', event: a, ...(c ? { ticket: c } : {}) };
      if (b === 'ticket-types') {
        if (c === undefined) return { screen, event: a, view: 'ticket-types' };
        if (c === 'new' && !extra(4)) return { screen, event: a, view: 'ticket-type', type: null };
        if (d === 'edit' && e === undefined) return { screen, event: a, view: 'ticket-type', type: c };
      }
      return { screen };
    case 'holders':
      return a !== undefined && !extra(2) ? { screen, ticket: a } : { screen };
    case 'refunds':
      return isDecidedStatus(a) && !extra(2) ? { screen, status: a } : { screen };
    case 'webhooks': {
      const endpoint = Number(a);
      return b === 'deliveries' && Number.isInteger(endpoint) && endpoint > 0 && !extra(3)
        ? { screen, endpoint }
        : { screen };
    }
    default:
      return { screen };
  }
}

/** The path of a route (the inverse of `parseConsolePath`). */
export function consolePath(route: ConsoleRoute): string {
  const seg = (...parts: (string | number)[]) => [ROOT, ...parts.map((p) => encodeURIComponent(String(p)))].join('/');
  switch (route.screen) {
    case null:
      return ROOT;
    case 'events':
      if (!('event' in route)) return route.view === 'new' ? seg('events', 'new') : seg('events');
      if (route.view === 'ticket-type')
        return route.type === null
          ? seg('events', route.event, 'ticket-types', 'new')
          : seg('events', route.event, 'ticket-types', route.type, 'edit');
      return seg('events', route.event, route.view);
    case 'holders': {
      const base = route.event ? seg('events', route.event, 'holders') : seg('holders');
      return route.ticket ? `${base}/${encodeURIComponent(route.ticket)}` : base;
    }
    case 'refunds':
      return route.status ? seg('refunds', route.status) : seg('refunds');
    case 'webhooks':
      return route.endpoint ? seg('webhooks', route.endpoint, 'deliveries') : seg('webhooks');
    default:
      return seg(route.screen);
  }
}

/** A route's URL: its path and this page's `?lang=` (the console's language is read from it at start). */
export function consoleHref(route: ConsoleRoute): string {
  const lang = new URLSearchParams(window.location.search).get('lang');
  return `${consolePath(route)}${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`;
}

const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
window.addEventListener('popstate', emit);
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};

/** The route of the current URL, as React state (re-read on every navigation, Back and Forward). */
export function useConsoleRoute(): ConsoleRoute {
  const path = useSyncExternalStore(subscribe, () => window.location.pathname);
  return parseConsolePath(path);
}

/**
 * Goes to `route`: one new history entry (remembering the path it came from), scrolled to the top, or the current
 * entry replaced (`replace`: a filter's change, a redirect). Nothing happens when the URL would not change.
 */
export function navigate(route: ConsoleRoute, opts: { replace?: boolean } = {}): void {
  const href = consoleHref(route);
  if (href === `${window.location.pathname}${window.location.search}`) return;
  if (opts.replace) window.history.replaceState(window.history.state, '', href);
  else {
    window.history.pushState({ from: window.location.pathname }, '', href);
    // A new screen starts at its top (Back restores the old one's place: the browser's scroll restoration).
    window.scrollTo(0, 0);
  }
  emit();
}

/**
 * Leaves a view for the screen above it (a form's Cancel or Save, a Back button, a drawer's Close): Back when the
 * console came from there (so Back in the browser does not return to the closed view), else that screen in place of
 * this one (a view opened from a link or a bookmark).
 */
export function goUp(route: ConsoleRoute): void {
  const from = (window.history.state as { from?: unknown } | null)?.from;
  if (from === consolePath(route)) window.history.back();
  else navigate(route, { replace: true });
}

/** A link's click that the console handles itself: a plain left click (not one that opens a new tab or window). */
export function isPlainClick(e: {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): boolean {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
}
