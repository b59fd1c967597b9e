/**
 * The Vitest configuration of mutation testing (stryker.config.mjs, docs/mutation.md): the contract's unit tests and
 * the API suite on PGlite, as in vitest.config.ts, without the timing lane (its files measure time, which a mutated,
 * instrumented build and one worker would only make flaky). `@tp/contract` resolves to the contract's source
 * beside this file: in Stryker's sandbox that is the mutated copy, whereas the workspace link in node_modules
 * (shared with the original tree) would lead back to the unmutated one.
 */
import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { timingFiles } from './vitest.config.js';

const contractSrc = fileURLToPath(new URL('./packages/contract/src/', import.meta.url));
const contractAlias = [
  { find: /^@tp\/contract$/, replacement: `${contractSrc}index.ts` },
  { find: /^@tp\/contract\/(.*)$/, replacement: `${contractSrc}$1.ts` },
];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contract',
          root: './packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        resolve: { alias: contractAlias },
        ssr: { resolve: { conditions: ['source', ...defaultServerConditions.filter((c) => c !== 'module')] } },
        test: {
          name: 'api-pglite',
          root: './apps/api',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...timingFiles],
          environment: 'node',
          globalSetup: ['./test/setup/global-pglite.ts'],
          setupFiles: ['./test/setup/close-databases.ts'],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
