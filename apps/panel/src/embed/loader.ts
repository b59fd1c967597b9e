/**
 * The embed loader, served as `/embed.js` (no React; DESIGN "How the panel meets the host page").
 *
 * A host page adds `<script src="https://<panel-host>/embed.js" data-org="demo" async></script>` and then:
 * - `TicketPanel.open({ tab?, overlay?, userTicketId?, settingsTab? })` shows the panel in a modal
 *   (the host page's scroll is locked while it is open); `TicketPanel.close()` closes it;
 * - `TicketPanel.mount(element, { tab? })` shows the panel inline, sized to its content;
 * - any element with `data-ticket-panel-open` (optionally `="QR"`, a PANEL_TAB value) opens the modal;
 * - `TicketPanel.onClose` / `TicketPanel.onLogout` (or `data-on-close` / `data-on-logout` naming a
 *   global function) are called when the panel closes or the person logs out; the same moments are
 *   dispatched as `ticketpanel:close` / `ticketpanel:logout` DOM events on `window`.
 * - `data-org="<slug>"` shows the panel for that organisation (`?org=` on the panel URL): its branding and
 *   only its tickets.
 *
 * The panel document runs in an iframe from the panel origin, so its tokens stay out of the host
 * page's reach. Messages are accepted only from that origin and that iframe (embed protocol in
 * packages/contract/src/embed.ts). The panel's route is mirrored into the host URL
 * (`PANEL_TAB`, `PANEL_OVERLAY_TAB`, `USER_TICKET_ID`, `SETTINGS_TAB`), and a host URL that carries
 * `PANEL_TAB` opens the modal on that screen at load.
 */
import { EMBED_SOURCE, SYNCED_PARAMS, isPanelMessage, type HostToPanel, type SyncedParams } from '@tp/contract/embed';

/** What `open` and `mount` take: the screen to show first (spec section 2 Routing values). */
export interface OpenOptions {
  tab?: string;
  overlay?: string;
  userTicketId?: string;
  settingsTab?: string;
}

interface Frame {
  iframe: HTMLIFrameElement;
  mode: 'modal' | 'inline';
  container: HTMLElement;
}

const script = document.currentScript as HTMLScriptElement | null;
const panelOrigin = new URL(script?.src ?? window.location.href).origin;
const lang = (script?.dataset.lang ?? document.documentElement.lang ?? 'en').toLowerCase().startsWith('es')
  ? 'es'
  : 'en';
const frames = new Set<Frame>();
/** The open modal; `parked` keeps a closed modal's iframe (hidden) so that a session held in memory survives. */
let modal: Frame | null = null;
let parked: Frame | null = null;
let savedOverflow: string | null = null;

function toParams(o: OpenOptions = {}): SyncedParams {
  const p: SyncedParams = {};
  if (o.tab) p.PANEL_TAB = o.tab;
  if (o.overlay) p.PANEL_OVERLAY_TAB = o.overlay;
  if (o.userTicketId) p.USER_TICKET_ID = o.userTicketId;
  if (o.settingsTab) p.SETTINGS_TAB = o.settingsTab;
  return p;
}

function panelUrl(params: SyncedParams, mode: Frame['mode']): string {
  const q = new URLSearchParams(params);
  q.set('embed', mode);
  q.set('hostOrigin', window.location.origin);
  // The organisation the panel is shown for: its name, logo, colours and links, and only its tickets.
  if (script?.dataset.org) q.set('org', script.dataset.org);
  return `${panelOrigin}/${lang}/?${q.toString()}`;
}

function makeIframe(params: SyncedParams, mode: Frame['mode']): HTMLIFrameElement {
  const iframe = document.createElement('iframe');
  iframe.src = panelUrl(params, mode);
  iframe.title = script?.dataset.title ?? 'My tickets';
  iframe.allow = 'clipboard-write';
  iframe.setAttribute(
    'style',
    mode === 'modal'
      ? 'border:0;width:100%;height:100%;display:block;background:transparent'
      : 'border:0;width:100%;height:640px;display:block;background:transparent',
  );
  return iframe;
}

function lockScroll(locked: boolean): void {
  if (locked && savedOverflow === null) {
    savedOverflow = document.documentElement.style.overflow;
    document.documentElement.style.overflow = 'hidden';
  } else if (!locked && savedOverflow !== null && !modal) {
    document.documentElement.style.overflow = savedOverflow;
    savedOverflow = null;
  }
}

/** Mirrors the panel's route into the host URL (replaceState: no extra history entries). */
function syncHostUrl(params: SyncedParams | null): void {
  const url = new URL(window.location.href);
  for (const k of SYNCED_PARAMS) {
    const v = params?.[k];
    if (v) url.searchParams.set(k, v);
    else url.searchParams.delete(k);
  }
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url.href);
}

function call(name: 'onClose' | 'onLogout'): void {
  window.dispatchEvent(new CustomEvent(name === 'onClose' ? 'ticketpanel:close' : 'ticketpanel:logout'));
  const fromAttr = script?.dataset[name]
    ? (window as unknown as Record<string, unknown>)[script.dataset[name]]
    : undefined;
  for (const fn of [api[name], fromAttr])
    if (typeof fn === 'function') {
      try {
        (fn as () => void)();
      } catch (e) {
        console.error(e);
      }
    }
}

function navigateFrame(frame: Frame, params: SyncedParams): void {
  const msg: HostToPanel = { source: EMBED_SOURCE, type: 'navigate', params };
  frame.iframe.contentWindow?.postMessage(msg, panelOrigin);
}

function show(frame: Frame): void {
  modal = frame;
  lockScroll(true);
  document.addEventListener('keydown', onKey);
  frame.iframe.focus();
}

