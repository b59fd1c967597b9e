/**
 * TanStack Query client (DESIGN: cache tags of spec section 4 are query-key roots; keep time 60 s;
 * data reused until a tag is invalidated; no refetch on focus or reconnect). Every mutation that
 * succeeds dismisses the error toast reported for its function (or its `meta.action`) (issue 13: an error must not stay on
 * screen once the action it reports has worked; see lib/toast.tsx).
 * A failed query is tried once more, but not one the API shed (`api.busy`): the client already waited its Retry-After
 * and tried again (lib/api-client.ts, issue 44), and a third try at once would only add to the load.
 * Queries run once even offline (`offlineFirst`): the installed panel's service worker may answer from its cache (issue 10).
 */
import { MutationCache, QueryClient } from '@tanstack/react-query';
import { CACHE_GC_TIME_MS } from '@tp/contract/constants';
import { clearToastErrors } from './toast';
import { ApiError } from './typed-client';

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
        retry: (failures, err) => failures < 1 && !(err instanceof ApiError && err.message === 'api.busy'),
        networkMode: 'offlineFirst',
      },
      mutations: { retry: 0 },
    },
  });
}

/** The panel's one query client (start-app.tsx provides it to the app; a lazily loaded action outside React reads it). */
export const queryClient = createQueryClient();
