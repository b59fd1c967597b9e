import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { resolveContractSource } from './vite.shared.ts';

export default defineConfig({
  plugins: [react()],
  resolve: resolveContractSource,
  test: { name: 'panel', root: import.meta.dirname, include: ['src/**/*.test.{ts,tsx}'], environment: 'jsdom' },
});
