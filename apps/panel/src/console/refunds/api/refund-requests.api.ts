/**
 * GET /v1/org/refund-requests?status=&cursor= (issue 46, contract `refunds.refundRequestPage`): the holders' refund
 * requests of the organisation with that status (pending ones oldest first), a page at a time.
 * @throws ApiError `api.org.invalid_cursor` (400).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type * as z from 'zod';
import type { refunds } from '@tp/contract';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export type RefundRequestStatus = z.infer<typeof refunds.refundRequestStatus>;
export type RefundRequestItem = z.infer<typeof refunds.refundRequestItem>;

export const refundRequestsQuery = (status: RefundRequestStatus, cursor: string | undefined) =>
  queryOptions({
    queryKey: consoleKeys.refundRequests.list(status, cursor),
    queryFn: () => org.GET('/v1/org/refund-requests', { params: { query: { status, cursor } } }),
    placeholderData: keepPreviousData,
  });

export const useRefundRequests = (status: RefundRequestStatus, cursor: string | undefined) =>
  useQuery(refundRequestsQuery(status, cursor));
