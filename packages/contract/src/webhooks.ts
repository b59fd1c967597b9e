/**
 * Organisation webhooks (issue 12, `/v1/org/webhooks`): an organisation subscribes a URL to ticket events;
 * deliveries are signed per the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64 HMAC-SHA256>` with the `whsec_…` secret) and retried with exponential backoff
 * for more than a day. Times are ISO 8601 UTC.
 */
import * as z from 'zod';

/** The event types an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'ticket.issued',
  'ticket.transferred',
  'ticket.resold',
  'ticket.swapped',
  'ticket.checked_in',
  'ticket.revoked',
  'ticket.refunded',
  'ticket.disputed',
  'ticket.reinstated',
  'exchange.offered',
  'exchange.expired',
  'exchange.sold',
  'exchange.closed',
  'event.cancelled',
  'refund_request.created',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const rowId = z.coerce.number().int().positive().max(2_147_483_647);

export const createWebhookRequest = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .meta({ description: 'https (http only for 127.0.0.1 outside production)' }),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length),
  })
  .meta({
    examples: [
      {
        url: 'https://hooks.southernlights.example/ticket-panel',
        events: ['ticket.issued', 'ticket.transferred', 'ticket.checked_in'],
      },
    ],
  });
export const createWebhookResponse = z
  .object({
    id: z.number().int(),
    secret: z.string().meta({ description: '`whsec_…`, shown once: verify deliveries with it' }),
  })
  .meta({ examples: [{ id: 1, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }] });
export const webhookItem = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.string()),
  createdAt: z.string(),
});
export const webhookParams = z.object({ id: rowId });
export const deliveryParams = webhookParams.extend({ deliveryId: rowId });
export const deliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** The `nextCursor` of the previous page (deliveries are listed newest first). */
  cursor: rowId.optional(),
});
export const deliveryAttempt = z.object({
  at: z.string(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});
export const deliveryItem = z.object({
  id: z.number().int(),
  messageId: z.string(),
  eventType: z.string(),
  status: z.enum(['PENDING', 'DELIVERED', 'FAILED']),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastResponse: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
  attemptLog: z.array(deliveryAttempt),
  payload: z.string(),
});
export const deliveriesPage = z.object({
  items: z.array(deliveryItem),
  nextCursor: z.number().int().nullable(),
});
export const redeliverResponse = z
  .object({ id: z.number().int(), messageId: z.string() })
  .meta({ examples: [{ id: 7, messageId: 'msg_2f1c0d4e9b8a4c7d9e3f6a5b4c3d2e1f' }] });
export type DeliveryItem = z.infer<typeof deliveryItem>;

/** The ticket an event is about: your ids (null for tickets you did not load through the API) and ours. */
export const ticketRefs = z.object({
  ticketExternalId: z
    .string()
    .nullable()
    .meta({ description: 'your id of the ticket (PUT /v1/org/tickets/{externalId})' }),
  eventExternalId: z.string().nullable().meta({ description: 'your id of its event' }),
  ticketTypeExternalId: z.string().nullable().meta({ description: 'your id of its ticket type' }),
  userTicketId: z.number().int().meta({ description: "our id of the holder's ticket" }),
});
export type TicketRefs = z.infer<typeof ticketRefs>;

/** The exchange queue entry an event is about (issue 45): your ids of its event and type, ours of the entry. */
export const exchangeEntryRefs = z.object({
  eventExternalId: z.string().nullable().meta({ description: 'your id of the event' }),
  ticketTypeExternalId: z.string().nullable().meta({ description: 'your id of the ticket type' }),
  entryId: z.number().int().meta({ description: "our id of the fan's queue entry (no personal data is sent)" }),
  quantity: z.number().int().meta({ description: 'tickets the entry asked for, all or nothing' }),
});

/** The `data` of each event type (what `enqueueTicketEvents`/`enqueueWebhookEvent` send, checked as they queue it). */
export const webhookEventData = {
  'ticket.issued': ticketRefs.extend({
    holderEmail: z.string().meta({ description: 'the e-mail the ticket was issued to' }),
    reissued: z.boolean().meta({ description: 'true when a PUT with another holderEmail moved an unused ticket' }),
  }),
  'ticket.transferred': ticketRefs.extend({
    newHolderEmail: z.string().meta({ description: 'the e-mail of the account the ticket was gifted to (issue 21)' }),
  }),
  'ticket.resold': ticketRefs.extend({ orderId: z.string().meta({ description: 'the paid resale order' }) }),
  'ticket.swapped': ticketRefs.extend({
    swapType: z.enum(['UPGRADE', 'DOWNGRADE']),
    fromTicketTypeId: z.number().int(),
    toTicketTypeId: z.number().int(),
  }),
  'ticket.checked_in': ticketRefs.extend({
    eventId: z.number().int().meta({ description: 'our id of the event admitted to' }),
    offline: z
      .literal(true)
      .optional()
      .meta({ description: 'present when a door admitted it offline and synced later' }),
  }),
  'ticket.revoked': ticketRefs,
  'ticket.refunded': ticketRefs.extend({
    orderId: z.string().meta({ description: 'the resale order or exchange offer whose payment went back' }),
    dispute: z.boolean().meta({ description: 'true when a dispute (chargeback) was lost, false for a refund' }),
    returnedToSeller: z.literal(true).optional().meta({
      description:
        'present when the event was cancelled and the payment refunded before its seller was paid: the ticket went back to its seller, who is the holder you refund (issue 46)',
    }),
  }),
  'ticket.disputed': ticketRefs.extend({
    orderId: z.string().meta({ description: 'the resale order or exchange offer whose payment is disputed' }),
  }),
  'ticket.reinstated': ticketRefs.extend({
    orderId: z.string().meta({ description: 'the resale order or exchange offer whose dispute was won' }),
  }),
  'exchange.offered': exchangeEntryRefs.extend({
    expiresAt: z.iso.datetime().meta({ description: 'when the offer ends unless paid, ISO 8601 UTC' }),
    amountCents: z.number().int().meta({ description: "the offer's total at face value, minor units" }),
    currencyCode: z.string(),
  }),
  'exchange.expired': exchangeEntryRefs.extend({
    reason: z.enum(['expired', 'declined', 'left']).meta({
      description: 'expired: not paid in time; declined: the fan declined it; left: the fan left the queue',
    }),
  }),
  'exchange.sold': exchangeEntryRefs.extend({
    amountCents: z.number().int().meta({ description: 'what the fan paid, at face value, minor units' }),
    currencyCode: z.string(),
    userTicketIds: z
      .array(z.number().int())
      .meta({ description: "our ids of the fan's tickets: returned ones moved to the fan, released ones issued" }),
    released: z.number().int().meta({ description: 'how many of them were your release (issued now)' }),
  }),
  'exchange.closed': z.object({
    eventExternalId: z.string().nullable().meta({ description: 'your id of the event' }),
    entriesClosed: z.number().int().meta({ description: 'entries still waiting or offered, now CLOSED' }),
    ticketsWithdrawn: z
      .number()
      .int()
      .meta({ description: 'returned or released tickets not sold, taken off the queue (returned ones admit again)' }),
  }),
  'event.cancelled': z.object({
    eventExternalId: z.string().nullable().meta({ description: 'your id of the event' }),
    reason: z.string().nullable().meta({ description: 'your words to the holders, as given' }),
    tickets: z.number().int().meta({ description: 'live tickets of the event, none of which admits any more' }),
  }),
  'refund_request.created': ticketRefs.extend({
    refundRequestId: z
      .number()
      .int()
      .meta({ description: 'decide it at POST /v1/org/refund-requests/{id}/approve or …/decline' }),
    reason: z.string().nullable().meta({ description: "the holder's words, or null" }),
  }),
} satisfies Record<WebhookEventType, z.ZodType>;
export type WebhookEventData<T extends WebhookEventType> = z.infer<(typeof webhookEventData)[T]>;

/** The signed body of one delivery: `{ type, timestamp, data }`, `timestamp` ISO 8601 UTC. */
export function webhookEventPayload<T extends WebhookEventType>(type: T) {
  return z.object({
    type: z.literal(type),
    timestamp: z.iso.datetime().meta({ description: 'when it happened, ISO 8601 UTC' }),
    data: webhookEventData[type],
  });
}

/** What each event means, for the API document's `webhooks`. */
export const WEBHOOK_EVENT_SUMMARIES: Record<WebhookEventType, string> = {
  'ticket.issued': 'A ticket PUT or CSV row issued (or re-issued) a ticket',
  'ticket.transferred': 'The holder gifted the ticket to another account',
  'ticket.resold': "A resale order was paid; the ticket waits for its buyer's redeem",
  'ticket.swapped': 'A swap to another ticket type was confirmed',
  'ticket.checked_in': 'The door admitted the ticket',
  'ticket.revoked': 'You revoked the ticket',
  'ticket.refunded':
    'The payment the ticket was bought with (resale or exchange queue) was refunded or a dispute lost: it no longer admits, and the seller is not paid',
  'ticket.disputed':
    "The buyer's payment for the ticket is disputed (a chargeback): it does not admit and the seller's payout is held until the dispute closes",
  'ticket.reinstated': 'The dispute of the payment was won: the ticket admits again and the payout goes ahead',
  'exchange.offered': "Tickets of the exchange queue were reserved for a fan's entry, to pay for before expiresAt",
  'exchange.expired': 'An exchange offer ended unpaid (expired, declined or left); its tickets go to the next entry',
  'exchange.sold':
    'A fan paid an exchange offer: the returned tickets are now theirs (the old passes void), released ones issued',
  'exchange.closed': "The event's exchange queue closed at its closing time",
  'event.cancelled': 'You cancelled the event: no ticket of it admits or moves, and its holders are being told',
  'refund_request.created':
    "A holder asked for a refund of a ticket under the event's refund policy: approve or decline it",
};

/** The Standard Webhooks headers every delivery carries. */
export const WEBHOOK_HEADERS = {
  'webhook-id': 'the message id, the same on every retry and redelivery: deduplicate on it (`msg_…`)',
  'webhook-timestamp': 'Unix seconds when this attempt was signed',
  'webhook-signature': '`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with your `whsec_…` secret',
} as const;
