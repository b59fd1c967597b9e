/** Builds the demo host page's script (src/demo-host/demo-host.ts) as one classic script, dist/demo-host.js. */
import { defineConfig } from 'vite';
import { resolveContractSource } from './vite.shared.ts';

export default defineConfig({
  resolve: resolveContractSource,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2019',
    sourcemap: false,
    copyPublicDir: false,
    lib: { entry: 'src/demo-host/demo-host.ts', formats: ['iife'], name: 'DemoHost', fileName: () => 'demo-host.js' },
  },
});
