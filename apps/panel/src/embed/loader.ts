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
 * The open modal is a dialog (issue 13 point 1): focus moves into the panel, Tab and Shift+Tab stay
 * between the panel and the close button (sentinels around them), the rest of the host page is `inert`
 * and `aria-hidden`, Escape closes the innermost layer only (the panel says when it had none to close), and
 * focus returns to the opener. Opening adds one entry to the host's history, so Back closes the modal and
 * never leaves the page; screens inside add one entry each (the iframe's, in the joint session history);
 * closing it from its own controls goes back past all of them, so Back afterwards does not land on them.
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
  /** The panel said `ready`: it listens for messages. */
  ready?: boolean;
  /** Focus it once ready (the modal opened before its document loaded). */
  focusWhenReady?: boolean;
  /** History entries the panel has pushed (its last `route` message). */
  depth?: number;
  /** The modal's close button. */
  closeButton?: HTMLButtonElement;
}

/** The host history entry opening the modal added carries this key in its state. */
const OPEN_STATE = 'ticketPanelOpen';

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
/** Where focus was when the modal opened; it returns there on close. */
let opener: HTMLElement | null = null;
/** Elements made inert while the modal is open, with their former aria-hidden, to restore. */
let hidden: { el: Element; ariaHidden: string | null }[] = [];
/** The frame's and the dialog's name when the host gives no `data-title`, in the panel's language (issue 29). */
const defaultTitle = lang === 'es' ? 'Mis entradas' : 'My tickets';

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
  iframe.title = script?.dataset.title ?? defaultTitle;
  // Passkeys in the frame (issue 47, decision 049): the panel's origin may ask for and make them; browsers that keep
  // WebAuthn from cross-site frames answer NotAllowed, and the panel says so and keeps the e-mail code.
  iframe.allow = 'clipboard-write; publickey-credentials-get; publickey-credentials-create';
  iframe.setAttribute(
    'style',
    mode === 'modal'
      ? 'border:0;width:100%;flex:1;min-height:0;display:block;background:transparent'
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
  // A global the host page names in `data-on-close` / `data-on-logout`, whatever its type.
  const fromAttr: unknown = script?.dataset[name] ? Reflect.get(window, script.dataset[name]) : undefined;
  for (const fn of [api[name], fromAttr])
    if (typeof fn === 'function') {
      try {
        (fn as () => void)();
      } catch (e) {
        console.error(e);
      }
    }
}

function send(frame: Frame, msg: HostToPanel): void {
  frame.iframe.contentWindow?.postMessage(msg, panelOrigin);
}

function navigateFrame(frame: Frame, params: SyncedParams, replace = false): void {
  send(frame, { source: EMBED_SOURCE, type: 'navigate', params, replace });
}

/** Moves focus into the panel (once its document listens); `first`: its first focusable element. */
function focusPanel(frame: Frame, first = false): void {
  frame.iframe.focus();
  if (frame.ready) send(frame, { source: EMBED_SOURCE, type: 'focus', first });
  else frame.focusWhenReady = true;
}

/** Makes everything on the host page but the modal inert and hidden from assistive technology. */
function hideRest(keep: HTMLElement): void {
  for (const el of Array.from(document.body.children)) {
    if (el === keep || el.hasAttribute('inert') || el.tagName === 'SCRIPT') continue;
    hidden.push({ el, ariaHidden: el.getAttribute('aria-hidden') });
    el.setAttribute('inert', '');
    el.setAttribute('aria-hidden', 'true');
  }
}

function showRest(): void {
  for (const { el, ariaHidden } of hidden) {
    el.removeAttribute('inert');
    if (ariaHidden === null) el.removeAttribute('aria-hidden');
    else el.setAttribute('aria-hidden', ariaHidden);
  }
  hidden = [];
}

/** Adds the host history entry of an open modal (Back closes it), with the URL the panel will mirror. */
function pushOpenEntry(params: SyncedParams): void {
  const url = new URL(window.location.href);
  for (const k of SYNCED_PARAMS) url.searchParams.delete(k);
  const base = url.href;
  for (const [k, v] of Object.entries(params)) if (v) url.searchParams.set(k, v);
  // A host link (or a reload) that opened the panel at load: its entry becomes the page without the panel.
  const state = { ...(window.history.state as Record<string, unknown> | null) };
  if (base !== window.location.href || state[OPEN_STATE]) {
    delete state[OPEN_STATE];
    window.history.replaceState(state, '', base);
  }
  window.history.pushState({ ...state, [OPEN_STATE]: true }, '', url.href);
}

function show(frame: Frame, from: Element | null): void {
  modal = frame;
  opener = from instanceof HTMLElement && !frame.container.contains(from) ? from : null;
  frame.container.style.display = '';
  lockScroll(true);
  hideRest(frame.container);
  document.addEventListener('keydown', onKey);
  focusPanel(frame);
}

/**
 * Opens the modal (or, open, moves the panel to `options`' screen: one history entry, the panel's).
 * `from`: the element focus returns to on close (default: the focused element).
 */
