import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { findPostgresBin } from './scripts/postgres.js';

/**
 * API test files that measure time against real processes (avatar bursts, webhook fairness): `npm test` runs them one
 * at a time after the other Vitest suites, while Playwright ends in the other lane (scripts/test.sh). Each measures
 * against a baseline or a control server taken in the same test, on the machine as it is then (test/timing.ts), so a
 * busy neighbour lane moves both sides. The outage and shutdown files run in the main lane: their budgets are measured
 * on the machine as it is too (PostgreSQL's own start, a request's round trip: test/timing.ts `budgetMs`).
 */
export const timingFiles = [
  'test/avatar-burst.test.ts',
  'test/avatar-hostile.test.ts',
  // CPU-heavy image work under the 30 s cap: timed out (29.6 s) beside Playwright on a loaded machine.
  'test/avatar.test.ts',
  'test/webhook-fairness.test.ts',
];

/**
 * API test files that need the machine to themselves: `npm test` runs them last, alone. The import's event-loop test
 * holds `/healthz` to 100 ms at p99 (issue 24) against a rest measured before the import; beside Playwright the
 * other lane's load changes between the two (2026-11-28: p99 258 ms against 9 ms at rest, a fresh clone).
 */
export const quietFiles = ['test/import-no-freeze.test.ts'];

// TEST_LANE=timing or quiet: only the files above; TEST_LANE=main: everything else; unset: every test (plain
// `vitest run`).
const lane = process.env.TEST_LANE;
if (lane && !['main', 'timing', 'quiet'].includes(lane)) {
  throw new Error(`TEST_LANE=${lane}: expected main, timing or quiet`);
}
const apiOnly = lane === 'timing' || lane === 'quiet';

const apiProject = (name: string, globalSetup: string) => ({
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions.filter((c) => c !== 'module')] } },
  test: {
    name,
    root: './apps/api',
    include: lane === 'timing' ? timingFiles : lane === 'quiet' ? quietFiles : ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(lane === 'main' ? [...timingFiles, ...quietFiles] : [])],
    environment: 'node',
    globalSetup: [globalSetup],
    setupFiles: ['./test/setup/close-databases.ts'],
    // Files share a worker's modules: the app's imports and PGlite's compiled WebAssembly (pglite-proxy.ts) load
    // once per worker, not once per file (a third of the API files' CPU time). The app keeps no state in its
    // modules beyond caches, the tests mock no module, and each test builds its own app on its own database.
    isolate: false,
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
    // Vitest's default on 2 cores is 1 worker (cores - 1). The main lane uses 2: its files are independent (a database
    // each) and the cores are otherwise idle while a file waits; the timing and quiet lanes run their files one at a
    // time.
    ...(lane === 'main' && { maxWorkers: 2 }),
    ...(apiOnly && { fileParallelism: false }),
    projects: [
      // The timing and quiet lanes are API files only.
      ...(apiOnly
        ? []
        : [
            'apps/panel/vitest.config.ts',
            {
              test: {
                name: 'contract',
                root: './packages/contract',
                include: ['src/**/*.test.ts'],
                environment: 'node',
              },
            },
          ]),
      apiProject('api-pglite', './test/setup/global-pglite.ts'),
      ...(withPg ? [apiProject('api-pg', './test/setup/global-pg.ts')] : []),
    ],
  },
});
