/**
 * The QR screen's own requests, started with the first screen's others (main.tsx, issue 30, decision 023)
 * before the catalogue is in and before React renders: the pass's ttl (GET /auth/access/qrCodeData), the
 * server's QR image (GET /auth/access/qr, not waiting for the ttl) and the device pass (IndexedDB; POST
 * /auth/access/pass-credential when it needs renewing). The screen's hooks find them in the query cache
 * (same keys and functions). Loaded on demand, in the QR screen's chunks: the LOGIN screen carries none of it.
 */
import type { QueryClient } from '@tanstack/react-query';
import { qrConfigQuery, qrImageQuery } from './api/qr.api';
import { devicePassQuery } from './pass/use-pass';

/** Starts the QR screen's queries in `queryClient`; failures are left to the screen's own queries. */
export function prefetchQr(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(qrConfigQuery);
  void queryClient.prefetchQuery(qrImageQuery);
  // Kept for the screen to take over (its hook drops it when the screen goes).
  void queryClient.prefetchQuery({ ...devicePassQuery(navigator.onLine), gcTime: 10_000 });
}
