import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { findPostgresBin } from './scripts/postgres.js';

const apiProject = (name: string, globalSetup: string) => ({
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
  test: {
    name,
    root: './apps/api',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: [globalSetup],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

// The PostgreSQL run needs Debian's postgresql; CI (.ci/run) installs it. Locally it is skipped
// with a notice when absent; under CI its absence fails the run.
const withPg = Boolean(findPostgresBin()) || Boolean(process.env.CI);
if (!withPg) console.warn('[vitest] PostgreSQL binaries not found: skipping the api-pg project');

export default defineConfig({
  test: {
    projects: [
      'apps/panel/vitest.config.ts',
      { test: { name: 'contract', root: './packages/contract', include: ['src/**/*.test.ts'], environment: 'node' } },
      apiProject('api-pglite', './test/setup/global-pglite.ts'),
      ...(withPg ? [apiProject('api-pg', './test/setup/global-pg.ts')] : []),
    ],
  },
});