function open(options: OpenOptions = {}, from: Element | null = document.activeElement): void {
  const params = toParams(options);
  if (modal) {
    navigateFrame(modal, params);
    return;
  }
  pushOpenEntry(params);
  if (parked) {
    // Reopen the same document: its session and caches are still there. Opening added the one
    // history entry: the panel replaces its own.
    const frame = parked;
    parked = null;
    navigateFrame(frame, Object.keys(params).length ? params : { PANEL_TAB: 'QR' }, true);
    show(frame, from);
    return;
  }
  const host = document.createElement('div');
  host.setAttribute('data-ticket-panel', 'modal');
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = `:host{all:initial}
.backdrop{position:fixed;inset:0;z-index:2147483000;background:rgba(10,12,16,.6);display:flex;flex-direction:column;align-items:center;padding:12px 24px 24px}
.bar{order:-1;flex:none;display:flex;justify-content:flex-end;padding:4px 8px;background:#14161a}
.box{width:100%;max-width:720px;flex:1;max-height:860px;display:flex;flex-direction:column;border-radius:18px;overflow:hidden;background:#fff;box-shadow:0 24px 64px rgba(0,0,0,.35)}
@media (max-width:480.99px){.backdrop{padding:8px 0 0}.box{max-height:none;border-radius:16px 16px 0 0}}
.x{width:40px;height:40px;border-radius:50%;border:0;background:rgba(255,255,255,.92);color:#14161a;font:24px/1 system-ui,sans-serif;cursor:pointer;box-shadow:0 2px 8px rgba(0,0,0,.25)}
.x:focus-visible{outline:3px solid #3b5bfd;outline-offset:2px}
.trap{position:absolute;width:1px;height:1px;overflow:hidden}`;
  const backdrop = document.createElement('div');
  backdrop.className = 'backdrop';
  backdrop.setAttribute('role', 'dialog');
  backdrop.setAttribute('aria-modal', 'true');
  backdrop.setAttribute('aria-label', script?.dataset.title ?? defaultTitle);
  const box = document.createElement('div');
  box.className = 'box';
  const x = document.createElement('button');
  x.className = 'x';
  x.type = 'button';
  x.setAttribute('aria-label', lang === 'es' ? 'Cerrar' : 'Close');
  x.textContent = '×';
  x.addEventListener('click', () => close());
  // The close button in a bar at the top of the modal's own box (issue 40 point 11): drawn in the page's margin
  // above the box, it sat over the host page's own header buttons (their "My tickets", seen through the backdrop).
  // After the panel in the DOM (the tab order below), shown first by CSS `order`.
  const bar = document.createElement('div');
  bar.className = 'bar';
  bar.append(x);
  const iframe = makeIframe(params, 'modal');
  box.append(iframe, bar);
  // Tab order: the panel, then the close button (shown above it), between two sentinels that send focus
  // round: Tab past the close button goes to the panel's first element, Shift+Tab before the panel to the button.
  const sentinel = (onFocus: () => void) => {
    const s = document.createElement('span');
    s.className = 'trap';
    s.tabIndex = 0;
    s.addEventListener('focus', onFocus);
    return s;
  };
  const frame: Frame = { iframe, mode: 'modal', container: host, closeButton: x };
  backdrop.append(
    sentinel(() => x.focus()),
    box,
    sentinel(() => focusPanel(frame, true)),
  );
  backdrop.addEventListener('mousedown', (e) => {
    if (e.target === backdrop) close();
  });
  root.append(style, backdrop);
  document.body.append(host);
  frames.add(frame);
  show(frame, from);
}

/** Escape on the host's side of the open modal: the panel closes its innermost layer, or answers `escape`. */
function onKey(e: KeyboardEvent): void {
  if (e.key !== 'Escape' || !modal) return;
  e.preventDefault();
  if (modal.ready) send(modal, { source: EMBED_SOURCE, type: 'escape' });
  else close();
}

/**
 * Closes the modal. From its own controls (`viaHistory` false) it also goes back past the history entries
 * of the open modal (the panel's screens and the opening), so Back afterwards stays on the page as it was.
 */
function close(viaHistory = false): void {
  if (!modal) return;
  const frame = modal;
  frame.container.style.display = 'none';
  parked = frame;
  modal = null;
  document.removeEventListener('keydown', onKey);
  showRest();
  lockScroll(false);
  if (!viaHistory && (window.history.state as Record<string, unknown> | null)?.[OPEN_STATE])
    window.history.go(-((frame.depth ?? 0) + 1));
  else syncHostUrl(null);
  if (opener?.isConnected) opener.focus();
  opener = null;
  call('onClose');
}

// Back past the entry opening added closes the modal; Forward onto it opens it again on that screen.
window.addEventListener('popstate', (e) => {
  const isOpenEntry = Boolean((e.state as Record<string, unknown> | null)?.[OPEN_STATE]);
  if (modal && !isOpenEntry) close(true);
  else if (!modal && isOpenEntry && parked) {
    const frame = parked;
    parked = null;
    show(frame, document.activeElement);
  }
});

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
    case 'ready':
      frame.ready = true;
      if (frame.focusWhenReady && frame === modal) focusPanel(frame);
      frame.focusWhenReady = false;
      break;
    case 'close':
      if (frame === modal) close();
      else if (frame.mode === 'inline') call('onClose');
      break;
    case 'escape':
      if (frame === modal) close();
      break;
    case 'session':
      // One sign-in for the whole page: the other frames follow (the refresh cookie is shared).
      for (const other of frames)
        if (other !== frame && other.ready)
          send(other, { source: EMBED_SOURCE, type: 'session', signedIn: msg.signedIn });
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
      frame.depth = msg.depth ?? 0;
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
  open({ tab: trigger.getAttribute('data-ticket-panel-open') || undefined }, trigger);
});

/** The loader's public API, on `window.TicketPanel`. */
const api = {
  open: (options?: OpenOptions) => open(options),
  close: () => close(),
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
declare global {
  interface Window {
    /** The loader's API, set once the loader ran (host-page scripts call it). */
    TicketPanel?: TicketPanelApi;
  }
}
window.TicketPanel = api;

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
