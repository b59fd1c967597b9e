/**
 * The panel's side of being embedded (issue 13 point 1; embed protocol in packages/contract/src/embed.ts),
 * loaded only when the panel runs in the loader's iframe (main.tsx imports it on demand, so the standalone
 * first screen does not carry it):
 * - the session comes back from the refresh cookie when this document has no access token (a reload of
 *   the host page; decision 010);
 * - in modal mode, Escape that no layer of the panel took (an open menu or listbox, then a dialog: each of
 *   them prevents the key's default when it closes) asks the loader to close the modal; an Escape the loader
 *   forwards from its own close button goes through the same layers;
 * - the loader's `focus` message moves focus inside: the topmost dialog, else the first focusable element
 *   or the main content.
 */
import { onHostMessage, postToHost, embedMode } from './host-bridge';
import { refreshTokens } from './api-client';
import { storage } from './storage';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Moves focus into the panel: its topmost dialog, else its first focusable element (`first`) or `#main`. */
export function focusInside(first: boolean): void {
  const dialog = Array.from(document.querySelectorAll<HTMLElement>('[role="dialog"]')).pop();
  const target =
    dialog ??
    (first
      ? Array.from(document.querySelectorAll<HTMLElement>(FOCUSABLE)).find((el) => el.getClientRects().length > 0)
      : document.getElementById('main'));
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
}
