import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { resolveContractSource } from './vite.shared.ts';

const api = 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/',
  // Brotli and gzip copies beside every text asset; the API serves them by Accept-Encoding.
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: false,
    // Every browser the panel supports has <link rel=modulepreload>.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // What every screen needs goes out as one file: fewer requests and headers on the first screen.
        advancedChunks: {
          groups: [
            {
              name: 'core',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|i18next|react-i18next|use-sync-external-store)[\\/]/,
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
