/** QR pass queries: the ttl config, then the image polled every ttl seconds (spec section 2 QR). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { QrCodeData } from '@tp/contract';
import { api } from '../../../lib/api-client';

export const qrConfigQuery = queryOptions({
  queryKey: ['QR_CONFIG'],
  queryFn: () => api<QrCodeData>('/auth/access/qrCodeData'),
});

/** The base64 PNG, refetched every `ttl` seconds while the screen is shown. */
export function useQrImage(ttlSeconds: number | undefined) {
  return useQuery({
    queryKey: ['QR_IMAGE'],
    enabled: Boolean(ttlSeconds),
    gcTime: 0,
    staleTime: 0,
    queryFn: () => api<string>('/auth/access/qr', { responseType: 'text' }),
    refetchInterval: ttlSeconds ? ttlSeconds * 1000 : false,
    refetchIntervalInBackground: false,
  });
}
export const useQrConfig = () => useQuery(qrConfigQuery);
