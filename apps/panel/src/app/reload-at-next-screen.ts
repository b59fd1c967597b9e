/**
 * The reload a newer service worker asks for (vite-plugin-pwa's `onNeedReload`, app/offline-app.ts), made at the
 * next change of screen and never in the middle of one: a reload there would throw away a half-filled form or the
 * "Ticket gifted!" page (the e2e gift journey met exactly that when a worker another page load installed took over).
 */
import { onRouteChange } from '../lib/use-route';

const shownTab = () => new URLSearchParams(window.location.search).get('PANEL_TAB')?.toUpperCase() ?? null;

/**
 * Calls `reload` once, after the first navigation that changes PANEL_TAB (a change of the screen's other parameters,
 * such as forgetting `USER_TICKET_ID` on the gift's success, is not one).
 */
export function reloadAtNextScreen(reload: () => void): void {
  const shown = shownTab();
  const stop = onRouteChange(() => {
    if (shownTab() === shown) return;
    stop();
    reload();
  });
}
