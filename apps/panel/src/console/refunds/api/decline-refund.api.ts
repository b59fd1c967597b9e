/**
 * POST /v1/org/refund-requests/{id}/decline `{ reason }` (issue 46): declines a pending refund request with the reason
 * the holder sees (panel and e-mail). Answers the request as it now stands; the requests are read again.
 * @throws ApiError `api.org.refund_request_not_found` (404), `api.org.refund_request_decided` (409),
 *   `api.invalid_request_body` (400: no reason, or one too long).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import type { RefundRequestItem } from './refund-requests.api';

const declineRefund = (v: { id: number; reason: string }): Promise<RefundRequestItem> =>
  org.POST('/v1/org/refund-requests/{id}/decline', { params: { path: { id: v.id } }, body: { reason: v.reason } });

/** The mutation; `onSuccess` runs, then the requests are read again. */
export function useDeclineRefund(options: { onSuccess?: () => void }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: declineRefund,
    onSuccess: async () => {
      options.onSuccess?.();
      await client.invalidateQueries({ queryKey: consoleKeys.refundRequests.all });
    },
  });
}
