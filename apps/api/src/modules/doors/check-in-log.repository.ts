/**
 * SQL of the check-in log (issue 26 point 7): one row per scan the server hears of, online or synced from
 * an offline door, with the door key (null: the platform SCANNER_KEY), the device, the scan time, the
 * verdict and whether it was offline. Read per ticket (a ticket's history) or per event.
 */
import { and, arrayContains, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { checkInLog, doorKeys as doorKeyRows } from '../../db/schema.js';
import type { doorKeys } from '@tp/contract';

/** One scan as logged. Times are UTC. */
export interface CheckInLogEntry {
  eventId: number;
  /** null: the platform SCANNER_KEY. */
  doorKeyId: number | null;
  deviceId: string | null;
  holderId: number | null;
  scannedAt: Date;
  verdict: doorKeys.CheckInLogVerdict;
  offline: boolean;
  userTicketIds: number[];
}

const columns = {
  id: checkInLog.id,
  eventId: checkInLog.eventId,
  doorKeyId: checkInLog.doorKeyId,
  deviceId: checkInLog.deviceId,
  holderId: checkInLog.holderId,
  scannedAt: checkInLog.scannedAt,
  recordedAt: checkInLog.recordedAt,
  verdict: checkInLog.verdict,
  offline: checkInLog.offline,
  userTicketIds: checkInLog.userTicketIds,
};

export const checkInLogRepository = {
  /** Records one scan. */
  async record(db: DbOrTx, entry: CheckInLogEntry): Promise<void> {
    await db.insert(checkInLog).values(entry);
  },

  /**
   * The log of one ticket (every scan that concerned it: admitted, refused, found used or listed), oldest
   * scan first: what a ticket's history shows ("who let this person in").
   */
  async ofTicket(db: DbOrTx, userTicketId: number) {
    return db
      .select(columns)
      .from(checkInLog)
      .where(arrayContains(checkInLog.userTicketIds, [userTicketId]))
      .orderBy(asc(checkInLog.scannedAt), asc(checkInLog.id));
  },

  /**
   * The admitting scans of the ticket (verdict `admitted`), oldest first, with the door key's name (null: the
   * platform key): the check-ins of a ticket's history in the organiser API (GET /org/tickets/{externalId}).
   */
  async admissionsOf(db: DbOrTx, userTicketId: number) {
    return db
      .select({
        at: checkInLog.scannedAt,
        offline: checkInLog.offline,
        doorKeyId: checkInLog.doorKeyId,
        doorKey: doorKeyRows.name,
      })
      .from(checkInLog)
      .leftJoin(doorKeyRows, eq(doorKeyRows.id, checkInLog.doorKeyId))
      .where(
        and(
          sql`${checkInLog.userTicketIds} @> array[${userTicketId}]::integer[]`,
          eq(checkInLog.verdict, 'admitted'),
          isNotNull(checkInLog.scannedAt),
        ),
      )
      .orderBy(asc(checkInLog.scannedAt));
  },

  /** The newest `limit` scans at an event, newest first. */
  async ofEvent(db: DbOrTx, eventId: number, limit = 100) {
    return db
      .select(columns)
      .from(checkInLog)
      .where(eq(checkInLog.eventId, eventId))
      .orderBy(desc(checkInLog.scannedAt), desc(checkInLog.id))
      .limit(limit);
  },
};
