/**
 * The app's background work and its lifecycle: the webhook delivery worker and housekeeping start when the app is
 * ready (after Redis, when configured, answers) and stop, with the providers, when it closes.
 */
import type { Redis } from 'ioredis';
import type { AppDeps } from '../app.js';
import type { App } from '../lib/http.js';
import { redisReady } from '../lib/rate-limit.js';
import { createHousekeeping } from '../modules/housekeeping/housekeeping.service.js';
import { createOutboundDeliveryWorker } from '../modules/outbound-webhooks/delivery-worker.js';
import { jobLogFieldsOf } from '../providers/jobs/job-log.js';
import { startJobWorker, type JobWorker } from '../providers/jobs/job-queue.js';
import { holdInstanceLock } from '../db/instance-lock.js';
import { handlersByLane, laneConcurrency, laneDestinations } from '../providers/jobs/job-lanes.js';
import type { Services } from './services.js';

/**
 * Builds the background jobs and hooks their start and stop (and the providers' close) to the app.
 * @returns the jobs (tests run them by hand)
 */
export function registerBackgroundJobs(
  app: App,
  deps: Pick<AppDeps, 'config' | 'database'> & { now: () => Date; redis: Redis | null },
  services: Services,
) {
  const { config, database, now, redis } = deps;
  const { avatars, mail, jobHandlers, logoJob, apns, fakeApns, wallet } = services;
  const outboundDeliveryWorker = createOutboundDeliveryWorker({
    database,
    now,
    intervalSeconds: config.webhookWorkerIntervalSeconds,
    batchSize: config.webhookBatchSize,
    timeoutSeconds: config.webhookTimeoutSeconds,
    maxAttempts: config.webhookMaxAttempts,
    allowLocalUrls: config.webhookAllowLocalUrls,
    perOrganisation: config.webhookInFlightPerOrganisation,
    log: (msg, err) => app.log.error({ err }, msg),
  });
  const housekeeping = createHousekeeping({
    database,
    intervalSeconds: config.housekeepingIntervalSeconds,
    retentionDays: config.housekeepingRetentionDays,
    checkInLogRetentionDays: config.checkInLogRetentionDays,
    auditRetentionDays: config.auditRetentionDays,
    config,
    now,
    unsubscribeUrl: (userId, opts) => services.reminders.unsubscribeUrl(userId, opts),
    log: (msg, err) => (err ? app.log.error({ err }, msg) : app.log.info(msg)),
  });
  // The durable job queue's workers (decision 030), one per lane (job-lanes.ts) so a stuck outside service holds
  // only its own lane: started when the app is ready, drained when it closes.
  let jobWorkers: JobWorker[] = [];
  const jobs = {
    /**
     * Claims and runs every due job of every lane now (tests; the workers do it on their own otherwise); nothing
     * before the app is ready or after it closed. @returns jobs run
     */
    runDue: async (): Promise<number> =>
      (await Promise.all(jobWorkers.map((w) => w.runOnce()))).reduce((a, b) => a + b, 0),
  };
  // A running instance holds the instance lock (db/instance-lock.ts), so `db:import` never runs under it.
  let instanceLock: ReturnType<typeof holdInstanceLock> | null = null;
  app.addHook('onReady', async () => {
    if (database.kind === 'pg' && config.databaseUrl)
      instanceLock = holdInstanceLock(config.databaseUrl, (msg, err) => app.log.warn({ err }, msg));
    if (redis) await redisReady(redis, 2000);
    housekeeping.start();
    outboundDeliveryWorker.start();
    jobWorkers = [...handlersByLane(jobHandlers)].map(([lane, handlers]) =>
      startJobWorker({
        db: database.db,
        handlers,
        // A failure that will be retried is a warning; one kept as failed (or a claim that failed) an error.
        // Beside the job's kind and lane: what its handler attached (a mail's template and recipient user id; job-log.ts).
        log: (msg, err, fields) => {
          const line = { err, lane, ...fields, ...jobLogFieldsOf(err) };
          if (fields?.willRetry) app.log.warn(line, msg);
          else app.log.error(line, msg);
        },
        pollMs: config.jobPollMs,
        leaseSeconds: config.jobLeaseSeconds,
        attempts: config.jobMaxAttempts,
        concurrency: laneConcurrency(lane, config),
        destinations: laneDestinations(lane, config),
        now,
      }),
    );
  });
  app.addHook('onClose', async () => {
    await housekeeping.stop();
    await outboundDeliveryWorker.stop();
    const stopping = jobWorkers;
    jobWorkers = [];
    await Promise.all(stopping.map((w) => w.stop()));
    redis?.disconnect();
    await avatars.close();
    await logoJob.close();
    await wallet.close();
    mail.close();
    await apns?.close();
    await fakeApns?.close();
    await instanceLock?.release();
  });
  return { outboundDeliveryWorker, housekeeping, jobs };
}
