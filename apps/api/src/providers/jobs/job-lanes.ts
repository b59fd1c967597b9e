/**
 * The durable job queue's lanes (issue 39, decision 030 amendment): each kind of job belongs to one lane, and each
 * lane has a worker of its own (its own claims, its own slots), so a job stuck on one outside service never holds
 * work of another: an APNs that never answers holds Apple pushes only, a stalled SMTP relay holds one of the mail
 * lane's slots only. This file is the one place that says which kind runs in which lane and how many of a lane's
 * jobs run at once.
 */
import { MAIL_JOB } from '../mail/mail-jobs.js';
import type { JobHandler } from './job-queue.js';
import type { TicketMovedJobKind } from './ticket-moved-jobs.js';

/** The lanes: e-mails, Apple pass pushes, Google object updates, and every other kind. */
export const JOB_LANES = ['mail', 'wallet_apple', 'wallet_google', 'other'] as const;
export type JobLane = (typeof JOB_LANES)[number];

/** The lane of each known kind; a kind not named here runs in `other`. */
const LANE_OF_KIND: Record<string, JobLane> = {
  [MAIL_JOB]: 'mail',
  ['wallet.apple_update' satisfies TicketMovedJobKind]: 'wallet_apple',
  ['wallet.google_update' satisfies TicketMovedJobKind]: 'wallet_google',
};

/** The lane a job kind runs in. */
export function laneOfKind(kind: string): JobLane {
  return LANE_OF_KIND[kind] ?? 'other';
}

/**
 * Jobs a lane runs at once on one instance, from the config (JOB_MAIL_CONCURRENCY, JOB_WALLET_CONCURRENCY; `other`
 * runs one at a time), never more than half the `pg` pool (DATABASE_POOL_MAX): a job holds a connection only for its
 * own statements (a send or a push holds none) and a lane's claim is one statement, so requests keep the other half.
 * The mail lane may take up to the pool less two (issue 44): a send holds a connection for a few milliseconds
 * before and after the relay's 100–300 ms (claim, delivery status, delete), never while it talks SMTP, so eight
 * sends use a fraction of one connection, and the lane's throughput is its slots ÷ the relay's time a message.
 * PGlite runs one statement at a time on its thread whatever the lanes do; its jobs' statements queue there.
 */
export function laneConcurrency(
  lane: JobLane,
  config: { jobMailConcurrency: number; jobWalletConcurrency: number; databasePoolMax: number },
): number {
  const wanted =
    lane === 'mail'
      ? config.jobMailConcurrency
      : lane === 'wallet_apple' || lane === 'wallet_google'
        ? config.jobWalletConcurrency
        : 1;
  const cap = lane === 'mail' ? config.databasePoolMax - 2 : Math.floor(config.databasePoolMax / 2);
  return Math.max(1, Math.min(wanted, cap));
}

/** Seconds a destination counts as slow after a job to it took JOB_SLOW_DESTINATION_SECONDS or more. */
export const SLOW_DESTINATION_HOLD_SECONDS = 600;

/**
 * A lane's fairness between destinations (`JobWorkerOptions.destinations`; issue 39 item 2): the mail lane shares
 * its slots between recipient domains (one domain at most all slots but one; slow domains one slot together); the
 * other lanes' jobs carry no destination.
 */
export function laneDestinations(
  lane: JobLane,
  config: { jobSlowDestinationSeconds: number },
): false | { slowMs: number; slowHoldSeconds: number } {
  return lane === 'mail'
    ? { slowMs: config.jobSlowDestinationSeconds * 1000, slowHoldSeconds: SLOW_DESTINATION_HOLD_SECONDS }
    : false;
}

/** `handlers` split by lane (lanes without a handler left out), for one worker per lane. */
export function handlersByLane(handlers: Record<string, JobHandler>): Map<JobLane, Record<string, JobHandler>> {
  const lanes = new Map<JobLane, Record<string, JobHandler>>();
  for (const [kind, handler] of Object.entries(handlers)) {
    const lane = laneOfKind(kind);
    lanes.set(lane, { ...lanes.get(lane), [kind]: handler });
  }
  return lanes;
}
