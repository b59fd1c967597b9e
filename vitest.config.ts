import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { findPostgresBin } from './scripts/postgres.js';
import { resolveContractSource } from './apps/panel/vite.shared.js';

/**
 * API test files that measure time against real processes (avatar bursts, event-loop stalls, webhook fairness):
 * `npm test` runs them in a lane of their own, after the other suites and Playwright, so that nothing else competes
 * for the cores while they measure (scripts/test.sh); those of them in `waitingFiles` after that, beside lighter
 * work. The outage and shutdown files run in the main lane: their
 * budgets are measured on the machine as it is (PostgreSQL's own start, a request's round trip: test/timing.ts
 * `budgetMs`), and their 37 s are mostly waiting, which beside the main lane costs CI nothing while Playwright is
 * the longer side.
 */
export const timingFiles = [
  'test/avatar-burst.test.ts',
  'test/avatar-hostile.test.ts',
  'test/avatar-png-flood.test.ts',
  // CPU-heavy image work under the 30 s cap: timed out (29.6 s) beside Playwright on a loaded machine.
  'test/avatar.test.ts',
  'test/webhook-fairness.test.ts',
  'test/import-no-freeze.test.ts',
  // 30 Apple pass downloads a second against a real server while /healthz is timed (issue 39, break 5).
  'test/wallet-signing-load.test.ts',
  // A hung APNs, a stalling SMTP relay, a silent Google endpoint: real sockets and their timeouts (issue 39).
  'test/outbound-timeouts.test.ts',
  // Reused SMTP connections: a sink counting connections, a stalled send closed at its bound (issue 44).
  'test/mail-connections.test.ts',
  // The default bounds' event-loop delay (1 s) was passed beside the whole suite on a loaded machine.
  'test/load-shedding.test.ts',
  // The mail fairness tests bound a holder's code in rounds of a few ms sends (2.5 s, 3.5 slow bounds): one failed
  // beside the main lane in CI (stop 55); 31 s a database alone.
  'test/job-queue.test.ts',
  // A refusal before any decoding is told from one stopped at the 2 s CPU budget by its time (1.5 s): 1.7 s in CI
  // beside the main lane (stop 55's CI run); 8 s alone, PGlite only.
  'test/image-budget.test.ts',
  // Starts `db:` processes and servers one after another (105 s alone on PostgreSQL): over 400 s and past its test
  // timeouts beside the main lane in loaded CI runs (stops 55 and 56).
  'test/db-transfer.test.ts',
];

/**
 * API test files whose subject is the same on both databases: the process, HTTP, configuration, images or static
 * files, never a query. They run in the PGlite project only (issue 42: the main lane's CPU; each file's header says
 * so). A file here that starts a server without DATABASE_URL ran it on PGlite in the PostgreSQL project too, on a
 * fresh data directory without the template: the same test, dearer. Files that differ by database in any way (the
 * import's row limit in keep-alive.test.ts, a server on PostgreSQL in shutdown and mail-kill) stay in both.
 */
export const oneDatabaseFiles = [
  // Configuration parsing; its one spawned server exits on the production guard before opening a database.
  'test/config.test.ts',
  // The busy port's one line and the start banner; the server's database was PGlite in both projects.
  'test/server-start.test.ts',
  // The key files a started server writes to DATA_DIR; its database was PGlite in both projects.
  'test/organisations-process.test.ts',
  // Image decoding budgets (scans, CPU, colour profiles, PNG text) in the decoding processes.
  'test/image-budget.test.ts',
  // The SVG policy on parsed documents; its one upload is refused before anything is stored.
  'test/avatar-svg-policy.test.ts',
  // Node's HTTP server timeouts on a listening socket.
  'test/server-timeouts.test.ts',
  // Response headers of pages and answers.
  'test/security-headers.test.ts',
  // The panel's and the console's built files over HTTP.
  'test/static.test.ts',
  'test/console-page.test.ts',
];

/**
 * The `timingFiles` that mostly wait on real sockets and timers (a hung APNs, a stalled SMTP relay, a slow webhook
 * receiver) and use little CPU while they do (together about 0.2 of a core: 31 CPU s in 135 s on both databases,
 * decision 028 section 15), with bounds far above their figures: they need no machine to themselves, only not the
 * first phase's four workers. `npm test` runs them after the other timing files, one at a time, beside what the
 * caller gives (CI: the backup drill and the Node 22 quick start; scripts/test.sh), not beside the timing files that
 * measure CPU (avatar work, event-loop stalls), which share the machine with nothing.
 */
export const waitingFiles = [
  'test/outbound-timeouts.test.ts',
  'test/mail-connections.test.ts',
  'test/webhook-fairness.test.ts',
];

// TEST_LANE=timing: `timingFiles` less `waitingFiles`; TEST_LANE=waiting: `waitingFiles`; TEST_LANE=main: every
// other file; unset: every test (plain `vitest run`).
const lane = process.env.TEST_LANE;
if (lane && lane !== 'main' && lane !== 'timing' && lane !== 'waiting')
  throw new Error(`TEST_LANE=${lane}: expected main, timing or waiting`);
const laneFiles: Record<string, string[]> = {
  timing: timingFiles.filter((f) => !waitingFiles.includes(f)),
  waiting: waitingFiles,
};

const apiProject = (name: string, globalSetup: string, skip: string[] = []) => ({
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions.filter((c) => c !== 'module')] } },
  test: {
    name,
    root: './apps/api',
    include: (lane ? laneFiles[lane] : undefined) ?? ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(lane === 'main' ? timingFiles : []), ...skip],
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

/** Panel test files that set process.env.TZ (run in the `panel-tz` project, forks). */
const PANEL_TZ_FILES = ['src/features/tickets/calendar.test.ts'];

export default defineConfig({
  test: {
    // Vitest's default on 2 cores is 1 worker (cores - 1). The main lane uses 2: its files are independent (a database
    // each) and the cores are otherwise idle while a file waits; the timing and waiting lanes run their files one at a
    // time (two waiting files at once at load 17: the APNs test passed its 30 s cap, decision 028 section 15).
    ...(lane === 'main' && { maxWorkers: 2 }),
    ...((lane === 'timing' || lane === 'waiting') && { fileParallelism: false }),
    projects: [
      // The timing and waiting lanes are API files only.
      ...(lane === 'timing' || lane === 'waiting'
        ? []
        : [
            'apps/panel/vitest.config.ts',
            // The panel's files that change the process's time zone (process.env.TZ): in a process of their own, since
            // the panel's vmThreads workers share one (calendar.test.ts: the .ics made in a New York browser).
            {
              resolve: resolveContractSource,
              test: {
                name: 'panel-tz',
                root: './apps/panel',
                include: PANEL_TZ_FILES,
                environment: 'jsdom',
                pool: 'forks',
                setupFiles: ['./vitest.setup.ts'],
              },
            },
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
      ...(withPg ? [apiProject('api-pg', './test/setup/global-pg.ts', oneDatabaseFiles)] : []),
    ],
  },
});
