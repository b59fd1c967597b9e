// @ts-check
/**
 * Mutation testing (Stryker; issue 43, docs/mutation.md): `npm run mutation` runs scripts/mutation.ts, which
 * mutates one group of files at a time with this configuration and prints each group's score. The tests are the
 * API suite on PGlite and the contract's unit tests (vitest.mutation.config.ts); each mutant runs only the tests
 * that cover it (coverageAnalysis perTest). Never part of `npm test` nor of CI's run.
 */

/**
 * The groups: the code that admits people at the door and the code that moves money. A `path:from-to` entry
 * mutates only those lines (the swap service's payment part).
 * @type {Record<string, string[]>}
 */
export const groups = {
  door: [
    'packages/contract/src/pass-code.ts',
    'packages/contract/src/admission.ts',
    'apps/api/src/modules/access/admissions.ts',
    'apps/api/src/modules/access/online-check-in.ts',
    'apps/api/src/modules/access/offline-sync.ts',
    'apps/api/src/modules/access/door-scope.ts',
  ],
  money: [
    'apps/api/src/modules/resale/order-purchase.ts',
    'apps/api/src/modules/resale/order-settlement.ts',
    'apps/api/src/modules/resale/order-redeem.ts',
    'apps/api/src/modules/resale/stripe-event.service.ts',
    'apps/api/src/modules/resale/payout-account.service.ts',
    'apps/api/src/providers/payouts/payout.provider.ts',
    // markPaid, cancel and confirm: the (sandbox) payment of an upgrade and what it unlocks.
    'apps/api/src/modules/swap/swap-reservation.ts:76-95',
    'apps/api/src/modules/swap/swap-confirm.ts',
  ],
};

// scripts/mutation.ts names the group it runs: each group's reports are its own.
const group = process.env.MUTATION_GROUP ?? 'all';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  // A static mutant (module-level code, run once at import) would need the whole suite re-run on a fresh module graph
  // for each; they are reported as ignored and listed in docs/mutation.md.
  ignoreStatic: true,
  // 2 cores shared: one test runner. Override with --concurrency.
  concurrency: 1,
  // Over each test's own time (× timeoutFactor 1.5): room for a loaded machine, while an endless loop a mutant makes
  // is cut soon enough.
  timeoutMS: 15_000,
  dryRunTimeoutMinutes: 60,
  thresholds: { high: 95, low: 90, break: 90 },
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${group}.html` },
  jsonReporter: { fileName: `reports/mutation/${group}.json` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  ignorePatterns: ['e2e', 'bench', 'docs', 'reports', 'test-results', 'playwright-report', '.data', 'dist'],
};
export default config;
