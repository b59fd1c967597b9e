/**
 * The door that keeps working with no signal (issue 10 point 4; decision record 013-offline-door).
 *
 * While online it asks the server like {@link onlineDoor} and keeps, per event, a snapshot of the event's
 * admissions (GET /v1/access/events/:eventId/admissions, every page) with the pass public key; the
 * snapshot refreshes every {@link SNAPSHOT_REFRESH_MS} and after each sync. Offline (`navigator.onLine`
 * false, or a fetch that fails) it verifies the pass with the public key alone (an injected
 * {@link PassVerifier}), admits from the snapshot with the server's own rule (`admissibleTicketIds`,
 * `checkInAnswer` from the contract), marks the tickets used in the snapshot and queues the check-in.
 * Back online it sends the queue (POST /v1/access/sync, {@link SYNC_BATCH_MAX} at a time); the server
 * judges each item and its conflicts are kept and shown. Snapshot, queue, conflicts and the event list
 * live in a {@link DoorStore} (IndexedDB in the page), so they survive a reload.
 *
 * Its parts: offline-door-core.ts (the shared state, the store's keys and the snapshot), offline-check-in.ts (a
 * scan with no server) and offline-door-sync.ts (the queue's sync and its conflicts).
 */
import type { ShownTotp } from '@tp/contract/wallet-totp';
import type { AdmissionHolder, DoorInfo, RecordedScan, SyncConflictReason, SyncItem } from '@tp/contract/access';
import { onlineDoor, type Fetch, type Door, type EventsOutcome, type ScannerEvent } from './door-api';
import { doorCore, KEYS } from './offline-door-core';
import { doorSync } from './offline-door-sync';
import { checkInOffline } from './offline-check-in';

/** How often an online door re-reads the snapshot of the event it scans for. */
export const SNAPSHOT_REFRESH_MS = 60_000;
/** How often an online door with a queue tries to sync it. */
export const SYNC_RETRY_MS = 15_000;

/**
 * What a verified pass names: its holder, and for a wallet pass's ticket code (decision 029) the one ticket it
 * admits.
 */
export interface VerifiedHolder {
  userId: number;
  userTicketId?: number;
  /** A Google Wallet rotating barcode's suffix (decision 029): checked against the snapshot's TOTP secret. */
  totp?: ShownTotp;
}

/**
 * Verifies a pass code with the public key alone, as of `at`: what it names, or null when the
 * code is forged, malformed or not valid at `at` (pass-verifier.ts: the contract's verifyPassCode).
 * `keys`: the snapshot's public keys (base64url), time step and skew allowance.
 */
export type PassVerifier = (
  code: string,
  keys: { publicKeys: string[]; ttlSeconds: number; skewSteps: number },
  at: Date,
) => VerifiedHolder | null | Promise<VerifiedHolder | null>;

/** Where the door keeps its state across reloads (idb-keyval in the page, a Map in tests). */
export interface DoorStore {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
}

/** The snapshot of one event as the door keeps it. */
export interface Snapshot {
  eventId: number;
  /** When the server read it (ISO 8601 UTC). */
  takenAt: string;
  /** The event's IANA time zone (the day of a scan, decision 050); absent in a snapshot kept from before: UTC. */
  timeZone?: string;
  passPublicKeys: string[];
  passTtlSeconds: number;
  passSkewSteps: number;
  holders: AdmissionHolder[];
}

/** A check-in made offline, waiting to sync; `record` the scan it added to its tickets' history (not sent). */
export interface QueuedCheckIn extends SyncItem {
  eventId: number;
  holderName: string;
  record?: RecordedScan;
}

/** A ticket the server did not record on sync, and why (kept on the device and shown). */
export interface Conflict {
  itemId: string;
  eventId: number;
  holderName: string;
  userTicketId: number;
  ticketName: string;
  reason: SyncConflictReason;
  scannedAt: string;
}

/** What the status line shows. */
export interface DoorStatus {
  online: boolean;
  /** Check-ins waiting to sync (all events). */
  queued: number;
  /** When the snapshot of the watched event was taken (ISO UTC), or null when there is none. */
  snapshotTakenAt: string | null;
  conflicts: Conflict[];
  /** The last sync that sent check-ins, or null (none since the page opened). */
  lastSync: SyncSummary | null;
}

/**
 * The server's final word on one sync (issue 20 point 5): `synced` check-ins recorded as made, `refused`
 * check-ins with a ticket the server did not record (their tickets in `conflicts`). `id` grows with each sync.
 */
export interface SyncSummary {
  id: number;
  synced: number;
  refused: number;
  conflicts: Conflict[];
}

