/**
 * The door scanner page's behaviour (index.html's elements): the key step (the door key is kept on the
 * device, localStorage, until "Forget this door"; a set-up link `#key=` sets it, a pasted key or link is
 * cleaned), the event picker (the picked event in full below it) (the last pick is remembered), the
 * code form (a USB/Bluetooth keyboard-wedge scanner types the pass and Enter, wherever the focus is while
 * the page is idle), the camera button, the result panel and, after a sync, the server's final word.
 * All server calls go through a {@link Door}; the verdicts come from verdict.ts. The page's elements, the wedge
 * input, the camera button and the event picker's filling are functions of their own beside startScanner.
 */
import { PASS_CODE_MAX_LENGTH } from '@tp/contract/pass-code';
import { cameraSupported, createCamera, type Camera } from './camera';
import type { Door, ScannerEvent } from './door-api';
import type { Formats, Texts } from './i18n';
import type { DoorStatus, OfflineDoor, SyncSummary } from './offline-door';
import { checkInVerdict, message, syncVerdict } from './verdict';
import { renderDoorMode, renderDoorStatus, renderVerdict } from './view';

/** How often the status line's "admissions list from 2 minutes ago" is rewritten. */
const STATUS_EVERY_MS = 15_000;

/** Storage keys (localStorage in the page). */
export const STORAGE = { key: 'tp.scanner.key', event: 'tp.scanner.event' } as const;
/** localStorage key of the device's stable id (main.ts). */
export const DEVICE_ID_KEY = 'tp.scanner.device';

export interface ScannerDeps {
  doc: Document;
  texts: Texts;
  formats: Formats;
  /** Where the door key and the picked event are kept: localStorage in the page (until "Forget this door"). */
  storage: Storage;
  /** The door for a scanner key (offlineDoor in the page); an {@link OfflineDoor} shows its status. */
  doorFor: (key: string) => Door | OfflineDoor;
  /** Defaults to the camera where the browser can scan; tests leave it out. */
  camera?: (video: HTMLVideoElement, onCode: (code: string) => Promise<void>) => Camera | null;
  /**
   * The door key a set-up link brought (`/scanner#key=…`, from the organiser's console; issue 40 point 7), read
   * once and removed from the address bar by the page (main.ts); null when there is none.
   */
  linkKey?: string | null;
}

/**
 * The door key in a set-up link's fragment (`#key=tpd_…`), or null. The fragment never reaches a server or a
 * log; the page removes it from the address bar once read.
 */
export function keyFromFragment(hash: string): string | null {
  const key = new URLSearchParams(hash.replace(/^#/, '')).get('key');
  return key ? cleanKey(key) || null : null;
}

/**
 * A door key as typed or pasted: without spaces or line breaks (a pasted key often carries them), and the key alone
 * when a whole set-up link was pasted.
 */
export function cleanKey(raw: string): string {
  const text = raw.trim();
  const fromLink = /#(?:.*&)?key=([^&\s]+)/.exec(text);
  const key = fromLink ? decodeURIComponent(fromLink[1]) : text;
  return key.replace(/\s+/g, '').replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, '');
}

function byId<T extends HTMLElement>(doc: Document, id: string): T {
  const node = doc.getElementById(id);
  if (!node) throw new Error(`scanner: #${id} is missing from index.html`);
  return node as T;
}

/** The page's elements (index.html), by id. */
function scannerElements(doc: Document) {
  return {
    keyStep: byId<HTMLElement>(doc, 'key-step'),
    scanStep: byId<HTMLElement>(doc, 'scan-step'),
    keyForm: byId<HTMLFormElement>(doc, 'key-form'),
    keyInput: byId<HTMLInputElement>(doc, 'scanner-key'),
    keyError: byId<HTMLElement>(doc, 'key-error'),
    eventSelect: byId<HTMLSelectElement>(doc, 'event'),
    noEvents: byId<HTMLElement>(doc, 'no-events'),
    codeForm: byId<HTMLFormElement>(doc, 'code-form'),
    codeInput: byId<HTMLInputElement>(doc, 'code'),
    result: byId<HTMLElement>(doc, 'result'),
    cameraButton: byId<HTMLButtonElement>(doc, 'camera'),
    video: byId<HTMLVideoElement>(doc, 'video'),
    statusLine: byId<HTMLElement>(doc, 'door-status'),
    conflictsBox: byId<HTMLElement>(doc, 'conflicts'),
    conflictList: byId<HTMLElement>(doc, 'conflict-list'),
    clearConflicts: byId<HTMLButtonElement>(doc, 'clear-conflicts'),
    eventDetail: byId<HTMLElement>(doc, 'event-detail'),
    doorMode: byId<HTMLElement>(doc, 'door-mode'),
  };
}

/**
 * A keyboard-wedge scanner types the pass and Enter wherever the focus is: while the scan step shows and the focus
 * is not in a text field, a typed character goes into the code field (and the focus with it), so the rest of the
 * code and the Enter follow there.
 */
function wireWedge(doc: Document, scanStep: HTMLElement, codeInput: HTMLInputElement) {
  doc.addEventListener('keydown', (ev) => {
    if (scanStep.hidden || ev.ctrlKey || ev.metaKey || ev.altKey || ev.isComposing) return;
    if (ev.key.length !== 1 || ev.key === ' ') return;
    const target = ev.target as HTMLElement | null;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target?.isContentEditable)
      return;
    ev.preventDefault();
    if (codeInput.value.length < codeInput.maxLength) codeInput.value += ev.key;
    codeInput.focus();
  });
}

