/**
 * Offline lists (issue 20 point 7): the holder's tickets and ticket pages seen online stay readable offline.
 * The TICKETS, SINGLE_TICKET and USER cache entries (spec section 4 tags) are written to localStorage
 * (`QUERY_CACHE_KEY`) by TanStack Query's persister and restored at the next start, for 7 days at most.
 * Loaded on demand once the holder is signed in (app/signed-in-effects.tsx), so the LOGIN screen's
 * bytes do not carry it. Nothing is written while signed out, and logout removes the key
 * (`clearOfflineData`). Where the document has no localStorage (a framed panel whose third-party storage
 * is blocked) nothing is persisted: the lists stay in memory while the panel is open.
 */
import type { Query, QueryClient } from '@tanstack/react-query';
import { persistQueryClient } from '@tanstack/query-persist-client-core';
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import { queryKeys } from './query-keys';
import { isOffline } from './api-client';
import { QUERY_CACHE_KEY } from './offline-data';
import { storage } from './storage';

/** How long a persisted list is kept, milliseconds (7 days). */
export const PERSIST_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** Changes when the shape of what is persisted changes, so an older copy is dropped. */
const BUSTER = 'issue-20-v1';

const TICKETS_ROOT = queryKeys.tickets.all[0];
const SINGLE_TICKET_ROOT = queryKeys.singleTicket.all[0];
const USER_ROOT = queryKeys.user.all[0];

/** The queries kept for offline use: ticket lists, ticket pages and the signed-in user, once loaded. */
export function isPersisted(query: Pick<Query, 'queryKey' | 'state'>): boolean {
  if (query.state.status !== 'success') return false;
  const [root] = query.queryKey;
  if (root === TICKETS_ROOT || root === SINGLE_TICKET_ROOT) return true;
  return root === USER_ROOT && query.queryKey.length === 1;
}

/** localStorage, or null where this document may not use it. */
function localStore(): Storage | null {
  try {
    const s = window.localStorage;
    s.getItem(QUERY_CACHE_KEY);
    return s;
  } catch {
    return null;
  }
}

const started = new WeakSet<QueryClient>();

/**
 * Restores the persisted lists into `queryClient` and keeps saving them (throttled, 1 s). Restored entries
 * are marked stale, so each is fetched again when shown online; offline they are what the screen shows.
 * Runs once per query client (one per document).
 * @returns a promise settled when the restore has finished.
 */
export async function startQueryPersistence(queryClient: QueryClient): Promise<void> {
  if (started.has(queryClient)) return;
  started.add(queryClient);
  const local = localStore();
  if (!local) return;
  const persister = createAsyncStoragePersister({
    key: QUERY_CACHE_KEY,
    storage: {
      getItem: (key) => local.getItem(key),
      // Never written while signed out (a save throttled before logout lands after it).
      setItem: (key, value) => (storage.get('accessToken') ? local.setItem(key, value) : undefined),
      removeItem: (key) => local.removeItem(key),
    },
  });
  const [, restored] = persistQueryClient({
    queryClient,
    persister,
    maxAge: PERSIST_MAX_AGE_MS,
    buster: BUSTER,
    dehydrateOptions: { shouldDehydrateQuery: isPersisted },
  });
  await restored;
  // Offline nothing is refetched now (a screen shown later tries once, keeping its data when that fails).
  await queryClient.invalidateQueries(
    // Only what came from storage: an answer fetched since this document started (the first screen's user and
    // tickets, before this ran) is current already; refetching it was the start's duplicate requests (issue 30).
    {
      predicate: (q) => isPersisted(q) && q.state.dataUpdatedAt < performance.timeOrigin,
      refetchType: isOffline() ? 'none' : 'active',
    },
    { cancelRefetch: false, throwOnError: false },
  );
}
