/**
 * Installs the standalone panel as an offline web app (issue 10 point 3): once the holder is signed in,
 * the service worker (vite-plugin-pwa / Workbox, configured in vite.config.ts) is registered. Never on
 * the LOGIN screen's first load (its bytes stay within budget: the registration code is loaded here on
 * demand) and never inside an embed, where the host page owns the browsing context.
 */
import { useEffect } from 'react';
import { useSignedIn } from '../lib/session';
import { embedMode } from '../lib/host-bridge';

/** Read as the page loads, before the worker this page registers can take control (app/offline-app.ts). */
const servedByWorker = typeof navigator !== 'undefined' && Boolean(navigator.serviceWorker?.controller);

/**
 * @param ready false while the first QR is not yet drawn (lib/first-screen.ts): workbox-window and the
 *   registration wait for it (issue 30); the service worker already in control serves the start meanwhile.
 */
export function useOfflineApp(ready = true): void {
  const signedIn = useSignedIn();
  useEffect(() => {
    if (!ready || !signedIn || embedMode !== 'standalone' || !('serviceWorker' in navigator)) return;
    void import('./offline-app').then((m) => m.installOfflineApp(servedByWorker));
  }, [signedIn, ready]);
}
