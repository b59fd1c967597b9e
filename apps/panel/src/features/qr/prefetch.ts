/**
 * The device pass, started with the first screen's requests (main.tsx, issue 30, decision 023) before React
 * renders the QR screen: read from IndexedDB (POST /auth/access/pass-credential when it needs renewing, behind
 * a stored pass still valid). The screen's hook finds it in the query cache (same key and function). Loaded on
 * demand, in the QR screen's chunks: the LOGIN screen carries none of it.
 */
import type { QueryClient } from '@tanstack/react-query';
import { devicePassQuery } from './pass/use-pass';

/** Starts the device pass query in `queryClient`; failures are left to the screen's own query. */
export function prefetchDevicePass(queryClient: QueryClient): void {
  // Kept for the screen to take over (its hook drops it when the screen goes).
  void queryClient.prefetchQuery({ ...devicePassQuery(navigator.onLine), gcTime: 10_000 });
}