/** The picked event's name and "city · date" in full under the picker (a phone's select cuts them). */
function renderEventDetail(doc: Document, eventDetail: HTMLElement, label: { name: string; rest: string } | undefined) {
  eventDetail.hidden = !label;
  if (!label) return eventDetail.replaceChildren();
  const name = doc.createElement('strong');
  name.textContent = label.name;
  eventDetail.replaceChildren(name, doc.createTextNode(label.rest));
}

/** Lists the events in the picker, keeping each one's IANA zone and full label in `zones` and `labels`. */
function fillEvents(
  doc: Document,
  select: HTMLSelectElement,
  events: ScannerEvent[],
  formats: Formats,
  zones: Map<string, string | undefined>,
  labels: Map<string, { name: string; rest: string }>,
) {
  zones.clear();
  labels.clear();
  for (const ev of events) {
    zones.set(String(ev.id), ev.timeZone);
    labels.set(String(ev.id), { name: ev.name, rest: `${ev.city} · ${formats.date(ev.startsAt, ev.timeZone)}` });
  }
  select.replaceChildren(
    ...events.map((ev) => {
      const option = doc.createElement('option');
      option.value = String(ev.id);
      option.textContent = `${ev.name} · ${labels.get(String(ev.id))!.rest}`;
      return option;
    }),
  );
}

/** Shows the camera button: it starts and stops `cam`, naming what a press does; `failed` when it cannot start. */
function wireCamera(cam: Camera, button: HTMLButtonElement, t: Texts, failed: () => void) {
  button.hidden = false;
  button.addEventListener('click', () => {
    if (cam.running) {
      cam.stop();
      button.textContent = t('camera');
      return;
    }
    cam.start().then(() => (button.textContent = t('stopCamera')), failed);
  });
}

/** A sync's refused tickets, one line each: holder, ticket (its name, else its number) and why. */
function conflictLines(summary: SyncSummary, t: Texts): string[] {
  return summary.conflicts.map((c) =>
    [c.holderName, c.ticketName || `#${c.userTicketId}`, t(`conflict_${c.reason}`)].filter(Boolean).join(' · '),
  );
}

/**
 * The door's mode and zone in the header (issue 48), as the door last read them (GET /v1/access/door at each
 * refresh), shown at each status of the watched event; `zone()` the last one shown (null: none), named when a
 * ticket is not for it.
 */
function doorModeLine(node: HTMLElement, t: Texts) {
  let zone: string | null = null;
  return {
    zone: () => zone,
    show(door: Door | OfflineDoor | null) {
      if (door && 'info' in door)
        void door.info().then((info) => {
          zone = info.zone;
          renderDoorMode(node, info, t);
        });
    },
  };
}

