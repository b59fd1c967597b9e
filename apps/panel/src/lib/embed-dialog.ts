/**
 * The panel's side of being embedded (issue 13 point 1; embed protocol in packages/contract/src/embed.ts),
 * loaded only when the panel runs in the loader's iframe (main.tsx imports it on demand, so the standalone
 * first screen does not carry it):
 * - the session comes back from the refresh cookie when this document has no access token (a reload of
 *   the host page; decision 012);
 * - in modal mode, Escape that no layer of the panel took (an open menu or listbox, then a dialog: each of
 *   them prevents the key's default when it closes) asks the loader to close the modal; an Escape the loader
 *   forwards from its own close button goes through the same layers;
 * - the loader's `focus` message moves focus inside: the topmost dialog, else the first focusable element
 *   or the main content;
 * - a sign-in or logout in another frame of the page (`session`) is followed: the session from the shared
 *   cookie, or none.
 */
import { onHostMessage, postToHost, embedMode } from './host-bridge';
import { refreshTokens } from './api-client';
import { clearSession, storage } from './storage';
import { onSessionChange, sessionChanged } from './session';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Moves focus into the panel: its topmost dialog, else its first focusable element (`first`) or `#main`. */
export function focusInside(first: boolean): void {
  const dialog = Array.from(document.querySelectorAll<HTMLElement>('[role="dialog"]')).pop();
  const main = document.getElementById('main');
  if (main && !main.hasAttribute('tabindex')) {
    // Focusable by script only, and without a ring: nothing to act on, only where reading starts.
    main.tabIndex = -1;
    main.style.outline = 'none';
    main.style.boxShadow = 'none';
  }
  const target =
    dialog ??
    (first
      ? Array.from(document.querySelectorAll<HTMLElement>(FOCUSABLE)).find((el) => el.getClientRects().length > 0)
      : main);
  target?.focus();
}

/** Escape no layer took (its default not prevented) closes the modal: the loader is told. */
function onEscape(e: KeyboardEvent): void {
  if (e.key !== 'Escape' || e.defaultPrevented) return;
  e.preventDefault();
  postToHost({ type: 'escape' });
}

/**
 * Starts the embedded behaviours above; resolves once the session is restored (or found absent), so the
 * first route is resolved with it.
 */
export async function startEmbedded(): Promise<void> {
  // A sign-in or logout here is told to the page's other frames (through the loader), once per change.
  let signedIn = Boolean(storage.get('accessToken'));
  onSessionChange(() => {
    const now = Boolean(storage.get('accessToken'));
    if (now !== signedIn) postToHost({ type: 'session', signedIn: now });
    signedIn = now;
  });
  onHostMessage((m) => {
    if (m.type !== 'session') return;
    if (!m.signedIn) {
      clearSession();
      sessionChanged();
    } else if (!storage.get('accessToken'))
      void refreshTokens().then((ok) => {
        // Off the sign-in steps to the pass, quietly: no hub overlay (and no dialog taking focus) in a frame
        // the person is not using.
        // (The URL is replaced before the re-render that reads it; importing the router here would split the
        // contract's constants out of the first screen's chunk.)
        const q = new URLSearchParams(window.location.search);
        if (ok && ['LOGIN', 'OTP', 'PERSONAL_DATA'].includes(q.get('PANEL_TAB')?.toUpperCase() ?? '')) {
          q.set('PANEL_TAB', 'QR');
          q.delete('PANEL_OVERLAY_TAB');
          window.history.replaceState(window.history.state, '', `${window.location.pathname}?${q.toString()}`);
        }
        sessionChanged();
      });
  });
  if (embedMode === 'modal') {
    // On window, after every handler of the document and the React roots has had its turn.
    window.addEventListener('keydown', onEscape);
    onHostMessage((m) => {
      if (m.type === 'focus') focusInside(m.first === true);
      else if (m.type === 'escape')
        (document.activeElement ?? document.body).dispatchEvent(
          new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }),
        );
    });
  }
  if (!storage.get('accessToken')) await refreshTokens();
  signedIn = Boolean(storage.get('accessToken'));
}
