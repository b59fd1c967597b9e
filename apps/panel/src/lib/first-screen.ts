/**
 * The signed-in holder's first screen (issue 30, decision 023): what the start does before the QR is drawn,
 * and what waits until it is.
 *
 * - `startsOnQr`: this document opens on the QR screen (signed in, `PANEL_TAB` QR or none; spec section 2
 *   Routing). Read once at start.
 * - `firstScreenDrawn` resolves when the first QR image has been drawn (`markFirstScreenDrawn`, called by the
 *   QR screen), at once for any other start, and after `FIRST_SCREEN_WAIT_MS` at the latest (a screen that
 *   can draw no QR must not hold the rest back). The side menu, the service worker's registration and the
 *   signed-in effects (app.tsx) wait for it: nothing the QR screen does not show runs before it.
 */
import { resolveRoute } from './routing';
import { storage } from './storage';

/** Milliseconds after which what waits for the first QR goes ahead anyway. */
const FIRST_SCREEN_WAIT_MS = 4000;

export const startsOnQr: boolean =
  typeof window !== 'undefined' &&
  resolveRoute(new URLSearchParams(window.location.search), Boolean(storage.get('accessToken'))).route.tab === 'QR';

let drawn: () => void = () => undefined;

/** Resolves once the first screen is drawn (see the module comment). */
export const firstScreenDrawn: Promise<void> = new Promise<void>((resolve) => {
  drawn = resolve;
  if (!startsOnQr) resolve();
  else setTimeout(resolve, FIRST_SCREEN_WAIT_MS);
});

/** Called by the QR screen when its first image is on screen; later calls do nothing. */
export function markFirstScreenDrawn(): void {
  drawn();
}
