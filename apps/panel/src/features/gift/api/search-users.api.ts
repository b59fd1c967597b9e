/**
 * Username search for the gift receiver (spec sections 3 Username search result, 7, 9):
 * GET /v1/mobile/users/?username={prefix} -> at most 10 `{ username, picture }` (never an e-mail).
 * The caller debounces the typed text by USERNAME_SEARCH_DEBOUNCE_MS (500 ms) before querying.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UserSearchResult {
  username: string;
  picture: string | null;
}

/** @throws ApiError (e.g. `api.too_many_requests` when rate-limited). */
export const searchUsers = (prefix: string): Promise<UserSearchResult[]> =>
  client.GET('/v1/mobile/users/', { params: { query: { username: prefix } } });

/** Results for a prefix; kept for 30 s so that retyping the same prefix does not call again. */
export const userSearchQuery = (prefix: string) =>
  queryOptions({ queryKey: queryKeys.userSearch(prefix), queryFn: () => searchUsers(prefix), staleTime: 30_000 });

/** Disabled for an empty prefix; keeps the previous results on screen while the next prefix loads. */
export const useUserSearch = (prefix: string) =>
  useQuery({ ...userSearchQuery(prefix), enabled: prefix.length > 0, placeholderData: keepPreviousData });
