/**
 * TanStack Query client (DESIGN: cache tags of spec section 4 are query-key roots; keep time 60 s;
 * data reused until a tag is invalidated; no refetch on focus or reconnect). Every mutation that
 * succeeds dismisses the error toast reported for its function (or its `meta.action`) (issue 13: an error must not stay on
 * screen once the action it reports has worked; see lib/toast.tsx).
 * Queries run once even offline (`offlineFirst`): the installed panel's service worker may answer from its cache (issue 10).
 */
import { MutationCache, QueryClient } from '@tanstack/react-query';
import { CACHE_GC_TIME_MS } from '@tp/contract/constants';
import { clearToastErrors } from './toast';

export function createQueryClient() {
  return new QueryClient({
    mutationCache: new MutationCache({
      onSuccess: (_data, _variables, _context, mutation) =>
        clearToastErrors(mutation.options.meta?.action ?? mutation.options.mutationFn),
    }),
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
