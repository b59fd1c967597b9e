/**
 * When an event's exchange queue is open, and its lock (decision 042): the rules the organiser's side, the fans' and
 * the holders' share.
 */
import type { Database, DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { exchangeRepository as repo, type EventRow, type SettingsRow } from './exchange.repository.js';

/** When the queue closes: `closesAt` as set, else the event's transfer cut-off, else its start. */
export const closesAtOf = (settings: SettingsRow, event: EventRow): Date =>
  settings.closesAt ?? event.transfersCloseAt ?? event.startsAt;

/** Whether the queue takes entries and returns at `at`: turned on, not closed, before its `closesAt`. */
export const isOpen = (settings: SettingsRow | undefined, event: EventRow, at: Date): settings is SettingsRow =>
  settings !== undefined && settings.enabled && settings.closedAt === null && at < closesAtOf(settings, event);

/**
 * Test-only switch (decision 042 "Correct under a crowd"): the race test's control sets `enabled` false, so that the
 * same race run without the event's lock shows the test catches what the lock prevents. Nothing else sets it.
 */
export const exchangeLock = { enabled: true };

/**
 * Runs `change` in a transaction that holds the event's exchange lock (its `exchange_settings` row `FOR UPDATE`):
 * every change of the event's entries and units runs under it, so they change one transaction at a time.
 * @throws AppError `api.exchange.not_found` (404) when the event's queue was never set
 */
export async function underEventLock<T>(
  db: Database['db'],
  eventId: number,
  change: (tx: DbOrTx, settings: SettingsRow) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const settings = exchangeLock.enabled ? await repo.lockSettings(tx, eventId) : await repo.settings(tx, eventId);
    if (!settings) throw new AppError('api.exchange.not_found');
    return change(tx, settings);
  });
}
