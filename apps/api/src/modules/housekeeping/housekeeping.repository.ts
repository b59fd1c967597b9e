/** SQL of the housekeeping job: deletes of rows whose use has ended, and the lock that lets one instance run it. */
import { and, inArray, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  authSessions,
  checkInLog,
  loginRequests,
  refreshTokens,
  outboundDeliveries,
  stripeEvents,
} from '../../db/schema.js';

/** Key of the transaction-level advisory lock held by the instance running housekeeping ("tp:hk"). */
const HOUSEKEEPING_LOCK_KEY = 0x74706b;

export const housekeepingRepository = {
  /** Takes the housekeeping lock for the rest of the transaction; false when another instance holds it. */
  async tryLock(tx: DbOrTx): Promise<boolean> {
    const result = await tx.execute<{ locked: boolean }>(
      sql`select pg_try_advisory_xact_lock(${HOUSEKEEPING_LOCK_KEY}) as locked`,
    );
    const rows = (Array.isArray(result) ? result : (result as { rows: { locked: boolean }[] }).rows) as {
      locked: boolean;
    }[];
    return rows[0]?.locked === true;
  },
  /** Deletes sign-in requests that expired before `cutoff`; returns how many. */
  async deleteLoginRequestsExpiredBefore(tx: DbOrTx, cutoff: Date): Promise<number> {
    const rows = await tx
      .delete(loginRequests)
      .where(lt(loginRequests.expiresAt, cutoff))
      .returning({ id: loginRequests.id });
    return rows.length;
  },
  /**
   * Deletes sign-ins that ended (expired or revoked) before `cutoff`, their refresh tokens first.
   * @returns how many sessions and refresh tokens were deleted.
   */
  async deleteSessionsEndedBefore(tx: DbOrTx, cutoff: Date): Promise<{ sessions: number; refreshTokens: number }> {
    const ended = tx
      .select({ id: authSessions.id })
      .from(authSessions)
      .where(or(lt(authSessions.expiresAt, cutoff), lt(authSessions.revokedAt, cutoff)));
    const tokens = await tx
      .delete(refreshTokens)
      .where(inArray(refreshTokens.sessionId, ended))
      .returning({ h: refreshTokens.tokenHash });
    const sessions = await tx
      .delete(authSessions)
      .where(or(lt(authSessions.expiresAt, cutoff), lt(authSessions.revokedAt, cutoff)))
      .returning({ id: authSessions.id });
    return { sessions: sessions.length, refreshTokens: tokens.length };
  },
  /** Deletes processed provider webhook event ids received before `cutoff` (providers stop retrying long before). */
  async deleteStripeEventsBefore(tx: DbOrTx, cutoff: Date): Promise<number> {
    const rows = await tx
      .delete(stripeEvents)
      .where(lt(stripeEvents.receivedAt, cutoff))
      .returning({ id: stripeEvents.id });
    return rows.length;
  },
  /** Deletes finished (DELIVERED or FAILED) webhook deliveries created before the cutoff, with their attempts. */
  async deleteOutboundDeliveriesBefore(tx: DbOrTx, cutoff: Date): Promise<number> {
    const rows = await tx
      .delete(outboundDeliveries)
      .where(and(lt(outboundDeliveries.createdAt, cutoff), inArray(outboundDeliveries.status, ['DELIVERED', 'FAILED'])))
      .returning({ id: outboundDeliveries.id });
    return rows.length;
  },

  /** Deletes check-in log rows (issue 26 point 7) of scans made before `cutoff`; returns how many. */
  async deleteCheckInLogBefore(tx: DbOrTx, cutoff: Date): Promise<number> {
    const rows = await tx.delete(checkInLog).where(lt(checkInLog.scannedAt, cutoff)).returning({ id: checkInLog.id });
    return rows.length;
  },
};
