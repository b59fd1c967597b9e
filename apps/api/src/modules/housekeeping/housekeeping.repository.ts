/**
 * SQL of the housekeeping job: deletes of rows whose use has ended, the reminders it claims before events, and
 * the lock that lets one instance run it.
 */
import { and, eq, gt, inArray, isNotNull, isNull, lte, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  auditLog,
  authSessions,
  jobs,
  checkInLog,
  events,
  ticketReminders,
  ticketTypes,
  userTickets,
  users,
  loginRequests,
  refreshTokens,
  stepUpRequests,
  outboundDeliveries,
  stripeEvents,
  webauthnChallenges,
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
   * Deletes sign-ins that ended (expired or revoked) before `cutoff`, their refresh tokens and step-up codes first.
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
    await tx.delete(stepUpRequests).where(inArray(stepUpRequests.sessionId, ended));
    const sessions = await tx
      .delete(authSessions)
      .where(or(lt(authSessions.expiresAt, cutoff), lt(authSessions.revokedAt, cutoff)))
      .returning({ id: authSessions.id });
    return { sessions: sessions.length, refreshTokens: tokens.length };
  },
  /** Deletes passkey challenges that expired before `cutoff`, used or not; returns how many. */
  async deleteWebauthnChallengesExpiredBefore(tx: DbOrTx, cutoff: Date): Promise<number> {
    const rows = await tx
      .delete(webauthnChallenges)
      .where(lt(webauthnChallenges.expiresAt, cutoff))
      .returning({ challenge: webauthnChallenges.challenge });
    return rows.length;
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

  /** Deletes audit trail entries (issue 25) recorded before `cutoff`; returns how many. */
  async deleteAuditLogBefore(tx: DbOrTx, cutoff: Date): Promise<number> {
    const rows = await tx.delete(auditLog).where(lt(auditLog.at, cutoff)).returning({ id: auditLog.id });
    return rows.length;
  },
  /**
   * Deletes jobs that failed for good (decision 030) before `cutoff`: the operator had the retention to retry them
   * (`POST /v1/admin/jobs/{id}/retry`), and a failed mail's payload may hold what the mail was to carry (a resale
   * code). Pending jobs are never deleted. Returns how many.
   */
  async deleteFailedJobsBefore(tx: DbOrTx, cutoff: Date): Promise<number> {
    const rows = await tx.delete(jobs).where(lt(jobs.failedAt, cutoff)).returning({ id: jobs.id });
    return rows.length;
  },
  /** Deletes check-in log rows (issue 26 point 7) of scans made before `cutoff`; returns how many. */
  async deleteCheckInLogBefore(tx: DbOrTx, cutoff: Date): Promise<number> {
    const rows = await tx.delete(checkInLog).where(lt(checkInLog.scannedAt, cutoff)).returning({ id: checkInLog.id });
    return rows.length;
  },

  /**
   * Claims the reminders due now: one `ticket_reminders` row per held ticket (a holder who has not turned reminders
   * off and whose address has not bounced, access not used, not revoked) whose event starts after `now` and at most at `until`, unless that ticket was reminded for that
   * start already (the key). At most `limit` per call. Run in the housekeeping transaction.
   * @returns the claimed tickets' ids
   */
  async claimDueReminders(tx: DbOrTx, now: Date, until: Date, limit: number): Promise<number[]> {
    const due = tx
      .select({
        userTicketId: userTickets.id,
        eventStartsAt: events.startsAt,
        sentAt: sql`${now.toISOString()}::timestamptz`.as('sent_at'),
      })
      .from(userTickets)
      .innerJoin(users, eq(users.id, userTickets.holderId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(
        and(
          isNotNull(userTickets.holderId),
          // The holder turned reminders off (issue 41 point 9): nothing is claimed, so turning them back on
          // before the event still brings its reminder.
          isNull(users.remindersOffAt),
          // Nor for an address that bounced (mail-jobs.ts `BULK_TEMPLATES`): not claimed either, so a later
          // delivery (a re-sent ticket, a sign-in code) that clears the bounce before the event still brings it.
          sql`${users.emailStatus} is distinct from 'bounced'`,
          isNull(userTickets.eventAccessUsedAt),
          isNull(userTickets.revokedAt),
          gt(events.startsAt, now),
          lte(events.startsAt, until),
          sql`not exists (select 1 from ${ticketReminders} r where r.user_ticket_id = ${userTickets.id} and r.event_starts_at = ${events.startsAt})`,
        ),
      )
      .orderBy(userTickets.id)
      .limit(limit);
    const rows = await tx
      .insert(ticketReminders)
      .select(due)
      .onConflictDoNothing()
      .returning({ userTicketId: ticketReminders.userTicketId });
    return rows.map((r) => r.userTicketId);
  },
};
