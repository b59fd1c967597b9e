/**
 * Queries several features share: the organisation config and the signed-in user (cache tag USER).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PanelConfig, User } from '@tp/contract';
import { api } from './api-client';
import { useSignedIn } from './session';
import { queryKeys } from './query-keys';

export const configQuery = queryOptions({
  queryKey: queryKeys.config,
  queryFn: () => api<PanelConfig>('/config'),
  staleTime: 60_000,
});
export const userQuery = queryOptions({ queryKey: queryKeys.user.all, queryFn: () => api<User>('/auth/me') });

export const usePanelConfig = () => useQuery(configQuery).data;

/** The signed-in user, or undefined while signed out or loading. */
export function useUser() {
  const signedIn = useSignedIn();
  return useQuery({ ...userQuery, enabled: signedIn });
}
