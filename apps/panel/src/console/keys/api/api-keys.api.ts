/** GET /v1/org/api-keys: the organisation's API keys for machines (owners; issue 21), revoked ones included. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { organisations } from '@tp/contract';
import type * as z from 'zod';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

type ApiKeyItem = z.infer<typeof organisations.apiKeyItem>;

export const apiKeysQuery = queryOptions({
  queryKey: consoleKeys.apiKeys,
  queryFn: (): Promise<ApiKeyItem[]> => org.GET('/v1/org/api-keys'),
});

export const useApiKeys = () => useQuery(apiKeysQuery);
