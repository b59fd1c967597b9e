/**
 * Builds the organiser's console (src/console, decision 024) into dist/console: its index.html, which the API
 * serves at /console with a strict CSP, and hashed assets under /console/assets/. A second entry of the panel's
 * workspace (same React, i18next, TanStack Query and react-hook-form stack, the panel's ui/ components and theme
 * tokens), built on its own so the holder panel never loads a byte of it (its size budgets stay as they were).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { resolveContractSource } from './vite.shared.ts';

export default defineConfig({
  root: fileURLToPath(new URL('src/console', import.meta.url)),
  base: '/console/',
  resolve: resolveContractSource,
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' })],
  build: {
    outDir: fileURLToPath(new URL('dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: false,
    // The CSP allows no inline script or style: keep every asset a file.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
