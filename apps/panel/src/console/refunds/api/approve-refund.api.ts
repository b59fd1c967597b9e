/**
 * POST /v1/org/refund-requests/{id}/approve `{ reference? }` (issue 46): approves a pending refund request; the ticket
 * is voided (it no longer admits) and the reference of the refund made in the organiser's shop is kept. Answers the
 * request as it now stands; the requests and the tickets are read again.
 * @throws ApiError `api.org.refund_request_not_found` (404), `api.org.refund_request_decided` (409),
 *   `api.invalid_request_body` (400: a reference too long).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import type { RefundRequestItem } from './refund-requests.api';

const approveRefund = (v: { id: number; reference?: string }): Promise<RefundRequestItem> =>
  org.POST('/v1/org/refund-requests/{id}/approve', {
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
