/**
 * Emit points of the organisation webhooks (issue 12). Called inside the transaction that made the change, so
 * an event is queued exactly when the change commits: one `webhook_deliveries` row per subscribed endpoint of
 * the organisation, delivered later by the webhook worker (modules/webhooks/webhook-worker.ts).
 *
 * Body sent (and signed): `{ type, timestamp, data }`, `timestamp` ISO 8601 UTC; `data` is checked against the
 * contract's schema of the event (`webhooks.webhookEventData`, the API document's `webhooks`) as it is queued,
 * so a payload that drifts from the document fails where it is made.
 */
import { randomUUID } from 'node:crypto';
import { webhooks } from '@tp/contract';
type WebhookEventType = webhooks.WebhookEventType;
import type { DbOrTx } from '../../db/client.js';
import { webhooksRepository as repo } from '../webhooks/webhooks.repository.js';

/**
 * Queues `type` for every endpoint of `organisationId` subscribed to it.
 * @param tx the open transaction of the change
 * @param organisationId whose subscribers hear it
 * @param type `ticket.issued`, `ticket.revoked`, ... (contract `WEBHOOK_EVENT_TYPES`)
 * @param data the event's payload (JSON)
 * @param at when it happened (the app's clock; default now): the payload's `timestamp`, and when it is due
 */
export async function enqueueWebhookEvent<T extends WebhookEventType>(
  tx: DbOrTx,
  organisationId: number,
  type: T,
  data: webhooks.WebhookEventData<T>,
  at: Date = new Date(),
): Promise<void> {
  await enqueueWebhookEvents(tx, organisationId, [{ type, data }], at);
}

/** Delivery rows per insert statement (6 parameters each: well under PostgreSQL's 65,535). */
const INSERT_CHUNK = 1000;

/**
 * Queues many events of one organisation at once (a 10,000-row import): its endpoints are read once and the
 * deliveries written in statements of 1,000 rows, not one query per event (issue 19 break 3).
 * @param events each `{ type, data }` as for {@link enqueueWebhookEvent}
 */
export async function enqueueWebhookEvents<T extends WebhookEventType>(
  tx: DbOrTx,
  organisationId: number,
  events: { type: T; data: webhooks.WebhookEventData<T> }[],
  at: Date = new Date(),
): Promise<void> {
  if (!events.length) return;
  const endpoints = await repo.endpointsOf(tx, organisationId);
  if (!endpoints.length) return;
  const timestamp = at.toISOString();
  const rows = events.flatMap(({ type, data }) => {
    const subscribed = endpoints.filter((e) => e.events.includes(type));
    if (!subscribed.length) return [];
    const payload = JSON.stringify(webhooks.webhookEventPayload(type).parse({ type, timestamp, data }));
    return subscribed.map((e) => ({
      endpointId: e.id,
      messageId: `msg_${randomUUID().replaceAll('-', '')}`,
      eventType: type,
      payload,
      nextAttemptAt: at,
      createdAt: at,
    }));
  });
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await repo.insertDeliveries(tx, rows.slice(i, i + INSERT_CHUNK));
}

/**
 * Queues one `type` event per ticket moved, to the organisation of each ticket's event, with
 * `data = { ticketExternalId, eventExternalId, ticketTypeExternalId, userTicketId, ...extra }` (null where the
 * organiser gave no id). Call it inside the move's transaction.
 */
export async function enqueueTicketEvents<T extends WebhookEventType>(
  tx: DbOrTx,
  type: T,
  userTicketIds: number[],
  at: Date,
  extra: Omit<webhooks.WebhookEventData<T>, keyof webhooks.TicketRefs>,
): Promise<void> {
  for (const t of await repo.ticketRefs(tx, userTicketIds)) {
    await enqueueWebhookEvent(
      tx,
      t.organisationId,
      type,
      {
        ticketExternalId: t.ticketExternalId,
        eventExternalId: t.eventExternalId,
        ticketTypeExternalId: t.ticketTypeExternalId,
        userTicketId: t.userTicketId,
        ...extra,
      } as webhooks.WebhookEventData<T>,
      at,
    );
  }
}
