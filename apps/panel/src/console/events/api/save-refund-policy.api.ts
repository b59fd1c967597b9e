/**
 * PUT /v1/org/events/{externalId}/refund-policy (issue 46, contract `refunds.refundPolicyRequest`): who may ask for a
 * refund of the event's tickets, `{ mode, until?, deadline? }`, the times typed as wall times in the event's zone and
 * sent as ISO 8601 UTC; answers the policy as it stands (`refunds.refundPolicy`). Refreshes the events.
 * @throws ApiError `api.invalid_request_body` (`fields`: `until`, `deadline`), `api.org.event_not_found` (404).
 */
import type * as z from 'zod';
import type { refunds } from '@tp/contract';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import { useFormMutation, type FormMutationOptions } from '../../form-mutation';
import { zonedToIso } from '../../zoned-time';

export type RefundPolicy = z.infer<typeof refunds.refundPolicy>;
type RefundPolicyRequest = z.infer<typeof refunds.refundPolicyRequest>;

/** The form's values: the mode, and the date each mode may take as a `datetime-local` wall time ('' when none). */
export interface RefundPolicyFields {
  mode: RefundPolicy['mode'];
  until: string;
  deadline: string;
}

/** The request body of the form's values: only the date the mode takes, as ISO 8601 UTC. */
function refundPolicyBody(v: RefundPolicyFields, timeZone: string): RefundPolicyRequest {
  const at = (local: string) => zonedToIso(local, timeZone) ?? undefined;
  if (v.mode === 'until') return { mode: v.mode, until: at(v.until) };
  if (v.mode === 'on_cancel' || v.mode === 'on_reschedule') {
    const deadline = at(v.deadline);
    return deadline ? { mode: v.mode, deadline } : { mode: v.mode };
  }
  return { mode: v.mode };
}

export const useSaveRefundPolicy = (externalId: string, timeZone: string, options: FormMutationOptions<RefundPolicy>) =>
  useFormMutation(
    (v: RefundPolicyFields) =>
      org.PUT('/v1/org/events/{externalId}/refund-policy', {
        params: { path: { externalId } },
        body: refundPolicyBody(v, timeZone),
      }),
    [consoleKeys.events.all],
    options,
  );
