/**
 * POST /v1/org/refund-requests/{id}/approve `{ reference? }` (issue 46): approves a pending refund request; the ticket
 * is voided (it no longer admits) and the reference of the refund made in the organiser's shop is kept. Answers the
 * request as it now stands; the requests and the tickets are read again.
 * @throws ApiError `api.org.refund_request_not_found` (404), `api.org.refund_request_decided` (409),
 *   `api.invalid_request_body` (400: a reference too long).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type * as z from 'zod';
import type { refunds } from '@tp/contract';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import type { RefundRequestItem } from './refund-requests.api';

// The route reaches the generated client (apps/api/client/schema.d.ts) with the API's change (issue 46): until then
// the call is typed here by the contract.
const post = org.POST as unknown as (
  path: '/v1/org/refund-requests/{id}/approve',
  init: { params: { path: { id: number } }; body: z.infer<typeof refunds.refundApproveRequest> },
) => Promise<RefundRequestItem>;

const approveRefund = (v: { id: number; reference?: string }): Promise<RefundRequestItem> =>
  post('/v1/org/refund-requests/{id}/approve', {
    params: { path: { id: v.id } },
    body: v.reference ? { reference: v.reference } : {},
  });

/** The mutation; `onSuccess` runs, then the requests and the tickets (the approved one no longer admits) are read again. */
export function useApproveRefund(options: { onSuccess?: () => void }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: approveRefund,
    onSuccess: async () => {
      options.onSuccess?.();
      await Promise.all([
        client.invalidateQueries({ queryKey: consoleKeys.refundRequests.all }),
        client.invalidateQueries({ queryKey: consoleKeys.tickets.all }),
      ]);
    },
  });
}
