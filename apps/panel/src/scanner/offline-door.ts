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
 */
import { admissibleTicketIds, checkInAnswer, SYNC_BATCH_MAX } from '@tp/contract/admission';
import { walletTotpAdmits, type ShownTotp } from '@tp/contract/wallet-totp';
import type { AdmissionHolder, AdmissionsPage, SyncConflictReason, SyncItem, SyncResponse } from '@tp/contract/access';
import {
  attempt,
  doorClient,
  onlineDoor,
  type CheckInOutcome,
  type Fetch,
  type Door,
  type EventsOutcome,
  type ScannerEvent,
} from './door-api';

/** How often an online door re-reads the snapshot of the event it scans for. */
export const SNAPSHOT_REFRESH_MS = 60_000;
/** How often an online door with a queue tries to sync it. */
export const SYNC_RETRY_MS = 15_000;
/** At most this many snapshot pages (of 1000 holders) are read: 200,000 holders. */
const MAX_SNAPSHOT_PAGES = 200;
/** Conflicts kept on the device (newest first). */
const MAX_CONFLICTS = 100;

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
  passPublicKeys: string[];
  passTtlSeconds: number;
  passSkewSteps: number;
  holders: AdmissionHolder[];
}

/** A check-in made offline, waiting to sync. */
export interface QueuedCheckIn extends SyncItem {
  eventId: number;
  holderName: string;
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

const KEYS = {
  events: 'events',
  queue: 'queue',
  conflicts: 'conflicts',
  snapshot: (eventId: number) => `snapshot:${eventId}`,
} as const;

/** The offline-capable door for a scanner key. */
// Over 150 lines: the offline door's snapshot, queue and sync share one store; not yet split into parts (issue 43).
export function offlineDoor(deps: OfflineDoorDeps): OfflineDoor {
  const fetchImpl: Fetch = deps.fetchImpl ?? ((input, init) => fetch(input, init));
  const isOnline = deps.isOnline ?? (() => navigator.onLine);
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const { store } = deps;
  const online = onlineDoor(deps.key, fetchImpl, deps.deviceId);
  const client = doorClient(deps.key, fetchImpl, deps.deviceId);

  /** False after a fetch failed, until one succeeds again. */
  let reachable = true;
  let watched: number | null = null;
  let listener: ((s: DoorStatus) => void) | null = null;
  const snapshots = new Map<number, Snapshot>();
  let syncing: Promise<void> | null = null;
  let lastSync: SyncSummary | null = null;

  const get = async <T>(key: string, fallback: T): Promise<T> => (await store.get<T>(key)) ?? fallback;
  const offline = () => !isOnline() || !reachable;

  async function snapshotOf(eventId: number): Promise<Snapshot | undefined> {
    let snap = snapshots.get(eventId);
    if (!snap) {
      snap = await store.get<Snapshot>(KEYS.snapshot(eventId));
      if (snap) snapshots.set(eventId, snap);
    }
    return snap;
  }
  async function saveSnapshot(snap: Snapshot) {
    snapshots.set(snap.eventId, snap);
    await store.set(KEYS.snapshot(snap.eventId), snap);
  }

  async function report() {
    if (!listener) return;
    const snap = watched === null ? undefined : await snapshotOf(watched);
    listener({
      online: !offline(),
      queued: (await get<QueuedCheckIn[]>(KEYS.queue, [])).length,
      snapshotTakenAt: snap?.takenAt ?? null,
      conflicts: await get<Conflict[]>(KEYS.conflicts, []),
      lastSync,
    });
  }

  /** A scanner-key call's answer or its failure's status; no answer (status 0): the door counts as offline. */
  async function call<T>(run: () => Promise<T>): ReturnType<typeof attempt<T>> {
    const r = await attempt(run);
    reachable = 'ok' in r || r.status !== 0;
    return r;
  }

  /** Reads every page of the event's admissions; stores the snapshot only when all pages came. */
  async function refreshEvent(eventId: number): Promise<void> {
    if (!isOnline()) return;
    const holders: AdmissionHolder[] = [];
    let first: AdmissionsPage | null = null;
    let after = 0;
    for (let page = 0; page < MAX_SNAPSHOT_PAGES; page++) {
      const r = await call((): Promise<AdmissionsPage> =>
        client.GET('/v1/access/events/{eventId}/admissions', {
          params: { path: { eventId }, query: { after, limit: 1000 } },
        }),
      );
      if (!('ok' in r)) return;
      const body = r.ok;
      first ??= body;
      holders.push(...body.holders);
      if (body.nextAfter === null) break;
      after = body.nextAfter;
    }
    if (!first) return;
    // Check-ins queued after this snapshot was requested are not in it yet: keep them marked used.
    const queue = await get<QueuedCheckIn[]>(KEYS.queue, []);
    const pending = new Map<number, string>();
    for (const q of queue) if (q.eventId === eventId) for (const id of q.userTicketIds) pending.set(id, q.scannedAt);
    for (const h of holders)
      for (const t of h.tickets)
        if (t.usedAt === null && pending.has(t.userTicketId)) t.usedAt = pending.get(t.userTicketId)!;
    const { takenAt, passPublicKeys, passTtlSeconds, passSkewSteps } = first;
    await saveSnapshot({ eventId, takenAt, passPublicKeys, passTtlSeconds, passSkewSteps, holders });
  }

  /** Sends the queue; then reads the snapshot again when something was sent or the server was unreachable. */
  async function syncNow(): Promise<void> {
    if (!isOnline()) return;
    const wasUnreachable = !reachable;
    let sent = 0;
    const outcome = { synced: 0, refused: 0, conflicts: [] as Conflict[] };
    for (;;) {
      const queue = await get<QueuedCheckIn[]>(KEYS.queue, []);
      if (queue.length === 0) break;
      const eventId = queue[0].eventId;
      const batch = queue.filter((q) => q.eventId === eventId).slice(0, SYNC_BATCH_MAX);
      const r = await call((): Promise<SyncResponse> =>
        client.POST('/v1/access/sync', {
          body: {
            eventId,
            items: batch.map(({ id, code, scannedAt, userTicketIds }) => ({ id, code, scannedAt, userTicketIds })),
          },
        }),
      );
      if (!('ok' in r)) {
        // A batch the server refuses as a whole (an event deleted, a clock far off) would block the rest:
        // its items become conflicts of their own kind only on 4xx; a network or server error retries later.
        if (r.status >= 400 && r.status < 500 && r.status !== 401 && r.status !== 429) {
          tally(outcome, batch, await drop(batch, []));
          sent += batch.length;
        }
        break;
      }
      tally(outcome, batch, await drop(batch, r.ok.results));
      sent += batch.length;
    }
    if (sent > 0) lastSync = { id: (lastSync?.id ?? 0) + 1, ...outcome };
    if (watched !== null && (sent > 0 || wasUnreachable)) await refreshEvent(watched);
  }

  /** Adds a sent batch to a sync's summary: items with a conflict are refused, the others synced. */
  function tally(outcome: Omit<SyncSummary, 'id'>, batch: QueuedCheckIn[], found: Conflict[]) {
    const refusedIds = new Set(found.map((c) => c.itemId));
    outcome.refused += refusedIds.size;
    outcome.synced += batch.length - refusedIds.size;
    outcome.conflicts.push(...found);
  }

  /**
   * Removes synced items from the queue and keeps their conflicts (a 4xx batch: every ticket `invalid_pass`);
   * returns this batch's conflicts.
   */
  async function drop(batch: QueuedCheckIn[], results: SyncResponse['results']): Promise<Conflict[]> {
    const byId = new Map(results.map((r) => [r.id, r]));
    const found: Conflict[] = [];
    for (const item of batch) {
      const result = byId.get(item.id);
      const snap = await snapshotOf(item.eventId);
      const nameOf = (userTicketId: number) =>
        snap?.holders.flatMap((h) => h.tickets).find((t) => t.userTicketId === userTicketId)?.ticketName ?? '';
      const conflicts = result
        ? result.conflicts
        : item.userTicketIds.map((userTicketId) => ({ userTicketId, reason: 'invalid_pass' as const }));
      for (const c of conflicts)
        found.push({
          itemId: item.id,
          eventId: item.eventId,
          holderName: item.holderName,
          userTicketId: c.userTicketId,
          ticketName: nameOf(c.userTicketId),
          reason: c.reason,
          scannedAt: item.scannedAt,
        });
    }
    const done = new Set(batch.map((b) => b.id));
    const queue = await get<QueuedCheckIn[]>(KEYS.queue, []);
    await store.set(
      KEYS.queue,
      queue.filter((q) => !done.has(q.id)),
    );
    if (found.length) {
      const kept = await get<Conflict[]>(KEYS.conflicts, []);
      await store.set(KEYS.conflicts, [...[...found].reverse(), ...kept].slice(0, MAX_CONFLICTS));
    }
    return found;
  }

  /** One sync at a time; the status is reported after it. */
  const sync = async () => {
    syncing ??= syncNow().finally(() => {
      syncing = null;
    });
    await syncing;
    await report();
  };

  /** A scan with no server: verify with the public key, admit from the snapshot, queue. */
  async function checkInOffline(code: string, eventId: number): Promise<CheckInOutcome> {
    const snap = await snapshotOf(eventId);
    if (!snap?.passPublicKeys.length || !deps.verify) return { kind: 'offline_unavailable' };
    const at = now();
    const keys = { publicKeys: snap.passPublicKeys, ttlSeconds: snap.passTtlSeconds, skewSteps: snap.passSkewSteps };
    const pass = await deps.verify(code, keys, at);
    if (pass === null) return { kind: 'invalid' };
    const holder = snap.holders.find((h) => h.userId === pass.userId);
    if (!holder) return { kind: 'answered', offline: true, answer: checkInAnswer('', [], new Set()) };
    // A Google Wallet rotating barcode must be timely, and fresh by its pass's secret where the snapshot has it
    // (decision 029).
    const secret = holder.walletTotpSecrets?.find((w) => w.userTicketId === pass.userTicketId)?.totpSecret;
    if (pass.totp && !(await walletTotpAdmits(secret, pass.totp, Math.floor(at.getTime() / 1000))))
      return { kind: 'stale' };
    // A wallet pass's ticket code admits its one ticket (decision 029), the holder's other tickets stay out.
    const tickets = holder.tickets.filter(
      (t) => pass.userTicketId === undefined || t.userTicketId === pass.userTicketId,
    );
    const admit = admissibleTicketIds(tickets);
    const answer = checkInAnswer(holder.holderName, tickets, new Set(admit));
    if (admit.length > 0) {
      const scannedAt = at.toISOString();
      for (const t of holder.tickets) if (admit.includes(t.userTicketId)) t.usedAt = scannedAt;
      await saveSnapshot(snap);
      const queue = await get<QueuedCheckIn[]>(KEYS.queue, []);
      queue.push({ id: newId(), eventId, holderName: holder.holderName, code, scannedAt, userTicketIds: admit });
      await store.set(KEYS.queue, queue);
    }
    void report();
    return { kind: 'answered', offline: true, answer };
  }

  /** Marks the tickets an online check-in admitted as used in the kept snapshot too. */
  async function noteOnline(eventId: number, outcome: CheckInOutcome) {
    if (outcome.kind !== 'answered' || outcome.answer.admitted.length === 0) return;
    const snap = await snapshotOf(eventId);
    if (!snap) return;
    const at = now().toISOString();
    const ids = new Set(outcome.answer.admitted.map((t) => t.userTicketId));
    for (const h of snap.holders) for (const t of h.tickets) if (ids.has(t.userTicketId)) t.usedAt = at;
    await saveSnapshot(snap);
  }

  return {
    async events(): Promise<EventsOutcome> {
      const outcome = isOnline() ? await online.events() : ({ kind: 'network' } as const);
      if (outcome.kind === 'events') {
        reachable = true;
        await store.set(KEYS.events, outcome.events);
        return outcome;
      }
      if (outcome.kind !== 'network') return outcome;
      reachable = false;
      const kept = await store.get<ScannerEvent[]>(KEYS.events);
      return kept ? { kind: 'events', events: kept } : outcome;
    },

    async checkIn(code, eventId) {
      if (isOnline() && reachable) {
        const outcome = await online.checkIn(code, eventId);
        if (outcome.kind !== 'network') {
          await noteOnline(eventId, outcome);
          return outcome;
        }
        reachable = false;
        void report();
      }
      return checkInOffline(code, eventId);
    },

    watch(eventId, onStatus) {
      watched = eventId;
      listener = onStatus;
      const win = deps.win;
      const tick = () => void sync();
      const refreshTick = () => void refreshEvent(eventId).then(report);
      const goneOffline = () => void report();
      let syncTimer: number | undefined;
      let refreshTimer: number | undefined;
      if (win) {
        win.addEventListener('online', tick);
        win.addEventListener('offline', goneOffline);
        syncTimer = win.setInterval(tick, SYNC_RETRY_MS);
        refreshTimer = win.setInterval(refreshTick, SNAPSHOT_REFRESH_MS);
      }
      void report();
      // Sync first (a sync already running may be for the event watched before), then read this
      // event's snapshot.
      void sync().then(async () => {
        if (watched !== eventId) return;
        await refreshEvent(eventId);
        await report();
      });
      return () => {
        if (watched === eventId) {
          watched = null;
          listener = null;
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
      if (watched !== null) await refreshEvent(watched);
      await report();
    },

    async clearConflicts() {
      await store.set(KEYS.conflicts, []);
      await report();
    },
  };
}
