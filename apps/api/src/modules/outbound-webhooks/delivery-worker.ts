/**
 * The webhook delivery worker (issue 12; fair across endpoints since issue 19): a periodic job, started with the
 * app and stopped at shutdown, that sends due deliveries from the durable queue (`webhook_deliveries`).
 *
 * A claim is bounded: it takes at most `batchSize` due rows, at most `perEndpoint` of any one endpoint and none of
 * an endpoint this instance still has in flight (`FOR UPDATE SKIP LOCKED` in a short transaction that also leases
 * them: `nextAttemptAt` = now + timeout + 60 s). The claimed rows are sent outside any transaction (so PGlite's
 * single connection and the pool are free while receivers answer) and each attempt is recorded when it ends.
 * A timer tick does not wait for its sends: it claims and returns, and every finished send claims again, so a
 * slow, timing-out or failing endpoint only holds back its own deliveries (at most `perEndpoint` in flight),
 * never another endpoint's (issue 19: another organisation's due delivery leaves within a tick, ≤ 5 s).
 * In flight per instance: at most `maxInFlight` sends, and at most `perOrganisation` of one organisation's, all its
 * endpoints together (issue 39: with 100 slow endpoints, one organisation used to hold every place, and another
 * organisation's delivery waited 86 s behind them).
 *
 * Several instances never send the same row at once: a row is claimed by one transaction only, and the lease
 * keeps it out of the others' claims; a crashed instance's rows come back after the lease. `stop()` clears the
 * timer and waits for every send in flight and its record (drain).
 *
 * A 2xx answer delivers; anything else (3xx — redirects are not followed —, 4xx, 5xx, timeout, refused
 * address) is retried after `backoffSeconds` until `maxAttempts`, then the delivery is FAILED.
 * Signing: Standard Webhooks (`standardwebhooks`), signed at each attempt with that attempt's timestamp.
 */
import { Webhook } from 'standardwebhooks';
import type { Database } from '../../db/client.js';
import { backoffSeconds } from './delivery-backoff.js';
import { type SendResult, sendOutboundDelivery } from './delivery-sender.js';
import { outboundWebhooksRepository as repo } from './outbound-webhooks.repository.js';
import { intervalJob } from '../../lib/interval-job.js';

export interface OutboundDeliveryWorkerDeps {
  database: Database;
  now: () => Date;
  /** Seconds between ticks; 0 turns the timer off (runOnce still works). */
  intervalSeconds: number;
  /** Most rows one claim takes. */
  batchSize: number;
  /** Seconds one attempt may take (connect, send, answer). */
  timeoutSeconds: number;
  maxAttempts: number;
  allowLocalUrls: boolean;
  /** Most deliveries of one endpoint in flight in this instance (default 2). */
  perEndpoint?: number;
  /** Most deliveries in flight in this instance, all endpoints (default 5 × batchSize). */
  maxInFlight?: number;
  /**
   * Most deliveries of one organisation in flight in this instance, all its endpoints together
   * (WEBHOOK_IN_FLIGHT_PER_ORGANISATION; default 10).
   */
  perOrganisation?: number;
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

/** Adds `by` to `map`'s count of `key`, deleting the entry when it reaches 0. */
function count(map: Map<number, number>, key: number, by: number): void {
  const n = (map.get(key) ?? 0) + by;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}

/**
 * The worker over one database. `runOnce()` claims once, sends and records what it claimed and waits for every
 * send in flight (tests, one-shot runs); `start()`/`stop()` run it on the timer without waiting for sends.
 */
export function createOutboundDeliveryWorker(deps: OutboundDeliveryWorkerDeps) {
  const { db } = deps.database;
  const random = deps.random ?? Math.random;
  const perEndpoint = Math.max(1, deps.perEndpoint ?? 2);
  const maxInFlight = Math.max(1, deps.maxInFlight ?? deps.batchSize * 5);
  const perOrganisation = Math.max(1, deps.perOrganisation ?? 10);
  /** Sends in flight per endpoint id. */
  const busy = new Map<number, number>();
  /** Sends in flight per organisation id. */
  const organisationsBusy = new Map<number, number>();
  const inFlight = new Set<Promise<void>>();
  let live = false;
  let claiming: Promise<number> | null = null;
  let again = false;

  type Claimed = Awaited<ReturnType<typeof repo.claimDue>>[number];

  /** Sends one claimed delivery and records the attempt. Never rejects (a failed record is logged). */
  async function deliver(d: Claimed): Promise<void> {
    const at = deps.now();
    const result: SendResult = await sendOutboundDelivery({
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
  }

  /** Starts one claimed delivery in the background, counted in flight for its endpoint until recorded. */
  function launch(d: Claimed) {
    count(busy, d.endpointId, 1);
    count(organisationsBusy, d.organisationId, 1);
    const p: Promise<void> = deliver(d)
      .catch((err: unknown) => deps.log('webhook delivery record failed', err))
      .finally(() => {
        count(busy, d.endpointId, -1);
        count(organisationsBusy, d.organisationId, -1);
        inFlight.delete(p);
        // A finished send frees room: claim again at once (on the timer only; runOnce stays one claim).
        if (live) claim().catch((err: unknown) => deps.log('webhook worker claim failed', err));
      });
    inFlight.add(p);
  }

  /**
   * Claims what is due for endpoints with nothing in flight here and launches it, without waiting for the sends.
   * Claims never overlap in one instance (a claim asked for during one runs again right after it).
   * @returns how many deliveries were claimed.
   */
  function claim(): Promise<number> {
    if (claiming) {
      again = true;
      return claiming;
    }
    claiming = (async () => {
      let total = 0;
      do {
        again = false;
        const room = Math.min(deps.batchSize, maxInFlight - inFlight.size);
        if (room <= 0) break;
        const now = deps.now();
        const lease = new Date(now.getTime() + (deps.timeoutSeconds + 60) * 1000);
        const claimed = await db.transaction((tx) =>
          repo.claimDue(tx, now, lease, room, perEndpoint, [...busy.keys()], perOrganisation, organisationsBusy),
        );
        claimed.forEach(launch);
        total += claimed.length;
      } while (again && live);
      return total;
    })().finally(() => (claiming = null));
    return claiming;
  }

  /** Waits until nothing is in flight (sends and their records). */
  async function settle(): Promise<void> {
    while (inFlight.size || claiming) {
      await claiming?.catch(() => undefined);
      await Promise.all([...inFlight]);
    }
  }

  /** One claim, then waits for every send in flight. @returns how many deliveries it claimed. */
  async function runOnce(): Promise<number> {
    const n = await claim();
    await settle();
    return n;
  }

  const job = intervalJob({
    intervalSeconds: deps.intervalSeconds,
    run: claim,
    failure: 'webhook worker tick failed',
    log: deps.log,
  });
  return {
    runOnce,
    start() {
      live = deps.intervalSeconds > 0;
      job.start();
    },
    /** Clears the timer, stops claiming and waits for the sends in flight to be recorded (drain). */
    async stop() {
      live = false;
      await job.stop();
      await settle();
    },
  };
}
export type OutboundDeliveryWorker = ReturnType<typeof createOutboundDeliveryWorker>;
