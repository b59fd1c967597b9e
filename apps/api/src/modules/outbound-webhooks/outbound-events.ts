/**
 * Emit points of the organisers' outbound webhook events (issue 12). Called inside the transaction that made the change, so
 * an event is queued exactly when the change commits: one outbound delivery (`webhook_deliveries`) per subscribed
 * endpoint of the organisation, delivered later by the delivery worker (delivery-worker.ts).
 *
 * Body sent (and signed): `{ type, timestamp, data }`, `timestamp` ISO 8601 UTC; `data` is checked against the
 * contract's schema of the event (`webhooks.webhookEventData`, the API document's `webhooks`) as it is queued,
 * so a payload that drifts from the document fails where it is made.
 */
import { randomUUID } from 'node:crypto';
import { webhooks } from '@tp/contract';
type WebhookEventType = webhooks.WebhookEventType;
import type { DbOrTx } from '../../db/client.js';
import { timeSlicer } from '../../lib/time-slice.js';
import { outboundWebhooksRepository as repo } from './outbound-webhooks.repository.js';

/**
 * Each event type's payload schema, built once: `webhookEventPayload(type)` makes a new zod object per call,
 * which cost about 0.5 ms per event (10,000 of an import: seconds of the main thread).
 */
const payloadSchemas = new Map<WebhookEventType, ReturnType<typeof webhooks.webhookEventPayload>>();
const payloadSchema = (type: WebhookEventType) => {
  let schema = payloadSchemas.get(type);
  if (!schema) payloadSchemas.set(type, (schema = webhooks.webhookEventPayload(type)));
  return schema;
};

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
  await enqueueOutboundEvents(tx, organisationId, [{ type, data }], at);
}

/** Deliveries made ready to queue ({@link outboundDeliveriesOf}), and the endpoints they were made for. */
export interface PreparedDeliveries {
  endpointIds: number[];
  rows: { endpointId: number; messageId: string; eventType: string; payload: string }[];
  at: Date;
}

/**
 * Makes the deliveries of many events of one organisation (a 10,000-row import) without writing them: reads its
 * endpoints once, checks and serialises the payloads in time slices (the event loop keeps answering). May run
 * before the transaction that queues them ({@link queueDeliveries}).
 * @param events each `{ type, data }` as for {@link enqueueOutboundEvent}
 */
export async function outboundDeliveriesOf<T extends WebhookEventType>(
  db: DbOrTx,
  organisationId: number,
  events: { type: T; data: webhooks.WebhookEventData<T> }[],
  at: Date,
): Promise<PreparedDeliveries> {
  const endpoints = events.length ? await repo.endpointsOf(db, organisationId) : [];
  const timestamp = at.toISOString();
  const rows: PreparedDeliveries['rows'] = [];
  const slice = timeSlicer();
  for (const { type, data } of endpoints.length ? events : []) {
    const turn = slice.tick();
    if (turn) await turn;
    const subscribed = endpoints.filter((e) => e.events.includes(type));
    if (!subscribed.length) continue;
    const payload = JSON.stringify(payloadSchema(type).parse({ type, timestamp, data }));
    for (const e of subscribed)
      rows.push({ endpointId: e.id, messageId: `msg_${randomUUID().replaceAll('-', '')}`, eventType: type, payload });
  }
  return { endpointIds: endpoints.map((e) => e.id), rows, at };
}

/**
 * Whether the organisation's endpoints are still those deliveries were made for (checked inside the
 * transaction that queues deliveries made before it).
 */
export async function endpointsUnchanged(tx: DbOrTx, organisationId: number, prepared: PreparedDeliveries) {
  const now = (await repo.endpointsOf(tx, organisationId)).map((e) => e.id);
  return now.length === prepared.endpointIds.length && now.every((id, i) => id === prepared.endpointIds[i]);
}

/** Writes prepared deliveries in one set-based statement. Call it inside the change's transaction. */
export async function queueDeliveries(tx: DbOrTx, prepared: PreparedDeliveries): Promise<void> {
  await repo.queueDeliveries(tx, prepared.rows, prepared.at);
}

/**
 * Queues many events of one organisation at once: one read of its endpoints and one set-based insert, not one
 * query per event (issue 19 break 3, decision 021).
 * @param events each `{ type, data }` as for {@link enqueueOutboundEvent}
 */
export async function enqueueOutboundEvents<T extends WebhookEventType>(
  tx: DbOrTx,
  organisationId: number,
  events: { type: T; data: webhooks.WebhookEventData<T> }[],
  at: Date = new Date(),
): Promise<void> {
  await queueDeliveries(tx, await outboundDeliveriesOf(tx, organisationId, events, at));
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
