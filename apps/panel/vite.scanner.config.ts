/**
 * Builds the door scanner (src/scanner, a page of its own with no React) into dist/scanner: its
 * index.html, which the API serves at /scanner with a strict CSP, and hashed assets under
 * /scanner/assets/. Built apart from the panel so the scanner can later become an installable
 * offline app with its own scope (issue 10).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { resolveContractSource } from './vite.shared.ts';

export default defineConfig({
  root: fileURLToPath(new URL('src/scanner', import.meta.url)),
  base: '/scanner/',
  resolve: resolveContractSource,
  // Brotli and gzip copies, served by Accept-Encoding like the panel's.
  plugins: [compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' })],
  publicDir: false,
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
