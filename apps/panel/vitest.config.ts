import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { resolveContractSource } from './vite.shared.ts';

export default defineConfig({
  plugins: [react()],
  resolve: resolveContractSource,
  test: {
    name: 'panel',
    root: import.meta.dirname,
    include: ['src/**/*.test.{ts,tsx}'],
    // Run in the `panel-tz` project (vitest.config.ts at the root): they change the process's time zone.
    exclude: [...configDefaults.exclude, 'src/features/tickets/calendar.test.ts'],
    environment: 'jsdom',
    // Each file still gets a jsdom window of its own, but in a VM context of a worker that stays up: jsdom's
    // modules load once per worker instead of once per file. Measured 2026-11-28 on a loaded 2-core machine: the
    // 54 files took 68 CPU s (jsdom's set-up 69% of it) in the default \`forks\` pool, 13 CPU s here (issue 42).
    pool: 'vmThreads',
    // A group of its own: Vitest runs projects of one group together only when their maxWorkers agree, and this
    // file's default (cores - 1) is not the main lane's 2 (vitest.config.ts). The panel's files run after the API's
    // and the contract's; in the forks pool they ran one at a time anyway (Vitest's rule for isolated files on 1 worker).
    sequence: { groupOrder: 1 },
    setupFiles: ['./vitest.setup.ts'],
  },
});
