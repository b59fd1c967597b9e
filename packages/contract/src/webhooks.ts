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
