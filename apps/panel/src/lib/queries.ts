/**
 * Queries several features share: the organisation config (branded for `?org=`) and the signed-in user
 * (cache tag USER).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PanelConfig, User } from '@tp/contract';
import { client } from './api-client';
import { organisationSlug } from './host-bridge';
import type { BrandedConfig } from './branding';
import { useSignedIn } from './session';
import { queryKeys } from './query-keys';

/**
 * The panel configuration; for a panel shown for an organisation (`?org=`), with its branding laid over it
 * (lib/branding, loaded only then).
 */
export const configQuery = queryOptions({
  queryKey: queryKeys.config,
  queryFn: async (): Promise<BrandedConfig> => {
    const config: Promise<PanelConfig> = client.GET('/v1/config');
    if (!organisationSlug) return config;
    const { loadBrandedConfig } = await import('./branding');
    return loadBrandedConfig(config, organisationSlug);
  },
  staleTime: 60_000,
});
export const userQuery = queryOptions({
  queryKey: queryKeys.user.all,
  queryFn: (): Promise<User> => client.GET('/v1/auth/me'),
});

export const usePanelConfig = () => useQuery(configQuery).data;

/** The signed-in user, or undefined while signed out or loading. */
export function useUser() {
  const signedIn = useSignedIn();
  return useQuery({ ...userQuery, enabled: signedIn });
}