/** An offline-capable {@link Door} with a status to show. */
export interface OfflineDoor extends Door {
  /**
   * What the door key is (GET /v1/access/door: name, mode, zone; issue 48), read again while online and kept for
   * offline; before it was ever read, an entry door of no zone.
   */
  info(): Promise<DoorInfo>;
  /** Starts keeping the snapshot of `eventId` fresh and reports the status; returns a stop function. */
  watch(eventId: number, onStatus: (status: DoorStatus) => void): () => void;
  /** Sends the queue now (when online); resolves when done. */
  sync(): Promise<void>;
  /** Reads the watched event's snapshot again now; resolves when stored. */
  refresh(): Promise<void>;
  /**
   * Empties the kept list of check-ins refused on sync (door staff have told the organiser, who also sees them in
   * the console's dashboard), and reports the status (issue 40 point 7).
   */
  clearConflicts(): Promise<void>;
}

export interface OfflineDoorDeps {
  key: string;
  /** The device's stable id, sent with every call for the server's check-in log. */
  deviceId?: string;
  store: DoorStore;
  /** Null while no verifier is available: offline scans then say the door needs the network. */
  verify: PassVerifier | null;
  fetchImpl?: Fetch;
  /** navigator.onLine in the page. */
  isOnline?: () => boolean;
  now?: () => Date;
  /** crypto.randomUUID in the page. */
  newId?: () => string;
  /** The window, for its online/offline events and timers; tests leave it out. */
  win?: Pick<Window, 'addEventListener' | 'removeEventListener' | 'setInterval' | 'clearInterval'>;
}

/**
 * The offline-capable door for a scanner key: events and check-ins online with the offline fallback, the watched
 * event's timers, and the status.
 */
export function offlineDoor(deps: OfflineDoorDeps): OfflineDoor {
  const core = doorCore(deps);
  const { state } = core;
  const online = onlineDoor(deps.key, core.fetchImpl, deps.deviceId, false);
  const waiting = onlineDoor(deps.key, core.fetchImpl, deps.deviceId);
  const { sync } = doorSync(core);

  return {
    async events(): Promise<EventsOutcome> {
      const outcome = core.isOnline() ? await waiting.events() : ({ kind: 'network' } as const);
      if (outcome.kind === 'events') {
        state.reachable = true;
        await core.store.set(KEYS.events, outcome.events);
        return outcome;
      }
      if (outcome.kind !== 'network') return outcome;
      state.reachable = false;
      const kept = await core.store.get<ScannerEvent[]>(KEYS.events);
      return kept ? { kind: 'events', events: kept } : outcome;
    },

    async info() {
      return core.doorInfo();
    },

    async checkIn(code, eventId, direction) {
      if (core.isOnline() && state.reachable) {
        // A check-in the API sheds (503 api.busy, issue 44) is decided from the snapshot at once when there is one,
        // like an offline scan, and queued (the person at the door does not wait for the server's Retry-After; the
        // sync records it later, its POST retried after the wait too, and a shed sync keeps the queue). With no
        // snapshot or verifier to decide from, the server is asked again after its Retry-After.
        const canDecide = Boolean(deps.verify && (await core.snapshotOf(eventId))?.passPublicKeys.length);
        const outcome = await (canDecide ? online : waiting).checkIn(code, eventId, direction);
        if (outcome.kind === 'busy' && canDecide) {
          const local = await checkInOffline(core, code, eventId, direction);
          return local.kind === 'answered' ? { ...local, shed: true } : local;
        }
        if (outcome.kind !== 'network') {
          await core.noteOnline(eventId, outcome, direction);
          return outcome;
        }
        state.reachable = false;
        void core.report();
      }
      return checkInOffline(core, code, eventId, direction);
    },

    watch(eventId, onStatus) {
      state.watched = eventId;
      state.listener = onStatus;
      const win = deps.win;
      const tick = () => void sync();
      const refreshTick = () => void core.refreshEvent(eventId).then(core.report);
      const goneOffline = () => void core.report();
      let syncTimer: number | undefined;
      let refreshTimer: number | undefined;
      if (win) {
        win.addEventListener('online', tick);
        win.addEventListener('offline', goneOffline);
        syncTimer = win.setInterval(tick, SYNC_RETRY_MS);
        refreshTimer = win.setInterval(refreshTick, SNAPSHOT_REFRESH_MS);
      }
      void core.report();
      // Sync first (a sync already running may be for the event watched before), then read this
      // event's snapshot.
      void sync().then(async () => {
        if (state.watched !== eventId) return;
        await core.refreshEvent(eventId);
        await core.report();
      });
      return () => {
        if (state.watched === eventId) {
          state.watched = null;
          state.listener = null;
        }
        if (win) {
          win.removeEventListener('online', tick);
          win.removeEventListener('offline', goneOffline);
          win.clearInterval(syncTimer);
          win.clearInterval(refreshTimer);
        }
      };
    },

    sync,

    async refresh() {
      if (state.watched !== null) await core.refreshEvent(state.watched);
      await core.report();
    },

    async clearConflicts() {
      await core.store.set(KEYS.conflicts, []);
      await core.report();
    },
  };
}
