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
  const { avatars, mail, jobHandlers, apns, fakeApns } = services;
  const outboundDeliveryWorker = createOutboundDeliveryWorker({
    database,
    now,
    intervalSeconds: config.webhookWorkerIntervalSeconds,
    batchSize: config.webhookBatchSize,
    timeoutSeconds: config.webhookTimeoutSeconds,
    maxAttempts: config.webhookMaxAttempts,
    allowLocalUrls: config.webhookAllowLocalUrls,
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
    log: (msg, err) => (err ? app.log.error({ err }, msg) : app.log.info(msg)),
  });
  // The durable job queue's worker (decision 030): started when the app is ready, drained when it closes.
  let jobWorker: JobWorker | null = null;
  const jobs = {
    /**
     * Claims and runs every due job now (tests; the worker does it on its own otherwise); nothing before the app is
     * ready or after it closed. @returns jobs run
     */
    runDue: async (): Promise<number> => (jobWorker ? jobWorker.runOnce() : 0),
  };
  app.addHook('onReady', async () => {
    if (redis) await redisReady(redis, 2000);
    housekeeping.start();
    outboundDeliveryWorker.start();
    jobWorker = startJobWorker({
      db: database.db,
      handlers: jobHandlers,
      // A failure that will be retried is a warning; one kept as failed (or a claim that failed) an error.
      // Beside the job's kind: what its handler attached (a mail's template and recipient user id; job-log.ts).
      log: (msg, err, fields) => {
        const line = { err, ...fields, ...jobLogFieldsOf(err) };
        if (fields?.willRetry) app.log.warn(line, msg);
        else app.log.error(line, msg);
      },
      pollMs: config.jobPollMs,
      leaseSeconds: config.jobLeaseSeconds,
      attempts: config.jobMaxAttempts,
      now,
    });
  });
  app.addHook('onClose', async () => {
    await housekeeping.stop();
    await outboundDeliveryWorker.stop();
    await jobWorker?.stop();
    jobWorker = null;
    redis?.disconnect();
    await avatars.close();
    mail.close();
    await apns?.close();
    await fakeApns?.close();
  });
  return { outboundDeliveryWorker, housekeeping, jobs };
}
