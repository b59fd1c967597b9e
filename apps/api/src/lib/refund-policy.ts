/**
 * The event's refund policy (issue 46, decision 046): "may a holder ask for a refund now?", one pure rule that the
 * holder's request (modules/refunds), their ticket listing (modules/tickets, `MyTicket.refund`) and the organiser's
 * event read all use.
 */
import type { refunds } from '@tp/contract';

/** The event columns the rule reads (`events` row). */
export interface RefundPolicyEvent {
  refundPolicy: string;
  refundUntil: Date | null;
  refundDeadline: Date | null;
  cancelledAt: Date | null;
  rescheduledAt: Date | null;
}

/**
 * Whether the event's policy takes a holder's refund request at `now` (UTC), and until when:
 * - `none`: never;
 * - `until`: while `now` is before `refundUntil`;
 * - `on_cancel`: once the event is cancelled (`cancelledAt` set), while `now` is before `refundDeadline` (no
 *   deadline: no end);
 * - `on_reschedule`: once the event moved to a new date (`rescheduledAt` set), while `now` is before
 *   `refundDeadline` (no deadline: never).
 * @returns `open` whether a request is taken now; `until` the last moment (exclusive) it may be, null for none.
 */
export function refundWindow(event: RefundPolicyEvent, now: Date): { open: boolean; until: Date | null } {
  const before = (end: Date | null) => end !== null && now < end;
  switch (event.refundPolicy as refunds.RefundPolicyMode) {
    case 'until':
      return { open: before(event.refundUntil), until: event.refundUntil };
    case 'on_cancel':
      return {
        open: event.cancelledAt !== null && (event.refundDeadline === null || now < event.refundDeadline),
        until: event.refundDeadline,
      };
    case 'on_reschedule':
      return { open: event.rescheduledAt !== null && before(event.refundDeadline), until: event.refundDeadline };
    default:
      return { open: false, until: null };
  }
}

/** The event's policy as the organiser reads it (contract `refundPolicy`, times ISO 8601 UTC). */
export function refundPolicyOf(event: Pick<RefundPolicyEvent, 'refundPolicy' | 'refundUntil' | 'refundDeadline'>) {
  return {
    mode: event.refundPolicy as refunds.RefundPolicyMode,
    until: event.refundUntil?.toISOString() ?? null,
    deadline: event.refundDeadline?.toISOString() ?? null,
  } satisfies refunds.RefundPolicy;
}
