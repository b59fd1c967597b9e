import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

const api = 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/',
  // Brotli and gzip copies beside every text asset; the API serves them by Accept-Encoding.
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' })],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2020', sourcemap: false },
  server: { proxy: { '/v1': api, '/public': api, '/media': api, '/embed.js': api } },
});
