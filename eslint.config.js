// @ts-check
/**
 * ESLint flat config: type-aware typescript-eslint, React hooks and jsx-a11y in the panel, and the
 * house's import boundaries (features never import other features or app/; Drizzle only in
 * repositories and db/). Formatting is Prettier's job (`npm run format:check`).
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import { readdirSync } from 'node:fs';

const panelFeatures = readdirSync(new URL('./apps/panel/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      'test-results/**',
      'playwright-report/**',
      'apps/api/src/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  // The panel: browser code with React.
  {
    files: ['apps/panel/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y, 'import-x': importX },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // Features never import each other: shared code moves to ui/ or lib/.
            ...panelFeatures.map((feature) => ({
              target: `./apps/panel/src/features/${feature}`,
              from: './apps/panel/src/features',
              except: [`./${feature}`],
              message: 'Features never import other features: move shared code to ui/ or lib/.',
            })),
            // Features, lib and ui never reach into app/ (the composition root).
            {
              target: ['./apps/panel/src/features', './apps/panel/src/lib', './apps/panel/src/ui'],
              from: './apps/panel/src/app',
              message: 'Only app/ composes features; nothing imports app/.',
            },
            // Shared code never depends on a feature.
            {
              target: ['./apps/panel/src/lib', './apps/panel/src/ui'],
              from: './apps/panel/src/features',
              message: 'lib/ and ui/ are shared: they never import a feature.',
            },
          ],
        },
      ],
    },
  },
  // The API: SQL (Drizzle) lives only in repositories and db/.
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/**/*.repository.ts', 'apps/api/src/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'drizzle-orm', message: 'SQL lives only in repositories and db/.' }],
          patterns: [{ group: ['drizzle-orm/*'], message: 'SQL lives only in repositories and db/.' }],
        },
      ],
    },
  },
);