/** Wires the page; resolves once the first step is shown (events loaded when a key was kept). */
export async function startScanner(deps: ScannerDeps): Promise<void> {
  const { doc, texts: t, formats, storage } = deps;
  const el = scannerElements(doc);
  let door: Door | OfflineDoor | null = null;
  let unwatch: (() => void) | null = null;
  let lastStatus: DoorStatus | null = null;
  /** The last sync summary shown, so each sync's final word replaces the verdict card once. */
  let shownSync = 0;
  const doorLine = doorModeLine(el.doorMode, t);
  const showStatus = () => {
    if (lastStatus)
      renderDoorStatus(el.statusLine, el.conflictsBox, el.conflictList, lastStatus, t, formats, Date.now());
  };
  /** After a sync that sent check-ins: its summary replaces whatever verdict (e.g. "decided offline") was shown. */
  const showSync = (status: DoorStatus) => {
    const summary = status.lastSync;
    if (!summary || summary.id === shownSync || busy) return;
    shownSync = summary.id;
    show(syncVerdict(summary, conflictLines(summary, t), t));
  };
  /** Each listed event's IANA zone: times at the door are shown in the picked event's zone, like the panel. */
  const zones = new Map<string, string | undefined>();
  /** Each listed event's name and "city · date", shown in full under the picker (a phone's select cuts them). */
  const labels = new Map<string, { name: string; rest: string }>();
  /** Keeps the picked event's admissions on an offline-capable door, and shows its status. */
  const watchEvent = () => {
    renderEventDetail(doc, el.eventDetail, labels.get(el.eventSelect.value));
    formats.setTimeZone(zones.get(el.eventSelect.value));
    unwatch?.();
    unwatch = null;
    if (door && 'watch' in door && el.eventSelect.value)
      unwatch = door.watch(Number(el.eventSelect.value), (status) => {
        lastStatus = status;
        showStatus();
        showSync(status);
        doorLine.show(door);
      });
  };
  setInterval(showStatus, STATUS_EVERY_MS);
  let camera: Camera | null = null;
  let busy = false;
  const show = (verdict: Parameters<typeof renderVerdict>[1]) => renderVerdict(el.result, verdict);
  const ready = () => show(message('idle', t('ready'), t('readyDetail')));

  el.codeInput.maxLength = PASS_CODE_MAX_LENGTH;

  const toKeyStep = (error: string) => {
    camera?.stop();
    el.cameraButton.textContent = t('camera');
    unwatch?.();
    unwatch = null;
    lastStatus = null;
    el.statusLine.hidden = true;
    el.conflictsBox.hidden = true;
    el.doorMode.hidden = true;
    door = null;
    storage.removeItem(STORAGE.key);
    el.scanStep.hidden = true;
    el.keyStep.hidden = false;
    el.keyError.textContent = error;
    el.keyInput.value = '';
    el.keyInput.focus();
  };

  /** Loads the events with the current key and shows the scan step; false when it could not. */
  const loadEvents = async (): Promise<boolean> => {
    if (!door) return false;
    const outcome = await door.events();
    if (outcome.kind === 'unauthorized') {
      toKeyStep(t('wrongKey'));
      return false;
    }
    if (outcome.kind !== 'events') {
      el.keyStep.hidden = false;
      el.keyError.textContent = outcome.kind === 'busy' ? t('busy') : t('network');
      return false;
    }
    const saved = storage.getItem(STORAGE.event);
    fillEvents(doc, el.eventSelect, outcome.events, formats, zones, labels);
    if (saved && outcome.events.some((ev) => String(ev.id) === saved)) el.eventSelect.value = saved;
    el.noEvents.hidden = outcome.events.length > 0;
    el.keyStep.hidden = true;
    el.scanStep.hidden = false;
    watchEvent();
    ready();
    el.codeInput.focus();
    return true;
  };

  /** Checks one pass text at the picked event and shows the verdict. */
  const check = async (raw: string) => {
    const code = raw.trim();
    if (!code || busy || !door) return;
    if (!el.eventSelect.value) return show(message('bad', t('pickEvent')));
    busy = true;
    show(message('busy', t('checking')));
    try {
      const outcome = await door.checkIn(code, Number(el.eventSelect.value));
      if (outcome.kind === 'unauthorized') return toKeyStep(t('wrongKey'));
      show(checkInVerdict(outcome, t, formats, doorLine.zone()));
      if (outcome.kind === 'event_not_found') void loadEvents();
    } finally {
      busy = false;
    }
  };

  el.keyForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const key = cleanKey(el.keyInput.value);
    if (!key) return;
    storage.setItem(STORAGE.key, key);
    door = deps.doorFor(key);
    el.keyError.textContent = '';
    void loadEvents();
  });
  el.codeForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void check(el.codeInput.value).finally(() => {
      el.codeInput.value = '';
      el.codeInput.focus();
    });
  });
  el.eventSelect.addEventListener('change', () => {
    storage.setItem(STORAGE.event, el.eventSelect.value);
    watchEvent();
    ready();
  });
  byId(doc, 'change-key').addEventListener('click', () => toKeyStep(''));
  el.clearConflicts.addEventListener('click', () => {
    if (door && 'clearConflicts' in door) void door.clearConflicts();
    el.codeInput.focus();
  });

  wireWedge(doc, el.scanStep, el.codeInput);

  const makeCamera = deps.camera ?? ((v, onCode) => (cameraSupported() ? createCamera(v, onCode) : null));
  camera = makeCamera(el.video, check);
  if (camera) wireCamera(camera, el.cameraButton, t, () => show(message('bad', t('cameraError'))));

  // A set-up link's key replaces the kept one (the organiser's new door key for this device).
  if (deps.linkKey) storage.setItem(STORAGE.key, deps.linkKey);
  const kept = storage.getItem(STORAGE.key);
  if (kept) {
    door = deps.doorFor(kept);
    await loadEvents();
  } else {
    el.keyStep.hidden = false;
    el.keyInput.focus();
  }
}
