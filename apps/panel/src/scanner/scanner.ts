/**
 * The door scanner page's behaviour (index.html's elements): the key step (the door key is kept on the
 * device, localStorage, until "Forget this door"; a set-up link `#key=` sets it, a pasted key or link is
 * cleaned), the event picker (the picked event in full below it) (the last pick is remembered), the
 * code form (a USB/Bluetooth keyboard-wedge scanner types the pass and Enter, wherever the focus is while
 * the page is idle), the camera button, the result panel and, after a sync, the server's final word.
 * All server calls go through a {@link Door}; the verdicts come from verdict.ts.
 */
import { PASS_CODE_MAX_LENGTH } from '@tp/contract/pass-code';
import { cameraSupported, createCamera, type Camera } from './camera';
import type { Door } from './door-api';
import type { Formats, Texts } from './i18n';
import type { DoorStatus, OfflineDoor } from './offline-door';
import { checkInVerdict, message, syncVerdict } from './verdict';
import { renderDoorStatus, renderVerdict } from './view';

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

/** Wires the page; resolves once the first step is shown (events loaded when a key was kept). */
// Over 150 lines: the scanner page's start-up (key, camera, wedge input, verdicts); not yet split (issue 43).
export async function startScanner(deps: ScannerDeps): Promise<void> {
  const { doc, texts: t, formats, storage } = deps;
  const keyStep = byId(doc, 'key-step');
  const scanStep = byId(doc, 'scan-step');
  const keyForm = byId<HTMLFormElement>(doc, 'key-form');
  const keyInput = byId<HTMLInputElement>(doc, 'scanner-key');
  const keyError = byId(doc, 'key-error');
  const eventSelect = byId<HTMLSelectElement>(doc, 'event');
  const noEvents = byId(doc, 'no-events');
  const codeForm = byId<HTMLFormElement>(doc, 'code-form');
  const codeInput = byId<HTMLInputElement>(doc, 'code');
  const result = byId(doc, 'result');
  const cameraButton = byId<HTMLButtonElement>(doc, 'camera');
  const video = byId<HTMLVideoElement>(doc, 'video');
  const statusLine = byId(doc, 'door-status');
  const conflictsBox = byId(doc, 'conflicts');
  const conflictList = byId(doc, 'conflict-list');
  const clearConflicts = byId<HTMLButtonElement>(doc, 'clear-conflicts');
  const eventDetail = byId(doc, 'event-detail');

  let door: Door | OfflineDoor | null = null;
  let unwatch: (() => void) | null = null;
  let lastStatus: DoorStatus | null = null;
  /** The last sync summary shown, so each sync's final word replaces the verdict card once. */
  let shownSync = 0;
  const showStatus = () => {
    if (lastStatus) renderDoorStatus(statusLine, conflictsBox, conflictList, lastStatus, t, formats, Date.now());
  };
  /** After a sync that sent check-ins: its summary replaces whatever verdict (e.g. "decided offline") was shown. */
  const showSync = (status: DoorStatus) => {
    const summary = status.lastSync;
    if (!summary || summary.id === shownSync || busy) return;
    shownSync = summary.id;
    const lines = summary.conflicts.map((c) =>
      [c.holderName, c.ticketName || `#${c.userTicketId}`, t[`conflict_${c.reason}`]].filter(Boolean).join(' · '),
    );
    show(syncVerdict(summary, lines, t));
  };
  /** Keeps the picked event's admissions on an offline-capable door, and shows its status. */
  /** Each listed event's IANA zone: times at the door are shown in the picked event's zone, like the panel. */
  const zones = new Map<string, string | undefined>();
  /** Each listed event's name and "city · date", shown in full under the picker (a phone's select cuts them). */
  const labels = new Map<string, { name: string; rest: string }>();
  const showEventDetail = () => {
    const label = labels.get(eventSelect.value);
    eventDetail.hidden = !label;
    if (!label) return eventDetail.replaceChildren();
    const name = doc.createElement('strong');
    name.textContent = label.name;
    eventDetail.replaceChildren(name, doc.createTextNode(label.rest));
  };
  const watchEvent = () => {
    showEventDetail();
    formats.setTimeZone(zones.get(eventSelect.value));
    unwatch?.();
    unwatch = null;
    if (door && 'watch' in door && eventSelect.value)
      unwatch = door.watch(Number(eventSelect.value), (status) => {
        lastStatus = status;
        showStatus();
        showSync(status);
      });
  };
  setInterval(showStatus, STATUS_EVERY_MS);
  let camera: Camera | null = null;
  let busy = false;
  const show = (verdict: Parameters<typeof renderVerdict>[1]) => renderVerdict(result, verdict);
  const ready = () => show(message('idle', t.ready, t.readyDetail));

  codeInput.maxLength = PASS_CODE_MAX_LENGTH;

  const toKeyStep = (error: string) => {
    camera?.stop();
    cameraButton.textContent = t.camera;
    unwatch?.();
    unwatch = null;
    lastStatus = null;
    statusLine.hidden = true;
    conflictsBox.hidden = true;
    door = null;
    storage.removeItem(STORAGE.key);
    scanStep.hidden = true;
    keyStep.hidden = false;
    keyError.textContent = error;
    keyInput.value = '';
    keyInput.focus();
  };

  /** Loads the events with the current key and shows the scan step; false when it could not. */
  const loadEvents = async (): Promise<boolean> => {
    if (!door) return false;
    const outcome = await door.events();
    if (outcome.kind === 'unauthorized') {
      toKeyStep(t.wrongKey);
      return false;
    }
    if (outcome.kind !== 'events') {
      keyStep.hidden = false;
      keyError.textContent = t.network;
      return false;
    }
    const saved = storage.getItem(STORAGE.event);
    zones.clear();
    labels.clear();
    for (const ev of outcome.events) {
      zones.set(String(ev.id), ev.timeZone);
      labels.set(String(ev.id), { name: ev.name, rest: `${ev.city} · ${formats.date(ev.startsAt, ev.timeZone)}` });
    }
    eventSelect.replaceChildren(
      ...outcome.events.map((ev) => {
        const option = doc.createElement('option');
        option.value = String(ev.id);
        option.textContent = `${ev.name} · ${labels.get(String(ev.id))!.rest}`;
        return option;
      }),
    );
    if (saved && outcome.events.some((ev) => String(ev.id) === saved)) eventSelect.value = saved;
    noEvents.hidden = outcome.events.length > 0;
    keyStep.hidden = true;
    scanStep.hidden = false;
    watchEvent();
    ready();
    codeInput.focus();
    return true;
  };

  /** Checks one pass text at the picked event and shows the verdict. */
  const check = async (raw: string) => {
    const code = raw.trim();
    if (!code || busy || !door) return;
    if (!eventSelect.value) return show(message('bad', t.pickEvent));
    busy = true;
    show(message('busy', t.checking));
    try {
      const outcome = await door.checkIn(code, Number(eventSelect.value));
      if (outcome.kind === 'unauthorized') return toKeyStep(t.wrongKey);
      show(checkInVerdict(outcome, t, formats));
      if (outcome.kind === 'event_not_found') void loadEvents();
    } finally {
      busy = false;
    }
  };

  keyForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const key = cleanKey(keyInput.value);
    if (!key) return;
    storage.setItem(STORAGE.key, key);
    door = deps.doorFor(key);
    keyError.textContent = '';
    void loadEvents();
  });
  codeForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void check(codeInput.value).finally(() => {
      codeInput.value = '';
      codeInput.focus();
    });
  });
  eventSelect.addEventListener('change', () => {
    storage.setItem(STORAGE.event, eventSelect.value);
    watchEvent();
    ready();
  });
  byId(doc, 'change-key').addEventListener('click', () => toKeyStep(''));
  clearConflicts.addEventListener('click', () => {
    if (door && 'clearConflicts' in door) void door.clearConflicts();
    codeInput.focus();
  });

  // A keyboard-wedge scanner types the pass and Enter wherever the focus is. While the scan step shows
  // and the focus is not in a text field, a typed character goes into the code field (and the focus
  // with it), so the rest of the code and the Enter follow there.
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

  const makeCamera = deps.camera ?? ((v, onCode) => (cameraSupported() ? createCamera(v, onCode) : null));
  camera = makeCamera(video, check);
  if (camera) {
    const cam = camera;
    cameraButton.hidden = false;
    cameraButton.addEventListener('click', () => {
      if (cam.running) {
        cam.stop();
        cameraButton.textContent = t.camera;
        return;
      }
      cam.start().then(
        () => (cameraButton.textContent = t.stopCamera),
        () => show(message('bad', t.cameraError)),
      );
    });
  }

  // A set-up link's key replaces the kept one (the organiser's new door key for this device).
  if (deps.linkKey) storage.setItem(STORAGE.key, deps.linkKey);
  const kept = storage.getItem(STORAGE.key);
  if (kept) {
    door = deps.doorFor(kept);
    await loadEvents();
  } else {
    keyStep.hidden = false;
    keyInput.focus();
  }
}
