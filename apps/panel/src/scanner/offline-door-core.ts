/**
 * The offline door's shared state (offline-door.ts): its store, the kept snapshots of each event, whether the
 * server answers, the watched event and its status listener, and the snapshot's reading (every admissions page).
 */
import type { AdmissionHolder, AdmissionsPage } from '@tp/contract/access';
import { attempt, doorClient, type CheckInOutcome, type Fetch } from './door-api';
import type { DoorStatus, OfflineDoorDeps, QueuedCheckIn, Snapshot, SyncSummary, Conflict } from './offline-door';

/** At most this many snapshot pages (of 1000 holders) are read: 200,000 holders. */
const MAX_SNAPSHOT_PAGES = 200;

/** The keys of the door's store. */
export const KEYS = {
  events: 'events',
  queue: 'queue',
  conflicts: 'conflicts',
  snapshot: (eventId: number) => `snapshot:${eventId}`,
} as const;

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
  };
}
/** The offline door's shared state and helpers. */
export type DoorCore = ReturnType<typeof doorCore>;
