import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { resolveContractSource } from './vite.shared.ts';
import { languageManifests, panelManifest } from './src/manifests.ts';
import { firstScreenPreload } from './src/first-screen-preload.ts';

const api = 'http://127.0.0.1:8080';

// index.html's inline script applies the stored theme before first paint (no flash); embedded, it is the
// organisation's partitioned cookie `tp.theme.<org>` (lib/storage, issue 23). Explained here, not in the document:
// every byte of the document counts in the LOGIN screen's budget (e2e/bytes.spec.ts).
export default defineConfig({
  base: '/',
  // Brotli and gzip copies beside every text asset; the API serves them by Accept-Encoding.
  plugins: [
    react(),
    // The installable, offline panel (issue 10, decision 010). Registered by app/use-offline-app.ts once
    // the holder is signed in, never in an embed. The document is served at /en/ and /es/ (with its CSP
    // and nonce): both are precached under the build's index.html revision, so a reload offline opens
    // the panel. API answers the panel shows offline (the user, tickets, configuration) are cached
    // network-first in `tp-personal` (lib/offline-data.ts), deleted at logout; QR images never are.
    VitePWA({
      injectRegister: false,
      registerType: 'autoUpdate',
      filename: 'sw.js',
      manifestFilename: 'manifest.webmanifest',
      includeManifestIcons: false,
      // The English manifest under its old name too (installs made before issue 29); each language's is written
      // by languageManifests() and linked by src/app/offline-app.ts.
      manifest: panelManifest('en'),
      workbox: {
        globPatterns: ['index.html', 'assets/**/*.{js,css,woff2,svg,png}', 'icons/*.png'],
        // The panel document exists only as /en/ and /es/ (the server fills in lang and the CSP nonce).
        manifestTransforms: [
          (entries) =>
            Promise.resolve({
              manifest: entries.flatMap((e) =>
                e.url === 'index.html'
                  ? [
                      { ...e, url: '/en/' },
                      { ...e, url: '/es/' },
                    ]
                  : [e],
              ),
              warnings: [],
            }),
        ],
        navigateFallback: null,
        // PANEL_TAB=… and other route parameters: /en/?PANEL_TAB=QR is the precached /en/.
        ignoreURLParametersMatching: [/.*/],
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          {
            urlPattern: ({ url, request }) =>
              request.method === 'GET' &&
              /^\/v1\/(auth\/me|auth\/access\/qrCodeData|list\/ticket_listing)(\/|\?|$)/.test(url.pathname),
            handler: 'NetworkFirst',
            options: { cacheName: 'tp-personal', networkTimeoutSeconds: 4 },
          },
          {
            // The organisation's panel configuration: not personal, kept across logouts.
            urlPattern: ({ url, request }) => request.method === 'GET' && url.pathname === '/v1/config',
            handler: 'NetworkFirst',
            options: { cacheName: 'tp-config', networkTimeoutSeconds: 4 },
          },
        ],
      },
    }),
    {
      // The manifest link is added with the service worker once signed in (src/app/offline-app.ts).
      name: 'tp:manifest-link-after-sign-in',
      enforce: 'post',
      transformIndexHtml: { order: 'post', handler: (html) => html.replace(/<link rel="manifest"[^>]*>/, '') },
    },
    languageManifests(panelManifest),
    // The first screen's catalogue and, for a QR start, its chunks preloaded by the document (issue 30).
    firstScreenPreload(),
    compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: false,
    // Every browser the panel supports has <link rel=modulepreload>.
    modulePreload: {
      polyfill: false,
      // "Use a passkey" on LOGIN (issue 47): its chunk is fetched when pressed, and its imports then; naming them all in
      // the LOGIN screen's chunk for preloading would cost the screen about 200 bytes of file names (its budget).
      resolveDependencies: (filename, deps) => (filename.includes('passkey-sign-in') ? [] : deps),
    },
    rolldownOptions: {
      // The document, and the first QR drawn before the app (features/qr/first-qr.ts, issue 30): an entry of its
      // own, which the document's inline script imports on a signed-in QR start, so that it shares chunks with
      // the app but never waits for the app's.
      input: { index: 'index.html', 'first-qr': 'src/features/qr/first-qr.ts' },
      output: {
        // Chunk hashes of 7 characters, not 8 (the least rolldown allows for this many chunks): every chunk names others
        // in its imports and preload lists, and random characters do not compress. Measured: the LOGIN screen 113.01 →
        // 112.82 kB brotli (size-limit), with the same code.
        chunkFileNames: 'assets/[name]-[hash:7].js',
        // What every screen needs goes out as one file: fewer requests and headers on the first screen.
        // Not the query persisters nor query-core's hydration: only the signed-in panel loads those (issue 20).
        advancedChunks: {
          groups: [
            {
              name: 'core',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/](react-query|query-core(?![\\/]build[\\/]modern[\\/]hydration\.js))|i18next|react-i18next|use-sync-external-store)[\\/]/,
            },
            // What the first QR (features/qr/first-qr.ts, an entry) shares with the app, without React: the API
            // client, storage, routing, the first screen's state. Else it would share a chunk that imports core.
            {
              name: 'boot',
              test: /src[\\/]lib[\\/](api-client|storage|host-bridge|offline-data|routing|first-screen)\.ts|contract[\\/]src[\\/](constants|embed|locale)\.ts|vite[\\/]preload-helper/,
            },
            // The sign-in screens' shared card and calls as one file: one request less on LOGIN.
            { name: 'auth', test: /src[\\/]features[\\/]auth[\\/](components[\\/]auth-card|api[\\/]auth\.api)\./ },
          ],
        },
      },
    },
  },
  resolve: resolveContractSource,
  server: { proxy: { '/v1': api, '/public': api, '/media': api, '/embed.js': api } },
});
