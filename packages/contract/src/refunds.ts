/**
 * Refund requests (issue 46): the organiser's per-event refund policy, the holder's request for one ticket and the
 * organiser's decision. Beyond the spec. The money goes back in the organiser's own shop: approving here voids the
 * ticket and records the organiser's reference; declining gives the holder a reason. Times are ISO 8601 (answers in
 * UTC).
 */
import * as z from 'zod';
import { hasNoNul, instant } from './fields.js';

/** Longest holder's reason, organiser's decline reason (characters). */
export const REFUND_REASON_MAX = 500;
/** Longest organiser's refund reference (characters): their shop's order or refund id. */
export const REFUND_REFERENCE_MAX = 200;

const words = (max: number) => z.string().trim().min(1).max(max).refine(hasNoNul);

/**
 * Who may ask for a refund of a ticket of the event: `none` (nobody, the default); `until` (any holder, until
 * `until`); `on_cancel` (once the event is cancelled, until `deadline` when given); `on_reschedule` (once the event
 * moved to a new date, until `deadline`).
 */
export const refundPolicyMode = z.enum(['none', 'until', 'on_cancel', 'on_reschedule']);
export type RefundPolicyMode = z.infer<typeof refundPolicyMode>;

/**
 * PUT /v1/org/events/{externalId}/refund-policy body: `until` is required with `until` (and only there),
 * `deadline` with `on_reschedule` (optional with `on_cancel`, not allowed otherwise).
 */
export const refundPolicyRequest = z
  .strictObject({ mode: refundPolicyMode, until: instant.optional(), deadline: instant.optional() })
  .refine((p) => (p.mode === 'until') === (p.until !== undefined), {
    path: ['until'],
    message: '`until` is required with mode `until`, and only there',
  })
  .refine(
    (p) => (p.mode === 'on_reschedule' ? p.deadline !== undefined : p.mode === 'on_cancel' || p.deadline === undefined),
    { path: ['deadline'], message: '`deadline` is required with `on_reschedule`, allowed with `on_cancel`' },
  )
  .meta({ examples: [{ mode: 'on_reschedule', deadline: '2027-04-20T23:59:00+10:00' }] });

/** The event's refund policy as it stands (its answer, and part of the console's event). Times ISO 8601 UTC. */
export const refundPolicy = z
  .object({ mode: refundPolicyMode, until: z.string().nullable(), deadline: z.string().nullable() })
  .meta({ examples: [{ mode: 'on_reschedule', until: null, deadline: '2027-04-20T13:59:00.000Z' }] });
export type RefundPolicy = z.infer<typeof refundPolicy>;

/**
 * A refund request's state: `withdrawn` by the holder (or closed so when a cancelled event's refunded sale gave the
 * ticket back to its seller, decision 045), or decided by the organiser.
 */
export const refundRequestStatus = z.enum(['pending', 'approved', 'declined', 'withdrawn']);
export type RefundRequestStatus = z.infer<typeof refundRequestStatus>;

// ----- the holder (panel) -----

/** POST /v1/tickets/{userTicketId}/refund-request body: the holder's words to the organiser, optional. */
export const refundRequestCreate = z.strictObject({ reason: words(REFUND_REASON_MAX).optional() });

/**
 * The refund side of a holder's ticket (`MyTicket.refund`; absent when the policy is `none` and the ticket was never
 * requested): `requestable` whether "Ask for a refund" is offered now; `until` the last moment to ask (ISO 8601 UTC,
 * null: no end); `request` the latest request that is pending or declined (a declined one shows the organiser's
 * reason; a new request may follow while the policy allows), else null.
 */
export const ticketRefund = z.object({
  requestable: z.boolean(),
  until: z.string().nullable(),
  request: z
    .object({
      status: z.enum(['pending', 'declined']),
      createdAt: z.string(),
      declineReason: z.string().nullable(),
    })
    .nullable(),
});
export type TicketRefund = z.infer<typeof ticketRefund>;

/** The answer of the holder's POST (201) and DELETE (200): the ticket's refund side after the change. */
export const ticketRefundResponse = ticketRefund;

// ----- the organiser -----

/** GET /v1/org/refund-requests query: by status (default `pending`, oldest first), paged. */
export const refundRequestListQuery = z.object({
  status: refundRequestStatus.default('pending'),
  cursor: z.string().max(200).optional().meta({ description: 'the `nextCursor` of the previous page (opaque)' }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** One refund request as the organiser reads it. Times ISO 8601 UTC. */
export const refundRequestItem = z
  .object({
    id: z.number().int(),
    status: refundRequestStatus,
    eventExternalId: z.string().nullable(),
    eventName: z.string(),
    ticketExternalId: z.string().nullable(),
    userTicketId: z.number().int(),
    ticketTypeName: z.string(),
    holderEmail: z.string(),
    holderName: z.string().nullable(),
    reason: z.string().nullable(),
    declineReason: z.string().nullable(),
    reference: z.string().nullable(),
    createdAt: z.string(),
    decidedAt: z.string().nullable(),
  })
  .meta({
    examples: [
      {
        id: 12,
        status: 'pending',
        eventExternalId: 'harbour',
        eventName: 'Harbour Lights',
        ticketExternalId: 'T-1001',
        userTicketId: 4021,
        ticketTypeName: 'General Admission',
        holderEmail: 'ana@example.com',
        holderName: 'Ana Pérez',
        reason: 'I cannot make the new date.',
        declineReason: null,
        reference: null,
        createdAt: '2027-04-02T09:30:00.000Z',
        decidedAt: null,
      },
    ],
  });
export type RefundRequestItem = z.infer<typeof refundRequestItem>;

/** GET /v1/org/refund-requests answer: a page, `nextCursor` null on the last page. */
export const refundRequestPage = z.object({ items: z.array(refundRequestItem), nextCursor: z.string().nullable() });

/** POST /v1/org/refund-requests/{id}/approve body: your reference of the refund made in your shop, optional. */
export const refundApproveRequest = z.strictObject({ reference: words(REFUND_REFERENCE_MAX).optional() }).meta({
  description:
    'Refund the money in your own shop; approving here voids the ticket (it stops admitting online and at ' +
    'offline doors, `refunded`) and e-mails the holder with your `reference`. A ticket checked in since the ' +
    'request answers 409 `api.org.ticket_used`, one revoked or voided since (your revoke, a payment reversed) 409 ' +
    '`api.org.ticket_revoked`: decline it. Decision 046.',
});

/** POST /v1/org/refund-requests/{id}/decline body: the reason, which the holder sees in the panel and the e-mail. */
export const refundDeclineRequest = z.strictObject({ reason: words(REFUND_REASON_MAX) });
