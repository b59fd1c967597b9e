/** Builds the demo host page's script (src/demo-host/demo-host.ts) as one classic script, dist/demo-host.js. */
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { resolveContractSource } from './vite.shared.ts';

export default defineConfig({
  resolve: resolveContractSource,
  // Brotli and gzip copies, served by Accept-Encoding like the panel's.
  plugins: [compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' })],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2019',
    sourcemap: false,
    copyPublicDir: false,
    lib: { entry: 'src/demo-host/demo-host.ts', formats: ['iife'], name: 'DemoHost', fileName: () => 'demo-host.js' },
  },
});
