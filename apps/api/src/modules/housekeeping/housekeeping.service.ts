/**
 * Housekeeping (issue 11): a periodic job that deletes rows whose use has ended, so the tables stay bounded:
 * sign-in requests expired more than the retention ago, sign-ins (sessions) that expired or were revoked more
 * than the retention ago with their refresh tokens, processed webhook event ids older than the retention, and
 * organisation webhook deliveries created before the retention that were delivered or given up (issue 12),
 * check-in log rows of scans older than CHECKIN_LOG_RETENTION_DAYS (issue 26 point 7), and audit trail entries
 * older than AUDIT_RETENTION_DAYS (issue 25), and jobs that failed for good more than the retention ago (decision
 * 030). Each run then sends
 * the reminder e-mails of events starting within REMINDER_HOURS (issue 23, `remindOnce`).
 *
 * Safe with N instances: each run takes `pg_try_advisory_xact_lock`; an instance that finds it taken skips
 * that run (the deletes are idempotent anyway). Interval and retention come from the config
 * (HOUSEKEEPING_INTERVAL_SECONDS, HOUSEKEEPING_RETENTION_DAYS).
 */
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { holderMail, walletLinks } from '../../providers/mail/brand.js';
import { ticketHoldersRepository } from '../../providers/mail/ticket-holders.repository.js';
import { enqueueMails } from '../../providers/mail/mail-jobs.js';
import { housekeepingRepository as repo } from './housekeeping.repository.js';
import { analyzeTables } from '../../db/statistics.js';
import { intervalJob } from '../../lib/interval-job.js';

/** Reminders claimed per transaction; a run claims batches until none is left. */
const REMINDER_BATCH = 500;

/** What one run deleted. */
export interface HousekeepingCounts {
  loginRequests: number;
  sessions: number;
  refreshTokens: number;
  stripeEvents: number;
  /** Finished organisation webhook deliveries (delivered or given up), with their attempts. */
  outboundDeliveries: number;
  /** Check-in log rows older than CHECKIN_LOG_RETENTION_DAYS (issue 26 point 7). */
  checkInLog: number;
  /** Audit trail entries older than AUDIT_RETENTION_DAYS (issue 25). */
  auditLog: number;
  /** Jobs that failed for good more than the retention ago (decision 030). */
  failedJobs: number;
  /** Passkey challenges past their two minutes (decision 049): nothing to keep them for. */
  passkeyChallenges: number;
}

export function createHousekeeping(deps: {
  database: Database;
  /** Seconds between runs; 0 turns the timer off (runOnce still works). */
  intervalSeconds: number;
  /** Days an ended row is kept. */
  retentionDays: number;
  /** Days a check-in log row is kept after its scan (CHECKIN_LOG_RETENTION_DAYS). */
  checkInLogRetentionDays: number;
  /** Days an audit trail entry is kept (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
  /** Hours before an event its holders are reminded (REMINDER_HOURS) and the panel's URL. */
  config: Pick<Config, 'reminderHours' | 'publicUrl' | 'wallet'>;
  now: () => Date;
  /**
   * The unsubscribe link of a holder's reminders (issue 41 point 9: `List-Unsubscribe` and the mail's small print),
   * its page in `lang` under the organisation `org`'s brand.
   */
  unsubscribeUrl: (userId: number, opts: { lang: string; org: string | null }) => string;
  log: (msg: string, err?: unknown) => void;
}) {
  const { db } = deps.database;

  /**
   * One run: deletes what ended before now − retention, in one transaction under the housekeeping lock.
   * @returns the counts, or null when another instance holds the lock.
   */
  async function runOnce(): Promise<HousekeepingCounts | null> {
    const daysAgo = (days: number) => new Date(deps.now().getTime() - days * 24 * 3600 * 1000);
    const cutoff = daysAgo(deps.retentionDays);
    return db.transaction(async (tx) => {
      if (!(await repo.tryLock(tx))) return null;
      const loginRequests = await repo.deleteLoginRequestsExpiredBefore(tx, cutoff);
      const { sessions, refreshTokens } = await repo.deleteSessionsEndedBefore(tx, cutoff);
      const stripeEvents = await repo.deleteStripeEventsBefore(tx, cutoff);
      const outboundDeliveries = await repo.deleteOutboundDeliveriesBefore(tx, cutoff);
      const checkInLog = await repo.deleteCheckInLogBefore(tx, daysAgo(deps.checkInLogRetentionDays));
      const auditLog = await repo.deleteAuditLogBefore(tx, daysAgo(deps.auditRetentionDays));
      const failedJobs = await repo.deleteFailedJobsBefore(tx, cutoff);
      const passkeyChallenges = await repo.deleteWebauthnChallengesExpiredBefore(tx, deps.now());
      // PGlite has no autovacuum: its planner's statistics are refreshed here or never (decision 051).
      if (deps.database.kind === 'pglite') await analyzeTables(tx, { everything: true });
      return {
        loginRequests,
        sessions,
        refreshTokens,
        stripeEvents,
        outboundDeliveries,
        checkInLog,
        auditLog,
        failedJobs,
        passkeyChallenges,
      };
    });
  }

  /**
   * Enqueues the reminders due now (issue 23): under the housekeeping lock, claims a `ticket_reminders` row per
   * held, unused, unrevoked ticket whose holder has not turned reminders off (issue 41 point 9) and whose event
   * starts within REMINDER_HOURS and was not reminded for that start
   * (the row's key makes it once, whatever the instances) and, in the same transaction, enqueues each holder's
   * reminder as a mail job (decision 030): in their language, under the organisation's brand, with a link to the
   * pass (`PANEL_TAB=QR`, `?org=`), the `.ics` and the holder's unsubscribe link. The claim and the job commit together, so a process lost after
   * the claim no longer loses the reminder; the job is retried with backoff, and kept as failed when it runs out.
   * @returns how many reminders were queued, or null when another instance holds the lock.
   */
  async function remindOnce(): Promise<number | null> {
    const at = deps.now();
    const until = new Date(at.getTime() + deps.config.reminderHours * 3600 * 1000);
    let queued = 0;
    for (;;) {
      const count = await db.transaction(async (tx) => {
        if (!(await repo.tryLock(tx))) return null;
        const claimed = await repo.claimDueReminders(tx, at, until, REMINDER_BATCH);
        const rows = await ticketHoldersRepository.ofTickets(tx, claimed);
        await enqueueMails(
          tx,
          at,
          rows.map((r) => {
            const { ticket, link, ...mail } = holderMail(r, deps.config.publicUrl, 'QR');
            const { locale: lang } = mail;
            const wallet = walletLinks(deps.config, lang, r.organisation.slug, r.userTicketId);
            const unsubscribeUrl = deps.unsubscribeUrl(r.holderId, { lang, org: r.organisation.slug });
            return {
              template: 'reminder' as const,
              ...mail,
              params: { ticket: { ...ticket, wallet }, link, at, unsubscribeUrl },
            };
          }),
        );
        return rows.length;
      });
      if (count === null) return queued > 0 ? queued : null;
      if (count === 0) return queued;
      queued += count;
    }
  }

  return {
    runOnce,
    remindOnce,
    ...intervalJob({
      intervalSeconds: deps.intervalSeconds,
      run: async () => {
        const counts = await runOnce();
        if (counts) deps.log(`housekeeping: ${JSON.stringify(counts)}`);
        const reminders = await remindOnce();
        if (reminders) deps.log(`housekeeping: ${reminders} reminders queued`);
      },
      failure: 'housekeeping failed',
      log: deps.log,
    }),
  };
}
