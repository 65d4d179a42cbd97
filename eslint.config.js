// `npm run lint` (inside `npm test`): the recommended rules of ESLint, typescript-eslint and Astro, and
// the shop's own rules (eslint/rules.js): every interface string in the i18n modules, imports only
// downwards (pages → features → lib, and the features in their written order), no import circle, and never
// server code in a browser file.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import astro from 'eslint-plugin-astro';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { DOMAIN_ORDER } from './eslint/domains.js';
import shop from './eslint/rules.js';

export default defineConfig(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      'data-*/',
      '.astro/',
      'public/',
      'test-results/',
      'playwright-report/',
      'screenshots/',
      'bench-results/',
      'tmp/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx,astro}'],
    plugins: { shop },
    rules: {
      'shop/import-boundaries': 'error',
      'shop/no-import-cycle': 'error',
      // Islands read stores through useClientStore, whose hydration render matches the server's HTML.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@nanostores/react', message: 'Use useClientStore from ~/lib/client-store.ts.' },
            { name: 'zod', message: 'Import z from ~/lib/zod.ts (jitless in the browser: the CSP refuses its eval probe).' },
          ],
        },
      ],
    },
  },
  {
    // A test may set several domains' parts side by side; the code it tests keeps the order.
    files: ['src/**/*.{ts,tsx,astro}'],
    ignores: ['src/**/*.test.ts'],
    plugins: { shop },
    rules: { 'shop/domain-order': ['error', { order: DOMAIN_ORDER }] },
  },
  {
    // The import and the 1C exchange read → map → write in steps a reader can follow (docs/decisions/027).
    files: ['src/features/import/**/*.ts', 'src/features/exchange/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    files: ['src/lib/client-store.ts', 'src/lib/zod.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx,astro}'],
    ignores: ['src/lib/i18n/**', 'src/content/**', 'src/lib/seed/**', 'src/**/*.test.ts', 'src/features/exchange/cml-words.ts'],
    plugins: { shop },
    rules: { 'shop/no-cyrillic-literal': 'error' },
  },
);
