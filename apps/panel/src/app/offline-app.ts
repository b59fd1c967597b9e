/**
 * Loaded on demand once the holder is signed in in the standalone panel (use-offline-app.ts): registers
 * the service worker (vite-plugin-pwa / Workbox) and links the web app manifest, which the build leaves
 * out of the document so the LOGIN screen carries neither (e2e/bytes.spec.ts). The manifest is the panel
 * language's (src/manifests.ts): installed from /es/, the app is Spanish and opens /es/ (issue 29).
 */
import { registerSW } from 'virtual:pwa-register';
import { langOf } from '@tp/contract/locale';

export function installOfflineApp(): void {
  if (!document.querySelector('link[rel="manifest"]')) {
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = `/manifest-${langOf(document.documentElement.lang)}.webmanifest`;
    document.head.append(link);
  }
  void registerSW({ immediate: true });
}
