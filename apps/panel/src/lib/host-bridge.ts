/**
 * The panel side of the embed protocol (packages/contract/src/embed.ts). Active when the panel
 * runs in the loader's iframe (`embed` query parameter): messages go only to `hostOrigin`, and
 * messages are accepted only from that origin and the parent window. Standalone it does nothing.
 */
import {
  EMBED_SOURCE,
  isPanelMessage,
  type HostToPanel,
  type PanelToHost,
  type SyncedParams,
} from '@tp/contract/embed';

type Outgoing = PanelToHost extends infer M ? (M extends { source: string } ? Omit<M, 'source'> : never) : never;

const params = new URLSearchParams(window.location.search);
const mode = params.get('embed');
const hostOrigin = (() => {
  try {
    return mode ? new URL(params.get('hostOrigin') ?? '').origin : null;
  } catch {
    return null;
  }
})();

/**
 * The organisation the panel is shown for (`?org=<slug>`, which the loader sets from its `data-org`), read
 * once; null: none. Sent as `X-Organisation` on every call (api-client), so the API lists only that
 * organisation's tickets; the holder's language and theme are kept per organisation (storage).
 */
export const organisationSlug = params.get('org') || null;

/** How the panel is shown: 'modal', 'inline' or 'standalone'. */
export const embedMode: 'modal' | 'inline' | 'standalone' =
  hostOrigin && (mode === 'modal' || mode === 'inline') ? mode : 'standalone';

/** Posts a message to the host page (no-op standalone). */
export function postToHost(message: Outgoing): void {
  if (embedMode === 'standalone' || !hostOrigin || window.parent === window) return;
  window.parent.postMessage({ source: EMBED_SOURCE, ...message }, hostOrigin);
}

/** Listens for the host's messages (only from `hostOrigin` and the parent window). Returns an unsubscribe function. */
export function onHostMessage(handler: (message: HostToPanel) => void): () => void {
  if (embedMode === 'standalone') return () => undefined;
  const listener = (event: MessageEvent) => {
    if (event.origin !== hostOrigin || event.source !== window.parent || !isPanelMessage(event.data)) return;
    handler(event.data as HostToPanel);
  };
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}

/** Listens for `navigate` messages from the host. Returns an unsubscribe function. */
export function onHostNavigate(handler: (params: SyncedParams, replace: boolean) => void): () => void {
  return onHostMessage((m) => {
    if (m.type === 'navigate') handler(m.params, m.replace === true);
  });
}

/**
 * Reports the content height (CSS pixels of the app root, not the viewport, which the host sizes
 * from this very number) to the host in inline mode.
 */
export function startHeightReports(): void {
  const root = document.getElementById('root');
  if (embedMode !== 'inline' || !root || typeof ResizeObserver === 'undefined') return;
  let last = 0;
  const ro = new ResizeObserver(() => {
    const h = Math.ceil(root.getBoundingClientRect().height);
    if (h !== last) {
      last = h;
      postToHost({ type: 'height', height: h });
    }
  });
  ro.observe(root);
}

/** Asks the host to close the panel (standalone: nothing to close). */
export function closePanel(): void {
  postToHost({ type: 'close' });
}
