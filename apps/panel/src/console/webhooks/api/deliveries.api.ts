/** GET /v1/org/webhooks/{id}/deliveries: one endpoint's delivery log, newest first, a page of 20 from `cursor`. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { webhooks } from '@tp/contract';
import type * as z from 'zod';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

type DeliveriesPage = z.infer<typeof webhooks.deliveriesPage>;

export const deliveriesQuery = (id: number, cursor: number | undefined) =>
  queryOptions({
    queryKey: consoleKeys.webhooks.deliveries(id, cursor),
    queryFn: (): Promise<DeliveriesPage> =>
      org.GET('/v1/org/webhooks/{id}/deliveries', { params: { path: { id }, query: { cursor, limit: 20 } } }),
  });

export const useDeliveries = (id: number, cursor: number | undefined) => useQuery(deliveriesQuery(id, cursor));
