/**
 * Loaded on demand once the holder is signed in in the standalone panel (use-offline-app.ts): registers
 * the service worker (vite-plugin-pwa / Workbox) and links the web app manifest, which the build leaves
 * out of the document so the LOGIN screen carries neither (e2e/bytes.spec.ts). The manifest is the panel
 * language's (src/manifests.ts): installed from /es/, the app is Spanish and opens /es/ (issue 29).
 */
import { registerSW } from 'virtual:pwa-register';
import { langOf } from '@tp/contract/locale';
import { reloadAtNextScreen } from './reload-at-next-screen';

/**
 * @param servedByWorker whether a service worker served this page when it loaded. A newer worker taking over reloads
 *   such a page at its next change of screen (its lazy chunks may be gone with the old version); a page no worker
 *   served loaded its files from the network and is not reloaded at all.
 */
export function installOfflineApp(servedByWorker: boolean): void {
  if (!document.querySelector('link[rel="manifest"]')) {
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = `/manifest-${langOf(document.documentElement.lang)}.webmanifest`;
    document.head.append(link);
  }
  void registerSW({
    immediate: true,
    onNeedReload: () => {
      if (servedByWorker) reloadAtNextScreen(() => window.location.reload());
    },
  });
}
