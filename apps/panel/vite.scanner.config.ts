/**
 * Builds the door scanner (src/scanner, a page of its own with no React) into dist/scanner: its
 * index.html, which the API serves at /scanner with a strict CSP, and hashed assets under
 * /scanner/assets/. It installs and opens offline (issue 10): vite-plugin-pwa (Workbox) writes
 * dist/scanner/sw.js, which precaches the scripts and styles and keeps the page itself network-first
 * (the API serves no .html file, so the page is cached from its route), and the web app manifest.
 * The worker is registered with scope `/scanner` (the API sends `Service-Worker-Allowed` for it).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { resolveContractSource } from './vite.shared.ts';
import { languageManifests, scannerManifest } from './src/manifests.ts';

export default defineConfig({
  root: fileURLToPath(new URL('src/scanner', import.meta.url)),
  base: '/scanner/',
  resolve: resolveContractSource,
  // Brotli and gzip copies, served by Accept-Encoding like the panel's.
  plugins: [
    VitePWA({
      strategies: 'generateSW',
      registerType: 'autoUpdate',
      // main.ts registers it (virtual:pwa-register) with no inline script (CSP).
      injectRegister: false,
      scope: '/scanner',
      filename: 'sw.js',
      // English under the plugin's name; each language's is written by languageManifests(), and the page
      // links its language's (scanner.public.routes.ts).
      manifest: scannerManifest('en'),
      includeAssets: ['icon.svg'],
      workbox: {
        // The camera's QR decoder (zxing-wasm, ~0.9 MB) is kept too, so a door without BarcodeDetector scans offline.
        globPatterns: ['**/*.{js,css,svg,webmanifest,wasm}'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
        navigateFallback: null,
        // Control the open page at once, so its first visit is kept (main.ts).
        clientsClaim: true,
        skipWaiting: true,
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          {
            // The page (/scanner, ?lang=es): the network first, the last copy offline. Not only
            // navigations: main.ts fetches the page once the worker controls it, so the first visit
            // is kept too.
            urlPattern: ({ url }) => url.pathname === '/scanner',
            handler: 'NetworkFirst',
            options: {
              cacheName: 'scanner-page',
              networkTimeoutSeconds: 4,
              matchOptions: { ignoreSearch: true },
              expiration: { maxEntries: 4 },
            },
          },
        ],
      },
    }),
    languageManifests(scannerManifest),
    compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' }),
  ],
  // The camera's fallback decoder runs in a module worker (qr-decoder.worker.ts).
  worker: { format: 'es' },
  publicDir: fileURLToPath(new URL('src/scanner/public', import.meta.url)),
  build: {
    outDir: fileURLToPath(new URL('dist/scanner', import.meta.url)),
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: false,
    // The CSP allows no inline script or style: keep every asset a file.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
