/**
 * Housekeeping (issue 11): a periodic job that deletes rows whose use has ended, so the tables stay bounded:
 * sign-in requests expired more than the retention ago, sign-ins (sessions) that expired or were revoked more
 * than the retention ago with their refresh tokens, processed webhook event ids older than the retention, and
 * organisation webhook deliveries created before the retention that were delivered or given up (issue 12),
 * and check-in log rows of scans older than CHECKIN_LOG_RETENTION_DAYS (issue 26 point 7).
 *
 * Safe with N instances: each run takes `pg_try_advisory_xact_lock`; an instance that finds it taken skips
 * that run (the deletes are idempotent anyway). Interval and retention come from the config
 * (HOUSEKEEPING_INTERVAL_SECONDS, HOUSEKEEPING_RETENTION_DAYS).
 */
import type { Database } from '../../db/client.js';
import { housekeepingRepository as repo } from './housekeeping.repository.js';
import { intervalJob } from '../../lib/interval-job.js';

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
}

export function createHousekeeping(deps: {
  database: Database;
  /** Seconds between runs; 0 turns the timer off (runOnce still works). */
  intervalSeconds: number;
  /** Days an ended row is kept. */
  retentionDays: number;
  /** Days a check-in log row is kept after its scan (CHECKIN_LOG_RETENTION_DAYS). */
  checkInLogRetentionDays: number;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
}) {
  const { db } = deps.database;

  /**
   * One run: deletes what ended before now − retention, in one transaction under the housekeeping lock.
   * @returns the counts, or null when another instance holds the lock.
   */
  async function runOnce(): Promise<HousekeepingCounts | null> {
    const cutoff = new Date(deps.now().getTime() - deps.retentionDays * 24 * 3600 * 1000);
    return db.transaction(async (tx) => {
      if (!(await repo.tryLock(tx))) return null;
      const loginRequests = await repo.deleteLoginRequestsExpiredBefore(tx, cutoff);
      const { sessions, refreshTokens } = await repo.deleteSessionsEndedBefore(tx, cutoff);
      const stripeEvents = await repo.deleteStripeEventsBefore(tx, cutoff);
      const outboundDeliveries = await repo.deleteOutboundDeliveriesBefore(tx, cutoff);
      const checkInLog = await repo.deleteCheckInLogBefore(
        tx,
        new Date(deps.now().getTime() - deps.checkInLogRetentionDays * 24 * 3600 * 1000),
      );
      return { loginRequests, sessions, refreshTokens, stripeEvents, outboundDeliveries, checkInLog };
    });
  }

  return {
    runOnce,
    ...intervalJob({
      intervalSeconds: deps.intervalSeconds,
      run: () => runOnce().then((counts) => counts && deps.log(`housekeeping: ${JSON.stringify(counts)}`)),
      failure: 'housekeeping failed',
      log: deps.log,
    }),
  };
}
export type Housekeeping = ReturnType<typeof createHousekeeping>;
