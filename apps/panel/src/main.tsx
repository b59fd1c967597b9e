/**
 * The entry (issue 30, decision 023): small and free of React, so that on a standalone signed-in start on the
 * QR screen the first QR (features/qr/first-qr.ts) is drawn from what the device holds, or from the server's
 * first answer, before the app's code (React, TanStack Query, i18next: app/start-app.tsx) is evaluated on a
 * slow phone's CPU. The document preloads both (first-screen-preload.ts), so nothing waits for the network
 * here: only the evaluation of the app waits until the first QR is on screen (or will not be, or
 * `FIRST_QR_WAIT_MS` has passed).
 */
import { embedMode } from './lib/host-bridge';
import { startsOnQr } from './lib/first-screen';
import './app/styles.css';

document.documentElement.dataset.embed = embedMode;

// Embedded, the language the holder chose before the host page reloaded wins over the host's (issue 23): the
// document is loaded again under that language's path before the app starts. Standalone, the path is the language.
const relocated: Promise<boolean> =
  embedMode === 'standalone'
    ? Promise.resolve(false)
    : import('./lib/embed-language')
        .then((m) => {
          const url = m.rememberedLanguageUrl(window.location);
          if (url) window.location.replace(url);
          return url !== null;
        })
        .catch(() => false);
const firstQr =
  embedMode === 'standalone' && startsOnQr
    ? import('./features/qr/first-qr').then((m) => m.firstQrShown).catch(() => undefined)
    : Promise.resolve();
void Promise.all([relocated, firstQr]).then(([moved]) => {
  if (!moved) void import('./app/start-app');
});
