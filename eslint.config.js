import js from '@eslint/js'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** Imports flow one way: shared ← server, shared ← client; never client ↔ server. */
const boundary = (from, forbidden) => ({
  files: [`src/${from}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: forbidden.map((folder) => ({
          group: [`**/${folder}/**`, `**/${folder}`],
          message: `src/${from} must not import from src/${folder}.`,
        })),
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
  boundary('shared', ['client', 'server', 'cli']),
  boundary('client', ['server', 'cli']),
  boundary('server', ['client']),
)
