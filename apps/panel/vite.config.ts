import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2020', sourcemap: false },
  server: { proxy: { '/v1': api, '/public': api, '/media': api, '/embed.js': api } },
});
