/** QR pass queries: the ttl config, then the image polled every ttl seconds (spec section 2 QR). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { QrCodeData } from '@tp/contract';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const qrConfigQuery = queryOptions({
  queryKey: queryKeys.qr.config,
  queryFn: (): Promise<QrCodeData> => client.GET('/v1/auth/access/qrCodeData'),
});

/**
 * The base64 PNG (GET /auth/access/qr). Started with the first screen's other requests, before the ttl is
 * known (main.tsx, issue 30): kept a little while for the screen to take.
 */
export const qrImageQuery = queryOptions({
  queryKey: queryKeys.qr.image,
  // Not fetched again when the screen mounts right after the start fetched it; the poll runs every ttl.
  staleTime: 5_000,
  gcTime: 10_000,
  queryFn: (): Promise<string> => client.GET('/v1/auth/access/qr', { parseAs: 'text' }),
});

/** The base64 PNG, refetched every `ttl` seconds while the screen is shown. */
export function useQrImage(ttlSeconds: number | undefined) {
  return useQuery({
    ...qrImageQuery,
    enabled: Boolean(ttlSeconds),
    gcTime: 0,
    refetchInterval: ttlSeconds ? ttlSeconds * 1000 : false,
    refetchIntervalInBackground: false,
  });
}
export const useQrConfig = () => useQuery(qrConfigQuery);
