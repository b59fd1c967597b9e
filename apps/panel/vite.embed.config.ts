/** Builds the embed loader (src/embed/loader.ts) as one small classic script, dist/embed.js, next to the panel build. */
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { resolveContractSource } from './vite.shared.ts';

export default defineConfig({
  resolve: resolveContractSource,
  plugins: [compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' })],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2019',
    sourcemap: false,
    copyPublicDir: false,
    lib: { entry: 'src/embed/loader.ts', formats: ['iife'], name: 'TicketPanelLoader', fileName: () => 'embed.js' },
  },
});
