/**
 * Organisation webhooks (issue 12): endpoints (create, list, delete), the delivery log and redelivery. Every
 * lookup is scoped to the calling organisation: another organisation's ids answer 404. Creating, deleting and
 * redelivering are recorded in the audit trail (issue 25) in their transaction: the endpoint's host, never its
 * path, query or secret.
 */
import { randomBytes } from 'node:crypto';
import type { webhooks as contract } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { RequestOrganisation } from '../organiser-scope/org-auth.js';
import { checkWebhookEndpointUrl } from './delivery-sender.js';
import { appendAudit } from '../audit/audit.repository.js';
import { type DeliveryRow, outboundWebhooksRepository as repo } from './outbound-webhooks.repository.js';

type CreateWebhook = { url: string; events: string[] };

/**
 * @param deps.endpointsPerOrganisation the most endpoints one organisation may have (WEBHOOK_ENDPOINTS_PER_ORGANISATION).
 */
export function createOutboundWebhooksService(deps: {
  database: Database;
  now: () => Date;
  allowLocalUrls: boolean;
  endpointsPerOrganisation: number;
}) {
  const { db } = deps.database;

  async function endpoint(org: RequestOrganisation, id: number) {
    const row = await repo.endpointOf(db, org.id, id);
    if (!row) throw new AppError('api.org.webhook_not_found');
    return row;
  }

  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  function item(
    d: DeliveryRow,
    attempts: { deliveryId: number; at: Date; statusCode: number | null; error: string | null; durationMs: number }[],
  ): contract.DeliveryItem {
    return {
      id: d.id,
      messageId: d.messageId,
      eventType: d.eventType,
      status: d.status as contract.DeliveryItem['status'],
      attempts: d.attempts,
      nextAttemptAt: d.status === 'PENDING' ? iso(d.nextAttemptAt) : null,
      lastStatusCode: d.lastStatusCode,
      lastError: d.lastError,
      lastResponse: d.lastResponse,
      deliveredAt: iso(d.deliveredAt),
      createdAt: d.createdAt.toISOString(),
      payload: d.payload,
      attemptLog: attempts
        .filter((a) => a.deliveryId === d.id)
        .map((a) => ({ at: a.at.toISOString(), statusCode: a.statusCode, error: a.error, durationMs: a.durationMs })),
    };
  }

  return {
    /**
     * Subscribes a URL; the secret (`whsec_` + 24 random bytes in base64) is returned once. An organisation has at
     * most `endpointsPerOrganisation` endpoints: the count is read under a lock of the organisation's row, so
     * parallel creates never pass it (issue 39: many endpoints defeated the worker's fairness).
     * @throws AppError `api.org.webhook_url_not_allowed` (see delivery-sender.ts `checkWebhookEndpointUrl`),
     *   `api.org.webhook_limit_reached` (409) when the organisation already has as many endpoints as it may.
     */
    async create(org: RequestOrganisation, body: CreateWebhook): Promise<{ id: number; secret: string }> {
      checkWebhookEndpointUrl(body.url, deps.allowLocalUrls);
      const secret = `whsec_${randomBytes(24).toString('base64')}`;
      const at = deps.now();
      const events = [...new Set(body.events)];
      const row = await db.transaction(async (tx) => {
        await repo.lockOrganisation(tx, org.id);
        if ((await repo.countEndpoints(tx, org.id)) >= deps.endpointsPerOrganisation)
          throw new AppError('api.org.webhook_limit_reached');
        const inserted = await repo.insertEndpoint(tx, {
          organisationId: org.id,
          url: body.url,
          events,
          secret,
          createdAt: at,
        });
        await appendAudit(tx, org.id, org.actor, at, {
          action: 'webhook.created',
          resourceType: 'webhook',
          resourceId: inserted.id,
          detail: { host: new URL(body.url).host, events },
        });
        return inserted;
      });
      return { id: row.id, secret };
    },
    /** The organisation's endpoints (never the secret). */
    async list(org: RequestOrganisation) {
      const rows = await repo.endpointsOf(db, org.id);
      return rows.map((r) => ({ id: r.id, url: r.url, events: r.events, createdAt: r.createdAt.toISOString() }));
    },
    /** Deletes an endpoint and its delivery log; audited `webhook.deleted`. @throws AppError `api.org.webhook_not_found`. */
    async remove(org: RequestOrganisation, id: number): Promise<void> {
      const at = deps.now();
      await db.transaction(async (tx) => {
        if (!(await repo.deleteEndpoint(tx, org.id, id))) throw new AppError('api.org.webhook_not_found');
        await appendAudit(tx, org.id, org.actor, at, {
          action: 'webhook.deleted',
          resourceType: 'webhook',
          resourceId: id,
        });
      });
    },
    /**
     * A page of an endpoint's deliveries, newest first, each with its attempts.
     * @throws AppError `api.org.webhook_not_found`.
     */
    async deliveries(org: RequestOrganisation, id: number, q: { limit: number; cursor?: number }) {
      await endpoint(org, id);
      const rows = await repo.deliveriesOf(db, id, q.limit + 1, q.cursor);
      const page = rows.slice(0, q.limit);
      const attempts = await repo.attemptsOf(
        db,
        page.map((d) => d.id),
      );
      return {
        items: page.map((d) => item(d, attempts)),
        nextCursor: rows.length > q.limit ? page[page.length - 1].id : null,
      };
    },
    /**
     * Sends a delivery again: a new delivery row with the same message (`webhook-id`, body), due now, with its
     * own retries; audited `webhook.redelivered`. @throws AppError `api.org.webhook_not_found`,
     * `api.org.webhook_delivery_not_found`.
     */
    async redeliver(org: RequestOrganisation, id: number, deliveryId: number) {
      await endpoint(org, id);
      const original = await repo.deliveryOf(db, id, deliveryId);
      if (!original) throw new AppError('api.org.webhook_delivery_not_found');
      const at = deps.now();
      const copy = await db.transaction(async (tx) => {
        const [inserted] = await repo.insertDeliveries(tx, [
          {
            endpointId: id,
            messageId: original.messageId,
            eventType: original.eventType,
            payload: original.payload,
            nextAttemptAt: at,
            createdAt: at,
          },
        ]);
        await appendAudit(tx, org.id, org.actor, at, {
          action: 'webhook.redelivered',
          resourceType: 'webhook',
          resourceId: id,
          detail: { deliveryId, newDeliveryId: inserted.id, eventType: original.eventType },
        });
        return inserted;
      });
      return { id: copy.id, messageId: copy.messageId };
    },

    /**
     * The delivery queue for the metrics (decision 031): `depth` deliveries not yet delivered nor given up, and
     * `oldestAgeSeconds` since the oldest of them was queued (0 when the queue is empty).
     */
    async queueStats(): Promise<{ depth: number; oldestAgeSeconds: number }> {
      const { depth, oldestCreatedAt } = await repo.queueStats(db);
      const age = oldestCreatedAt ? (deps.now().getTime() - oldestCreatedAt.getTime()) / 1000 : 0;
      return { depth, oldestAgeSeconds: Math.max(0, age) };
    },
  };
}
export type OutboundWebhooksService = ReturnType<typeof createOutboundWebhooksService>;
