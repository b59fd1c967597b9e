/**
 * Housekeeping (issue 11): a periodic job that deletes rows whose use has ended, so the tables stay bounded:
 * sign-in requests expired more than the retention ago, sign-ins (sessions) that expired or were revoked more
 * than the retention ago with their refresh tokens, processed webhook event ids older than the retention, and
 * organisation webhook deliveries created before the retention that were delivered or given up (issue 12),
 * check-in log rows of scans older than CHECKIN_LOG_RETENTION_DAYS (issue 26 point 7), and audit trail entries
 * older than AUDIT_RETENTION_DAYS (issue 25). Each run then sends
 * the reminder e-mails of events starting within REMINDER_HOURS (issue 23, `remindOnce`).
 *
 * Safe with N instances: each run takes `pg_try_advisory_xact_lock`; an instance that finds it taken skips
 * that run (the deletes are idempotent anyway). Interval and retention come from the config
 * (HOUSEKEEPING_INTERVAL_SECONDS, HOUSEKEEPING_RETENTION_DAYS).
 */
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { pickLang } from '../../lib/lang.js';
import { mailBrand, panelLink } from '../../providers/mail/brand.js';
import type { MailQueue, QueuedMail } from '../../providers/mail/mail-queue.js';
import { reminderMail } from '../../providers/mail/templates.js';
import { housekeepingRepository as repo } from './housekeeping.repository.js';
import { intervalJob } from '../../lib/interval-job.js';
import { timeSlicer } from '../../lib/time-slice.js';

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
  /** Hours before an event its holders are reminded (REMINDER_HOURS), the product name and the panel's URL. */
  config: Pick<Config, 'reminderHours' | 'productName' | 'publicUrl'>;
  /** Where the reminder e-mails go (sent after the claiming transaction commits). */
  mailQueue: MailQueue;
  now: () => Date;
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
      return { loginRequests, sessions, refreshTokens, stripeEvents, outboundDeliveries, checkInLog, auditLog };
    });
  }

  /**
   * Sends the reminders due now (issue 23): under the housekeeping lock, claims a `ticket_reminders` row per
   * held, unused, unrevoked ticket whose event starts within REMINDER_HOURS and was not reminded for that start
   * (the row's key makes it once, whatever the instances), then, once committed, queues each holder's e-mail in
   * their language, under the organisation's brand, with a link to the pass (`PANEL_TAB=QR`, `?org=`) and the
   * `.ics`. A reminder whose mail fails after its retries is logged, not sent again.
   * @returns how many reminders were queued, or null when another instance holds the lock.
   */
  async function remindOnce(): Promise<number | null> {
    const at = deps.now();
    const until = new Date(at.getTime() + deps.config.reminderHours * 3600 * 1000);
    let queued = 0;
    for (;;) {
      const rows = await db.transaction(async (tx) => {
        if (!(await repo.tryLock(tx))) return null;
        return repo.reminderDetails(tx, await repo.claimDueReminders(tx, at, until, REMINDER_BATCH));
      });
      if (rows === null) return queued > 0 ? queued : null;
      if (rows.length === 0) return queued;
      const slice = timeSlicer();
      const mails: QueuedMail[] = [];
      for (const r of rows) {
        await slice.tick();
        const lang = pickLang(r.locale);
        const m = await reminderMail(lang, {
          ticket: { event: r.event, ticketName: r.ticketName, calendarId: `ticket-${r.userTicketId}` },
          link: panelLink(deps.config.publicUrl, lang, r.organisation.slug, { PANEL_TAB: 'QR' }),
          brand: mailBrand(r.organisation, deps.config),
          at,
        });
        mails.push({ message: { to: r.email, ...m }, context: { userTicketId: r.userTicketId, reminder: true } });
      }
      deps.mailQueue.push(mails);
      queued += mails.length;
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
export type Housekeeping = ReturnType<typeof createHousekeeping>;
