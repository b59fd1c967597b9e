/** GET /v1/org/webhooks: the organisation's webhook endpoints (owners and staff; issue 21). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { webhooks } from '@tp/contract';
import type * as z from 'zod';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export type WebhookItem = z.infer<typeof webhooks.webhookItem>;

export const webhooksQuery = queryOptions({
  queryKey: consoleKeys.webhooks.all,
  queryFn: (): Promise<WebhookItem[]> => org.GET('/v1/org/webhooks'),
});

export const useWebhooks = () => useQuery(webhooksQuery);
