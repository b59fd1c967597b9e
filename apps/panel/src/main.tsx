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

const firstQr =
  embedMode === 'standalone' && startsOnQr
    ? import('./features/qr/first-qr').then((m) => m.firstQrShown).catch(() => undefined)
    : Promise.resolve();
void firstQr.then(() => import('./app/start-app'));
