import js from '@eslint/js'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * One import style (README, How it is built): another folder of `src` by its path from `src`
 * (`@/shared/auth`), the same folder or below by `./`, never a climb by `../`; no `.js` suffix
 * on our own TypeScript files.
 */
const importStyle = [
  { group: ['../*', '../**'], message: 'Import another folder of src as @/… (from src), not by climbing with ../.' },
  { group: ['./**/*.js', '@/**/*.js'], message: 'Import TypeScript files without a .js suffix.' },
]

/** Imports flow one way: shared ← server, shared ← client; never client ↔ server. */
const boundary = (from, forbidden) => ({
  files: [`src/${from}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...importStyle,
          ...forbidden.map((folder) => ({
            group: [`@/${folder}/**`, `@/${folder}`],
            message: `src/${from} must not import from src/${folder}.`,
          })),
        ],
      },
    ],
  },
})

export default tseslint.config(
  {
    ignores: [
      'dist',
      'data',
      'node_modules',
      'playwright-report',
      'test-results',
      'src/client/routeTree.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/only-throw-error': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    extends: [jsxA11y.flatConfigs.recommended],
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // TanStack Router throws redirects and not-found markers by design.
    files: ['src/client/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/only-throw-error': 'off' },
  },
  {
    files: ['tests/**', 'bench/**', 'scripts/**', 'src/cli/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests reach src as @/… and their helpers one folder up.
    files: ['tests/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../../src/**'], message: 'Import src as @/….' },
            { group: ['./**/*.js', '../helpers/*.js', '@/**/*.js'], message: 'Import TypeScript files without a .js suffix.' },
          ],
        },
      ],
    },
  },
  boundary('shared', ['client', 'server', 'cli']),
  boundary('client', ['server', 'cli']),
  boundary('server', ['client']),
)
