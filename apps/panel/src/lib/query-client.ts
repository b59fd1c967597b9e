/**
 * TanStack Query client (DESIGN: cache tags of spec section 4 are query-key roots; keep time 60 s;
 * data reused until a tag is invalidated; no refetch on focus or reconnect). Queries run once even
 * offline (`offlineFirst`): the installed panel's service worker may answer from its cache (issue 10).
 */
import { QueryClient } from '@tanstack/react-query';
import { CACHE_GC_TIME_MS } from '@tp/contract/constants';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        gcTime: CACHE_GC_TIME_MS,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        retry: 1,
        networkMode: 'offlineFirst',
      },
      mutations: { retry: 0 },
    },
  });
}
