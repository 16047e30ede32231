import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import js from '@eslint/js'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import { importX } from 'eslint-plugin-import-x'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * One import style (docs/architecture.md): another folder of `src` by its path from `src`
 * (`@/shared/auth`), the same folder or below by `./`, never a climb by `../`; no `.js` suffix
 * on our own TypeScript files.
 */
const importStyle = [
  { group: ['../*', '../**'], message: 'Import another folder of src as @/… (from src), not by climbing with ../.' },
  { group: ['./**/*.js', '@/**/*.js'], message: 'Import TypeScript files without a .js suffix.' },
]

/** A flat-config entry forbidding `patterns` (besides the import style) in `files`. */
const restrictImports = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [...importStyle, ...patterns] }] },
})

/** Imports of another folder of src (`@/client`, `@/client/features/home`) and anything in it. */
const folderPatterns = (folders, message) =>
  folders.map((folder) => ({ group: [`@/${folder}/**`, `@/${folder}`], message: message(folder) }))

/** Imports flow one way: shared ← server, shared ← client; never client ↔ server. */
const layers = {
  shared: ['client', 'server', 'cli'],
  client: ['server', 'cli'],
  server: ['client'],
}
const layerPatterns = (from) => folderPatterns(layers[from], (folder) => `src/${from} must not import from src/${folder}.`)
const boundary = (from) => restrictImports([`src/${from}/**/*.{ts,tsx}`], layerPatterns(from))

/**
 * The server's rooms, lowest first: a room imports only the rooms before it (and the files at the
 * top of src/server that no room owns: config, paths, logger, redis, error-chain), so no two rooms
 * import each other, directly or round a loop. app.ts, instance.ts and main.ts compose them all.
 * - db: the schema, the connections, error classification
 * - events: the live events' bus and hub (stored in the database)
 * - audit: recording who changed what (in the database, published as a live event)
 * - mail: sending email
 * - http: request plumbing (errors, bodies, security headers, rate limits)
 * - auth: better-auth, sessions, roles and sign-in rules
 * - openapi: the API's description
 * - api: the routes
 */
const serverRooms = ['db', 'events', 'audit', 'mail', 'http', 'auth', 'openapi', 'api']
const serverTopFiles = ['config', 'paths', 'logger', 'redis', 'error-chain']
const serverRoomBoundary = (room, index) =>
  restrictImports(
    [`src/server/${room}/**/*.{ts,tsx}`],
    [
      ...layerPatterns('server'),
      ...folderPatterns(
        serverRooms.slice(index + 1).map((later) => `server/${later}`),
        (later) =>
          `src/server/${room} must not import from src/${later}: the server's rooms import only earlier ones (${serverRooms.join(' → ')}).`,
      ),
    ],
  )
const serverTopFilesBoundary = restrictImports(
  serverTopFiles.map((name) => `src/server/${name}.ts`),
  [
    ...layerPatterns('server'),
    ...folderPatterns(
      serverRooms.map((room) => `server/${room}`),
      (room) => `The files at the top of src/server are below every room: they must not import from src/${room}.`,
    ),
  ],
)

/**
 * The client's features: the folders of src/client/features, where a folder holding only folders
 * (admin) groups features (admin/levels, admin/audit). Read from the disk, so a new one is covered.
 */
function featuresIn(dir, prefix = '') {
  const entries = readdirSync(dir, { withFileTypes: true })
  const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name)
  if (prefix && entries.some((entry) => entry.isFile())) return [prefix]
  return folders.flatMap((name) => featuresIn(join(dir, name), prefix ? `${prefix}/${name}` : name))
}
const features = featuresIn(join(import.meta.dirname, 'src/client/features'))

/**
 * A feature does not reach into another one (as in bulletproof-react): routes/ and main.tsx compose
 * features; what several need lives in components/, api/ or lib/. These entries come after the
 * client's boundary and repeat its patterns: a later entry replaces the rule's options.
 */
const featureBoundary = (feature) =>
  restrictImports(
    [`src/client/features/${feature}/**/*.{ts,tsx}`],
    [
      ...layerPatterns('client'),
      ...folderPatterns(
        features.filter((other) => other !== feature).map((other) => `client/features/${other}`),
        (folder) =>
          `src/client/features/${feature} must not import from src/${folder}: compose them in a route, or move what both need to components/, api/ or lib/.`,
      ),
    ],
  )

/** The client's shared code (components, server reads, plumbing) knows no feature and no route. */
const sharedClientCode = ['components', 'api', 'lib'].map((folder) =>
  restrictImports(
    [`src/client/${folder}/**/*.{ts,tsx}`],
    [
      ...layerPatterns('client'),
      ...folderPatterns(
        ['client/features', 'client/routes'],
        (imported) => `src/client/${folder} is shared by the features: it must not import from src/${imported}.`,
      ),
    ],
  ),
)

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
  {
    // No import cycles in src, by static or dynamic import alike (a cycle through type-only
    // imports is erased at build time and allowed): a module's dependencies evaluate before it.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: import.meta.dirname })],
    },
    rules: { 'import-x/no-cycle': ['error', { allowUnsafeDynamicCyclicDependency: false }] },
  },
  boundary('shared'),
  boundary('client'),
  boundary('server'),
  ...serverRooms.map(serverRoomBoundary),
  serverTopFilesBoundary,
  ...features.map(featureBoundary),
  ...sharedClientCode,
)
