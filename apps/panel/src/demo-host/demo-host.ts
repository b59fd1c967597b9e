/**
 * The demo host page's own script (served at /demo-host.js; the page is apps/api/src/pages/
 * demo-host.page.ts): what an organiser writes next to the loader's script tag. It mounts the panel
 * inline in #ticket-panel-inline and writes the loader's onClose / onLogout callbacks into the
 * #panel-status line, so a person (or a test) sees them fire. The line's texts come from its
 * `data-closed` and `data-logged-out` attributes, in the page's language.
 */
import type { TicketPanelApi } from '../embed/loader';

/** Writes `text` and the local time into the status line. */
export function say(status: HTMLElement, text: string, now = new Date()): void {
  status.textContent = `${text} · ${now.toLocaleTimeString()}`;
}

/** Wires the demo page to the loader's API (which embed.js, loaded before, put on window). */
export function wireDemoHost(doc: Document, panel: TicketPanelApi): void {
  const status = doc.getElementById('panel-status');
  const inline = doc.getElementById('ticket-panel-inline');
  if (!status || !inline) return;
  panel.onClose = () => say(status, status.dataset.closed ?? '');
  panel.onLogout = () => say(status, status.dataset.loggedOut ?? '');
  panel.mount(inline, { tab: 'MY_TICKET' });
}

const panel = window.TicketPanel;
if (panel) wireDemoHost(document, panel);
