/**
 * Emit points of the organisers' outbound webhook events (issue 12). Called inside the transaction that made the change, so
 * an event is queued exactly when the change commits: one outbound delivery (`webhook_deliveries`) per subscribed
 * endpoint of the organisation, delivered later by the delivery worker (modules/outbound-webhooks/delivery-worker.ts).
 *
 * Body sent (and signed): `{ type, timestamp, data }`, `timestamp` ISO 8601 UTC; `data` is checked against the
 * contract's schema of the event (`webhooks.webhookEventData`, the API document's `webhooks`) as it is queued,
 * so a payload that drifts from the document fails where it is made.
 */
import { randomUUID } from 'node:crypto';
import { webhooks } from '@tp/contract';
type WebhookEventType = webhooks.WebhookEventType;
import type { DbOrTx } from '../../db/client.js';
import { outboundWebhooksRepository as repo } from '../outbound-webhooks/outbound-webhooks.repository.js';

/**
 * Queues `type` for every endpoint of `organisationId` subscribed to it.
 * @param tx the open transaction of the change
 * @param organisationId whose subscribers hear it
 * @param type `ticket.issued`, `ticket.revoked`, ... (contract `WEBHOOK_EVENT_TYPES`)
 * @param data the event's payload (JSON)
 * @param at when it happened (the app's clock; default now): the payload's `timestamp`, and when it is due
 */
export async function enqueueOutboundEvent<T extends WebhookEventType>(
  tx: DbOrTx,
  organisationId: number,
  type: T,
  data: webhooks.WebhookEventData<T>,
  at: Date = new Date(),
): Promise<void> {
  const endpoints = (await repo.endpointsOf(tx, organisationId)).filter((e) => e.events.includes(type));
  if (!endpoints.length) return;
  const payload = JSON.stringify(webhooks.webhookEventPayload(type).parse({ type, timestamp: at.toISOString(), data }));
  await repo.insertDeliveries(
    tx,
    endpoints.map((e) => ({
      endpointId: e.id,
      messageId: `msg_${randomUUID().replaceAll('-', '')}`,
      eventType: type,
      payload,
      nextAttemptAt: at,
      createdAt: at,
    })),
  );
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
    await enqueueOutboundEvent(
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
