/**
 * The webhook delivery worker (issue 12): a periodic job, started with the app and stopped at shutdown, that
 * sends due deliveries from the durable queue (`webhook_deliveries`).
 *
 * One tick is bounded: it claims at most `batchSize` due rows (`FOR UPDATE SKIP LOCKED` in a short
 * transaction that also leases them: `nextAttemptAt` = now + timeout + 60 s), sends them outside any
 * transaction (so PGlite's single connection and the pool are free while receivers answer), then records each
 * attempt. Several instances never send the same row at once: a row is claimed by one transaction only, and the
 * lease keeps it out of the others' claims; a crashed instance's rows come back after the lease.
 *
 * A 2xx answer delivers; anything else (3xx — redirects are not followed —, 4xx, 5xx, timeout, refused
 * address) is retried after `backoffSeconds` until `maxAttempts`, then the delivery is FAILED.
 * Signing: Standard Webhooks (`standardwebhooks`), signed at each attempt with that attempt's timestamp.
 */
import { Webhook } from 'standardwebhooks';
import type { Database } from '../../db/client.js';
import { backoffSeconds } from './webhook-backoff.js';
import { type SendResult, sendWebhook } from './webhook-sender.js';
import { webhooksRepository as repo } from './webhooks.repository.js';
import { intervalJob } from '../../lib/interval-job.js';

export interface WebhookWorkerDeps {
  database: Database;
  now: () => Date;
  /** Seconds between ticks; 0 turns the timer off (runOnce still works). */
  intervalSeconds: number;
  batchSize: number;
  timeoutSeconds: number;
  maxAttempts: number;
  allowLocalUrls: boolean;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
  log: (msg: string, err?: unknown) => void;
}

/** The Standard Webhooks headers of one attempt. */
export function signedHeaders(secret: string, messageId: string, at: Date, payload: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, payload),
  };
}

export function createWebhookWorker(deps: WebhookWorkerDeps) {
  const { db } = deps.database;
  const random = deps.random ?? Math.random;

  /** One tick. @returns how many deliveries it attempted. */
  async function runOnce(): Promise<number> {
    const now = deps.now();
    const lease = new Date(now.getTime() + (deps.timeoutSeconds + 60) * 1000);
    const claimed = await db.transaction((tx) => repo.claimDue(tx, now, lease, deps.batchSize));
    await Promise.all(
      claimed.map(async (d) => {
        const at = deps.now();
        const result: SendResult = await sendWebhook({
          url: d.url,
          headers: signedHeaders(d.secret, d.messageId, at, d.payload),
          body: d.payload,
          timeoutMs: deps.timeoutSeconds * 1000,
          allowLocal: deps.allowLocalUrls,
        });
        const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
        const attempts = d.attempts + 1;
        const status = ok ? 'DELIVERED' : attempts >= deps.maxAttempts ? 'FAILED' : 'PENDING';
        const nextAttemptAt =
          status === 'PENDING' ? new Date(deps.now().getTime() + backoffSeconds(attempts, random()) * 1000) : at;
        await repo.recordAttempt(db, {
          deliveryId: d.id,
          at,
          statusCode: result.statusCode,
          error: ok ? null : (result.error ?? `status ${result.statusCode}`),
          responsePrefix: result.responsePrefix,
          durationMs: result.durationMs,
          status,
          nextAttemptAt,
        });
      }),
    );
    return claimed.length;
  }

  return {
    runOnce,
    ...intervalJob({
      intervalSeconds: deps.intervalSeconds,
      run: runOnce,
      failure: 'webhook worker tick failed',
      log: deps.log,
    }),
  };
}
export type WebhookWorker = ReturnType<typeof createWebhookWorker>;
