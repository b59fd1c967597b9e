/**
 * The postMessage protocol between the embed loader (`/embed.js`, on the host page) and the
 * panel document (in the loader's iframe). Every message carries `source: 'ticket-panel'`;
 * each side checks `event.origin` (the loader: the panel origin from its script src; the panel:
 * the `hostOrigin` query parameter the loader put on the iframe URL) and `event.source`.
 *
 * Iframe URL: `${panelOrigin}/${lang}/?PANEL_TAB=...&embed=modal|inline&hostOrigin=${encodeURIComponent(location.origin)}`.
 */
export const EMBED_SOURCE = 'ticket-panel';

/** Query parameters mirrored between the panel URL and the host URL. */
export const SYNCED_PARAMS = ['PANEL_TAB', 'PANEL_OVERLAY_TAB', 'USER_TICKET_ID', 'SETTINGS_TAB'] as const;
export type SyncedParams = Partial<Record<(typeof SYNCED_PARAMS)[number], string>>;

/** Panel -> host. */
export type PanelToHost =
  | { source: typeof EMBED_SOURCE; type: 'ready' }
  /** The panel asks to be closed (logo click, get-the-app on the product's own site). */
  | { source: typeof EMBED_SOURCE; type: 'close' }
  /** The user logged out; the loader calls the host's onLogout callback. */
  | { source: typeof EMBED_SOURCE; type: 'logout' }
  /** Content height in CSS pixels (inline mode sizes the iframe to it). */
  | { source: typeof EMBED_SOURCE; type: 'height'; height: number }
  /** A panel modal opened or closed: lock or unlock the host page's scroll. */
  | { source: typeof EMBED_SOURCE; type: 'scroll-lock'; locked: boolean }
  /** The panel's route changed: mirror these params into the host URL (absent = remove). */
  | { source: typeof EMBED_SOURCE; type: 'route'; params: SyncedParams };

/** Host -> panel. */
export type HostToPanel =
  /** Navigate the already-loaded panel (TicketPanel.open({ tab }) on an open iframe). */
  { source: typeof EMBED_SOURCE; type: 'navigate'; params: SyncedParams };

/** Type guard for messages of this protocol. */
export function isPanelMessage(data: unknown): data is PanelToHost | HostToPanel {
  return typeof data === 'object' && data !== null && (data as { source?: unknown }).source === EMBED_SOURCE;
}
