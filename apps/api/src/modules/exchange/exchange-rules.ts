/** When an event's exchange queue is open (decision 042): the rules the organiser's and the fans' sides share. */
import type { EventRow, SettingsRow } from './exchange.repository.js';

/** When the queue closes: `closesAt` as set, else the event's transfer cut-off, else its start. */
export const closesAtOf = (settings: SettingsRow, event: EventRow): Date =>
  settings.closesAt ?? event.transfersCloseAt ?? event.startsAt;

/** Whether the queue takes entries and returns at `at`: turned on, not closed, before its `closesAt`. */
export const isOpen = (settings: SettingsRow | undefined, event: EventRow, at: Date): settings is SettingsRow =>
  settings !== undefined && settings.enabled && settings.closedAt === null && at < closesAtOf(settings, event);
