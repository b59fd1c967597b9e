/**
 * The offline door's shared state (offline-door.ts): its store, the kept snapshots of each event, whether the
 * server answers, the watched event and its status listener, and the snapshot's reading (every admissions page).
 */
import type { AdmissionHolder, AdmissionsPage, DoorInfo, RecordedScan, ScanDirection } from '@tp/contract/access';
import { scansOf } from '@tp/contract/admission';
import { eventLocalDay } from '@tp/contract/entry-rules';
import { attempt, doorClient, type CheckInOutcome, type Fetch } from './door-api';
import type {
  DoorStatus,
  DoorStore,
  OfflineDoorDeps,
  QueuedCheckIn,
  Snapshot,
  SyncSummary,
  Conflict,
} from './offline-door';

/** At most this many snapshot pages (of 1000 holders) are read: 200,000 holders. */
const MAX_SNAPSHOT_PAGES = 200;

/** The keys of the door's store. */
export const KEYS = {
  events: 'events',
  queue: 'queue',
  conflicts: 'conflicts',
  door: 'door',
  snapshot: (eventId: number) => `snapshot:${eventId}`,
} as const;

/** The door key's info as kept, with the SHA-256 (hex) of the key it is of: another key's is not used. */
interface KeptDoorInfo {
  keyHash: string;
  info: DoorInfo;
}
const NO_DOOR_INFO: DoorInfo = { name: null, mode: 'entry', zone: null };

async function keyHashOf(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Keeps the info of the door key `key` (GET /v1/access/door) in the door's store, for offline starts. */
export async function keepDoorInfo(store: DoorStore, key: string, info: DoorInfo): Promise<void> {
  await store.set(KEYS.door, { keyHash: await keyHashOf(key), info } satisfies KeptDoorInfo);
}

/**
 * Adds `record` to the history of these tickets in the snapshot (an entry also sets a first `usedAt`); a ticket whose
 * history has it already (a queued scan the server recorded before its answer was lost) keeps one.
 */
export function applyRecord(snap: Snapshot, ids: ReadonlySet<number>, record: RecordedScan) {
  const same = (s: RecordedScan) =>
    Date.parse(s.at) === Date.parse(record.at) && s.direction === record.direction && s.zone === record.zone;
  for (const h of snap.holders)
    for (const t of h.tickets)
      if (ids.has(t.userTicketId)) {
        const scans = scansOf(t, snap.timeZone ?? 'UTC');
        t.scans = scans.some(same) ? scans : [...scans, record];
        if (record.direction === 'in') t.usedAt ??= record.at;
      }
}

/** The state and helpers every part of the offline door shares; `state` is changed in place by the parts. */
export function doorCore(deps: OfflineDoorDeps) {
  const fetchImpl: Fetch = deps.fetchImpl ?? ((input, init) => fetch(input, init));
  const isOnline = deps.isOnline ?? (() => navigator.onLine);
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const { store } = deps;
  const client = doorClient(deps.key, fetchImpl, deps.deviceId);
  const state = {
    /** False after a fetch failed, until one succeeds again. */
    reachable: true,
    watched: null as number | null,
    listener: null as ((s: DoorStatus) => void) | null,
    lastSync: null as SyncSummary | null,
    /** True once this page read the key's info (GET /v1/access/door). */
    doorRead: false,
  };
  const snapshots = new Map<number, Snapshot>();

  const get = async <T>(key: string, fallback: T): Promise<T> => (await store.get<T>(key)) ?? fallback;
  const offline = () => !isOnline() || !state.reachable;

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
    if (!state.listener) return;
    const snap = state.watched === null ? undefined : await snapshotOf(state.watched);
    state.listener({
      online: !offline(),
      queued: (await get<QueuedCheckIn[]>(KEYS.queue, [])).length,
      snapshotTakenAt: snap?.takenAt ?? null,
      conflicts: await get<Conflict[]>(KEYS.conflicts, []),
      lastSync: state.lastSync,
    });
  }

  /** A scanner-key call's answer or its failure's status; no answer (status 0): the door counts as offline. */
  async function call<T>(run: () => Promise<T>): ReturnType<typeof attempt<T>> {
    const r = await attempt(run);
    state.reachable = 'ok' in r || r.status !== 0;
    return r;
  }

  /** The door key's name, mode and zone as last read for this key (an entry door of no zone before the first read). */
  async function doorInfo(): Promise<DoorInfo> {
    const kept = await store.get<KeptDoorInfo>(KEYS.door);
    return kept && kept.keyHash === (await keyHashOf(deps.key)) ? kept.info : NO_DOOR_INFO;
  }

  /**
   * The scan the door is making now: when, at its zone, which way (`direction`, else its mode's), in the snapshot's
   * time zone (decision 050).
   */
  async function scanNow(snap: Snapshot, direction?: ScanDirection) {
    const info = await doorInfo();
    return {
      at: now().toISOString(),
      zone: info.zone,
      direction: direction ?? (info.mode === 'exit' ? ('out' as const) : ('in' as const)),
      timeZone: snap.timeZone ?? 'UTC',
    };
  }

  /**
   * Reads the door key's info (mode, zone) and every page of the event's admissions; stores the snapshot only when
   * all pages came.
   */
  async function refreshEvent(eventId: number): Promise<void> {
    if (!isOnline()) return;
    // A key's mode and zone never change: read once per page (the refresh runs every minute, counted per IP).
    if (!state.doorRead) {
      const info = await call((): Promise<DoorInfo> => client.GET('/v1/access/door'));
      if ('ok' in info) {
        await keepDoorInfo(store, deps.key, info.ok);
        state.doorRead = true;
      }
    }
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
    const { takenAt, timeZone, passPublicKeys, passTtlSeconds, passSkewSteps } = first;
    const snap: Snapshot = { eventId, takenAt, timeZone, passPublicKeys, passTtlSeconds, passSkewSteps, holders };
    // Check-ins queued after this snapshot was requested are not in it yet: keep their scans in the history.
    for (const q of await get<QueuedCheckIn[]>(KEYS.queue, []))
      if (q.eventId === eventId)
        applyRecord(
          snap,
          new Set(q.userTicketIds),
          q.record ?? { at: q.scannedAt, direction: 'in', zone: null, day: eventLocalDay(q.scannedAt, timeZone) },
        );
    await saveSnapshot(snap);
  }

  /** Adds the scan an online check-in recorded (its entries or exits) to the kept snapshot too. */
  async function noteOnline(eventId: number, outcome: CheckInOutcome, direction?: ScanDirection) {
    if (outcome.kind !== 'answered') return;
    const counted = [...outcome.answer.admitted, ...(outcome.answer.exited ?? [])];
    const snap = await snapshotOf(eventId);
    if (!snap || counted.length === 0) return;
    const { at, zone, direction: way, timeZone } = await scanNow(snap, direction);
    const record = { at, zone, direction: way, day: eventLocalDay(at, timeZone) };
    applyRecord(snap, new Set(counted.map((t) => t.userTicketId)), record);
    await saveSnapshot(snap);
  }

  return {
    deps,
    fetchImpl,
    isOnline,
    now,
    newId,
    store,
    client,
    state,
    get,
    offline,
    snapshotOf,
    saveSnapshot,
    report,
    call,
    refreshEvent,
    noteOnline,
    doorInfo,
    scanNow,
  };
}
/** The offline door's shared state and helpers. */
export type DoorCore = ReturnType<typeof doorCore>;
