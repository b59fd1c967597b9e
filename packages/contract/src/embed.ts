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
  /**
   * The panel's route changed: mirror these params into the host URL (absent = remove). `depth` is how
   * many history entries the panel has pushed since it was loaded (the one it is on): closing the modal
   * from its own controls goes back that many entries plus the one opening added.
   */
  | { source: typeof EMBED_SOURCE; type: 'route'; params: SyncedParams; depth?: number }
  /**
   * Escape was pressed (in the panel, or forwarded by the host) and no layer of the panel took it (no menu,
   * listbox or dialog was open): the modal itself closes.
   */
  | { source: typeof EMBED_SOURCE; type: 'escape' }
  /** The holder signed in or out in this frame: the loader tells the page's other frames (`session`). */
  | { source: typeof EMBED_SOURCE; type: 'session'; signedIn: boolean };

/** Host -> panel. */
export type HostToPanel =
  /**
   * Navigate the already-loaded panel (TicketPanel.open({ tab }) on an open iframe: a new history entry;
   * `replace` on reopening a closed modal, whose opening already added one, and on the host's Back/Forward).
   */
  | { source: typeof EMBED_SOURCE; type: 'navigate'; params: SyncedParams; replace?: boolean }
  /**
   * Move focus into the panel: its topmost dialog, else its first focusable element (`first`) or its main
   * content. Sent when the modal opens and when Tab wraps around from the host's close button.
   */
  | { source: typeof EMBED_SOURCE; type: 'focus'; first?: boolean }
  /**
   * Escape pressed on the host's side of the open modal (its close button): the panel closes its innermost
   * layer, or answers `escape` when it has none.
   */
  | { source: typeof EMBED_SOURCE; type: 'escape' }
  /**
   * Another frame of the page signed in (this one takes the session from the shared refresh cookie) or out
   * (this one drops its tokens).
   */
  | { source: typeof EMBED_SOURCE; type: 'session'; signedIn: boolean };

/** Type guard for messages of this protocol. */
export function isPanelMessage(data: unknown): data is PanelToHost | HostToPanel {
  return typeof data === 'object' && data !== null && (data as { source?: unknown }).source === EMBED_SOURCE;
}
