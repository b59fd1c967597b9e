/**
 * Installs the standalone panel as an offline web app (issue 10 point 3): once the holder is signed in,
 * the service worker (vite-plugin-pwa / Workbox, configured in vite.config.ts) is registered. Never on
 * the LOGIN screen's first load (its bytes stay within budget: the registration code is loaded here on
 * demand) and never inside an embed, where the host page owns the browsing context.
 */
import { useEffect } from 'react';
import { useSignedIn } from '../lib/session';
import { embedMode } from '../lib/host-bridge';

export function useOfflineApp(): void {
  const signedIn = useSignedIn();
  useEffect(() => {
    if (!signedIn || embedMode !== 'standalone' || !('serviceWorker' in navigator)) return;
    void import('./offline-app').then((m) => m.installOfflineApp());
  }, [signedIn]);
}
