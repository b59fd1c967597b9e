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
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
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
    // The boundary rule checks resolved files: without TypeScript's extensions every relative import
    // of a .ts/.tsx module stays unresolved and the rule silently passes it.
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })] },
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
  // Query keys come only from the factory (lib/query-keys.ts): no array literal as a key or invalidation.
  {
    files: ['apps/panel/src/**/*.{ts,tsx}'],
    ignores: ['apps/panel/src/lib/query-keys.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='queryKey'] > ArrayExpression",
          message: 'Query keys come from lib/query-keys.ts.',
        },
        {
          selector: 'CallExpression[callee.property.name=/^(get|set)QueryData$/] > ArrayExpression',
          message: 'Query keys come from lib/query-keys.ts.',
        },
      ],
    },
  },
  // The one listbox: its options are chosen from the keyboard through the owner's aria-activedescendant
  // (WAI-ARIA listbox pattern, focus stays on the input or button), so an option's click handler is the
  // pointer's path and has no key handler of its own. Everywhere else the rule holds.
  {
    files: ['apps/panel/src/ui/listbox.tsx'],
    rules: { 'jsx-a11y/click-events-have-key-events': 'off' },
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
