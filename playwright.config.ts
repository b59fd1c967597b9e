import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from './e2e/chromium';

/**
 * End-to-end tests in Debian's Chromium, each worker against a server of its own started by e2e/global-setup.ts
 * (one per worker slot: its own PGlite data dir, SMTP pointed at a sink of its own; e2e/fixtures.ts).
 */
export default defineConfig({
  testDir: './e2e',
  // npm test runs the specs beside typecheck and Vitest (scripts/test.sh): a spec that audits many screens took
  // over 60 s on a loaded 2-core machine. A cap, not a measure: a passing test ends as soon as it is done.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  // Two workers, one per core: each has its own server, demo data and mail sink (e2e/global-setup.ts) and takes one spec
  // file at a time, in file order; a file's tests run in order on one worker (several share a beforeAll server,
  // an organisation or tickets from an earlier test), so not fullyParallel. With one worker the Playwright lane
  // ran alone for its last ~166 s of CI with one core idle (decision 028 sections 12 and 13).
  fullyParallel: false,
  workers: 2,
  // One retry: a test that fails twice fails the run; one that passes on its retry is reported as flaky.
  retries: 1,
  reporter: [['list']],
  globalSetup: './e2e/global-setup.ts',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: chromiumExecutable,
      args: chromiumArgs,
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
