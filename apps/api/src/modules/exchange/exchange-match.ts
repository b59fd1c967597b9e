/**
 * Matching supply to the queue, and ending offers (decision 042, "Matching, and the group rule" and "Offers end").
 * Every function here runs inside a transaction that holds the event's exchange lock (`lockSettings`), so the
 * units and entries of its types change one transaction at a time: no unit is offered twice.
 *
 * The group rule: the first WAITING entry (the head) is offered as soon as the free units (and the units HELD for
 * it) fill it. While it does not fit, free units go to the first entry behind it that fits, and every entry passed
 * over counts the units given past it (`passedOver`). Once the head has been passed over by its own quantity, the
 * units that are free from then on are HELD for it (at most `quantity − 1` of them) until it fits. So no ticket
 * waits while someone could buy it, and a group waits at most for one group's worth of tickets.
 */
import * as z from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { enqueueJobs } from '../../providers/jobs/job-queue.js';
import { exchangeRepository as repo, type EntryRow, type SettingsRow, type UnitRow } from './exchange.repository.js';

/** The job that ends an offer left unpaid at its `expiresAt` (run at that time; no periodic scan). */
export const EXCHANGE_EXPIRE_JOB = 'exchange.expire';
/** Payload of {@link EXCHANGE_EXPIRE_JOB}: the offered entry. */
export const expirePayload = z.object({ entryId: z.number().int().positive() });

/** Offers `units` (exactly the entry's quantity) to `entry` for the event's `offerMinutes`, and schedules its expiry. */
async function offer(tx: DbOrTx, settings: SettingsRow, entry: EntryRow, units: UnitRow[], at: Date): Promise<void> {
  const expiresAt = new Date(at.getTime() + settings.offerMinutes * 60_000);
  await repo.setUnits(
    tx,
    units.map((u) => u.id),
    'RESERVED',
    entry.id,
    at,
  );
  await repo.offerEntry(tx, entry.id, at, expiresAt);
  await enqueueJobs(tx, [{ kind: EXCHANGE_EXPIRE_JOB, payload: { entryId: entry.id }, runAt: expiresAt }]);
}

/**
 * Offers the type's free units to its entries by the group rule, until no entry fits. The caller holds the
 * event's exchange lock.
 * @returns how many entries were offered
 */
export async function matchType(tx: DbOrTx, settings: SettingsRow, ticketTypeId: number, at: Date): Promise<number> {
  let offers = 0;
  for (;;) {
    const waiting = await repo.waitingOfType(tx, ticketTypeId);
    const head = waiting.at(0);
    if (!head) return offers;
    const held = await repo.unitsOfType(tx, ticketTypeId, 'HELD');
    const heldForHead = held.filter((u) => u.entryId === head.id);
    // Units held for an entry that is no longer the head are free again (oldest first with the rest).
    const free = [
      ...held.filter((u) => u.entryId !== head.id),
      ...(await repo.unitsOfType(tx, ticketTypeId, 'AVAILABLE')),
    ].sort((a, b) => a.id - b.id);
    if (head.quantity <= heldForHead.length + free.length) {
      await offer(tx, settings, head, [...heldForHead, ...free].slice(0, head.quantity), at);
      offers++;
      continue;
    }
    if (head.passedOver >= head.quantity) {
      await repo.setUnits(
        tx,
        free.map((u) => u.id),
        'HELD',
        head.id,
        at,
      );
      return offers;
    }
    const fits = waiting.findIndex((e) => e.quantity <= free.length);
    if (fits < 0) {
      await repo.setUnits(
        tx,
        free.filter((u) => u.status === 'HELD').map((u) => u.id),
        'AVAILABLE',
        null,
        at,
      );
      return offers;
    }
    const next = waiting[fits];
    await offer(tx, settings, next, free.slice(0, next.quantity), at);
    await repo.addPassedOver(
      tx,
      waiting.slice(0, fits).map((e) => e.id),
      next.quantity,
    );
    offers++;
  }
}

/**
 * Ends an open entry (`from` its statuses) with `status`, frees the units held or reserved for it and matches its
 * type again. The caller holds the event's exchange lock.
 * @returns false when the entry was no longer in one of `from` (nothing changed)
 */
export async function endEntry(
  tx: DbOrTx,
  settings: SettingsRow,
  entry: EntryRow,
  from: string[],
  status: 'EXPIRED' | 'LEFT',
  at: Date,
): Promise<boolean> {
  if (!(await repo.endEntry(tx, entry.id, from, status, at))) return false;
  await repo.freeUnitsOf(tx, entry.id);
  await matchType(tx, settings, entry.ticketTypeId, at);
  return true;
}
