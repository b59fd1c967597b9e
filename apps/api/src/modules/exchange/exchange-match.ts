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
import type { ExchangeNotices, OfferEndReason } from './exchange-notices.js';

/** What a match runs with: the transaction holding the event's exchange lock and the notices it queues. */
export interface MatchScope {
  tx: DbOrTx;
  notices: ExchangeNotices;
}

/** The job that ends an offer left unpaid at its `expiresAt` (run at that time; no periodic scan). */
export const EXCHANGE_EXPIRE_JOB = 'exchange.expire';
/** Payload of {@link EXCHANGE_EXPIRE_JOB}: the offered entry. */
export const expirePayload = z.object({ entryId: z.number().int().positive() });

/**
 * Offers `units` (exactly the entry's quantity) to `entry` for the event's `offerMinutes`, schedules its expiry and
 * queues the fan's e-mail and `exchange.offered`.
 */
async function offer(
  { tx, notices }: MatchScope,
  settings: SettingsRow,
  entry: EntryRow,
  units: UnitRow[],
  at: Date,
): Promise<void> {
  const expiresAt = new Date(at.getTime() + settings.offerMinutes * 60_000);
  await repo.setUnits(tx, units, 'RESERVED', entry.id, at);
  await repo.offerEntry(tx, entry.id, at, expiresAt);
  await enqueueJobs(tx, [{ kind: EXCHANGE_EXPIRE_JOB, payload: { entryId: entry.id }, runAt: expiresAt }]);
  await notices.offered(tx, entry.id, expiresAt, at);
}

/**
 * Offers the type's free units to its entries by the group rule, until no entry fits. The caller holds the
 * event's exchange lock.
 * @returns how many entries were offered
 */
export async function matchType(
  scope: MatchScope,
  settings: SettingsRow,
  ticketTypeId: number,
  at: Date,
): Promise<number> {
  const { tx } = scope;
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
      await offer(scope, settings, head, [...heldForHead, ...free].slice(0, head.quantity), at);
      offers++;
      continue;
    }
    if (head.passedOver >= head.quantity) {
      await repo.setUnits(tx, free, 'HELD', head.id, at);
      return offers;
    }
    const fits = waiting.findIndex((e) => e.quantity <= free.length);
    if (fits < 0) {
      await repo.setUnits(
        tx,
        free.filter((u) => u.status === 'HELD'),
        'AVAILABLE',
        null,
        at,
      );
      return offers;
    }
    const next = waiting[fits];
    await offer(scope, settings, next, free.slice(0, next.quantity), at);
    await repo.addPassedOver(tx, waiting.slice(0, fits), next.quantity);
    offers++;
  }
}

/**
 * Ends an open entry (`from` its statuses) for `reason` (`left`: LEFT; `expired` or `declined`: EXPIRED), frees the
 * units held or reserved for it and matches its type again. An offer that so ends unpaid is `exchange.expired` (and
 * the fan's e-mail when it expired). The caller holds the event's exchange lock.
 * @returns false when the entry was no longer in one of `from` (nothing changed)
 */
export async function endEntry(
  scope: MatchScope,
  settings: SettingsRow,
  entry: EntryRow,
  from: EntryRow['status'][],
  reason: OfferEndReason,
  at: Date,
): Promise<boolean> {
  const { tx } = scope;
  // Read again under the lock: the entry may have been offered since the caller read it.
  const current = await repo.entry(tx, entry.id);
  if (!current || !from.includes(current.status)) return false;
  if (!(await repo.endEntry(tx, entry.id, from, reason === 'left' ? 'LEFT' : 'EXPIRED', at))) return false;
  await repo.freeUnitsOf(tx, entry.id);
  if (current.status === 'OFFERED') await scope.notices.offerEnded(tx, entry.id, reason, at);
  await matchType(scope, settings, entry.ticketTypeId, at);
  return true;
}
