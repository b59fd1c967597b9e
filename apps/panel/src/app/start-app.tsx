/**
 * The app's start (imported by the entry, main.tsx, once the first QR is on screen on a QR start): language from
 * the path, i18n, query client, host bridge (and the embedded session), then the app.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { initI18n, langFromPath } from '../lib/i18n';
import { rememberedLanguageUrl } from '../lib/embed-language';
import { queryClient } from '../lib/query-client';
import { embedMode, postToHost, startHeightReports } from '../lib/host-bridge';
import { configQuery, userQuery } from '../lib/queries';
import { qrConfigQuery, qrImageQuery } from '../features/qr/api/qr.api';
import { firstQrRequests, startsOnQr } from '../lib/first-screen';
import { App } from './app';

// Embedded, the language the holder chose before the host page reloaded wins over the host's (issue 23): the
// document is loaded again under that language's path, before anything renders or is asked for.
const relocate = rememberedLanguageUrl(window.location);
if (relocate) window.location.replace(relocate);

// A signed-in start on the QR screen (issue 30): its requests go out now, together and beside the catalogue,
// not after the catalogue, the render and each other (config, me, the pass's ttl and the server's image). The
// pass's ttl and the server's image are asked for once: by the first QR (features/qr/first-qr) on a standalone
// start, which ran before this module, else here. The device pass
// (IndexedDB, WebCrypto, the QR drawing) is in the QR screen's chunks, which the document preloads
// (vite.config.ts): it starts once they are evaluated (features/qr/prefetch).
if (startsOnQr && !relocate) {
  const first = firstQrRequests();
  void queryClient.prefetchQuery(configQuery);
  void queryClient.prefetchQuery(userQuery);
  void queryClient.prefetchQuery({ ...qrConfigQuery, queryFn: () => first.qrCodeData });
  void queryClient.prefetchQuery({ ...qrImageQuery, queryFn: () => first.qrImage });
  void import('../features/qr/prefetch').then((m) => m.prefetchDevicePass(queryClient));
}

// Only the active language's catalogue is fetched (lib/i18n); embedded, the session is restored from the
// refresh cookie meanwhile (lib/embed-dialog, loaded only there). The app renders once both are done.
const embedded =
  relocate || embedMode === 'standalone'
    ? null
    : import('../lib/embed-dialog').then((m) => m.startEmbedded()).catch(() => undefined); // signed out, then
if (!relocate)
  void Promise.all([initI18n(langFromPath(window.location.pathname)), embedded]).then(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </StrictMode>,
    );
    postToHost({ type: 'ready' });
    startHeightReports();
  });