function open(options: OpenOptions = {}): void {
  const params = toParams(options);
  if (modal) {
    navigateFrame(modal, params);
    return;
  }
  if (parked) {
    // Reopen the same document: where the browser blocks third-party storage the session lives
    // only in that document's memory.
    const frame = parked;
    parked = null;
    frame.container.style.display = '';
    navigateFrame(frame, Object.keys(params).length ? params : { PANEL_TAB: 'QR' });
    show(frame);
    return;
  }
  const host = document.createElement('div');
  host.setAttribute('data-ticket-panel', 'modal');
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = `:host{all:initial}
.backdrop{position:fixed;inset:0;z-index:2147483000;background:rgba(10,12,16,.6);display:flex;flex-direction:column;align-items:center;padding:12px 24px 24px}
.bar{width:100%;max-width:720px;display:flex;justify-content:flex-end;padding-bottom:8px}
.box{width:100%;max-width:720px;flex:1;max-height:860px;border-radius:18px;overflow:hidden;background:#fff;box-shadow:0 24px 64px rgba(0,0,0,.35)}
@media (max-width:480.99px){.backdrop{padding:8px 0 0}.bar{padding:0 8px 8px}.box{max-height:none;border-radius:16px 16px 0 0}}
.x{width:40px;height:40px;border-radius:50%;border:0;background:rgba(255,255,255,.92);color:#14161a;font:24px/1 system-ui,sans-serif;cursor:pointer;box-shadow:0 2px 8px rgba(0,0,0,.25)}
.x:focus-visible{outline:3px solid #3b5bfd;outline-offset:2px}`;
  const backdrop = document.createElement('div');
  backdrop.className = 'backdrop';
  backdrop.setAttribute('role', 'dialog');
  backdrop.setAttribute('aria-modal', 'true');
  backdrop.setAttribute('aria-label', script?.dataset.title ?? 'My tickets');
  const box = document.createElement('div');
  box.className = 'box';
  const x = document.createElement('button');
  x.className = 'x';
  x.type = 'button';
  x.setAttribute('aria-label', lang === 'es' ? 'Cerrar' : 'Close');
  x.textContent = '×';
  x.addEventListener('click', () => close());
  const bar = document.createElement('div');
  bar.className = 'bar';
  bar.append(x);
  const iframe = makeIframe(params, 'modal');
  box.append(iframe);
  backdrop.append(bar, box);
  backdrop.addEventListener('mousedown', (e) => {
    if (e.target === backdrop) close();
  });
  root.append(style, backdrop);
  document.body.append(host);
  const frame: Frame = { iframe, mode: 'modal', container: host };
  frames.add(frame);
  show(frame);
}

function onKey(e: KeyboardEvent): void {
  if (e.key === 'Escape' && modal) close();
}

function close(): void {
  if (!modal) return;
  modal.container.style.display = 'none';
  parked = modal;
  modal = null;
  document.removeEventListener('keydown', onKey);
  lockScroll(false);
  syncHostUrl(null);
  call('onClose');
}

function mount(element: HTMLElement | string, options: OpenOptions = {}): void {
  const el = typeof element === 'string' ? document.querySelector<HTMLElement>(element) : element;
  if (!el) throw new Error(`TicketPanel.mount: no element matches ${typeof element === 'string' ? element : ''}`);
  const iframe = makeIframe(toParams(options), 'inline');
  el.replaceChildren(iframe);
  frames.add({ iframe, mode: 'inline', container: el });
}

window.addEventListener('message', (event: MessageEvent) => {
  if (event.origin !== panelOrigin || !isPanelMessage(event.data)) return;
  const frame = [...frames].find((f) => f.iframe.contentWindow === event.source);
  if (!frame) return;
  const msg = event.data;
  switch (msg.type) {
    case 'close':
      if (frame === modal) close();
      else if (frame.mode === 'inline') call('onClose');
      break;
    case 'logout':
      call('onLogout');
      break;
    case 'height':
      if (frame.mode === 'inline') frame.iframe.style.height = `${Math.max(200, Math.ceil(msg.height))}px`;
      break;
    case 'scroll-lock':
      if (frame.mode === 'inline') lockScroll(msg.locked);
      break;
    case 'route':
      if (frame === modal) syncHostUrl(msg.params);
      break;
    default:
      break;
  }
});

document.addEventListener('click', (e) => {
  const trigger = (e.target as Element | null)?.closest?.('[data-ticket-panel-open]');
  if (!trigger) return;
  e.preventDefault();
  open({ tab: trigger.getAttribute('data-ticket-panel-open') || undefined });
});

/** The loader's public API, on `window.TicketPanel`. */
const api = {
  open,
  close,
  mount,
  onClose: null as null | (() => void),
  onLogout: null as null | (() => void),
  /** True while the modal is open. */
  get isOpen() {
    return modal !== null;
  },
};
/** The type of `window.TicketPanel` (for host-page scripts written in TypeScript, e.g. the demo host's). */
export type TicketPanelApi = typeof api;
(window as unknown as { TicketPanel: TicketPanelApi }).TicketPanel = api;

// A host link such as ?PANEL_TAB=QR opens the panel on that screen.
const initial = new URLSearchParams(window.location.search);
if (initial.get('PANEL_TAB') || initial.get('PANEL_OVERLAY_TAB')) {
  const start = () =>
    open({
      tab: initial.get('PANEL_TAB') ?? undefined,
      overlay: initial.get('PANEL_OVERLAY_TAB') ?? undefined,
      userTicketId: initial.get('USER_TICKET_ID') ?? undefined,
      settingsTab: initial.get('SETTINGS_TAB') ?? undefined,
    });
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
}
