/**
 * The offline door's sync (offline-door.ts): the queue sent to POST /v1/access/sync ({@link SYNC_BATCH_MAX} at a
 * time, one event per batch), the server's conflicts kept (newest first) and the sync's summary; one sync at a time.
 */
import { SYNC_BATCH_MAX } from '@tp/contract/admission';
import type { SyncResponse } from '@tp/contract/access';
import type { Conflict, QueuedCheckIn, SyncSummary } from './offline-door';
import { KEYS, type DoorCore } from './offline-door-core';

/** Conflicts kept on the device (newest first). */
const MAX_CONFLICTS = 100;

/** The sync of the offline door: `sync` sends the queue now (when online) and reports the status after it. */
export function doorSync(core: DoorCore) {
  const { isOnline, client, state, get, call, store, snapshotOf, refreshEvent, report } = core;
  let syncing: Promise<void> | null = null;

  /** Sends the queue; then reads the snapshot again when something was sent or the server was unreachable. */
  async function syncNow(): Promise<void> {
    if (!isOnline()) return;
    const wasUnreachable = !state.reachable;
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
            items: batch.map(({ id, code, scannedAt, userTicketIds, direction }) => ({
              id,
              code,
              scannedAt,
              userTicketIds,
              ...(direction && { direction }),
            })),
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
    if (sent > 0) state.lastSync = { id: (state.lastSync?.id ?? 0) + 1, ...outcome };
    if (state.watched !== null && (sent > 0 || wasUnreachable)) await refreshEvent(state.watched);
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

  return { sync };
}
