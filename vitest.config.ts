import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'] },
      },
      {
        extends: true,
        test: {
          name: 'api',
          sequence: { groupOrder: 1 },
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/helpers/api-global-setup.ts'],
          setupFiles: ['tests/helpers/api-setup.ts'],
          // Each file starts its own servers (most in the test's process, tests/helpers/app-server.ts);
          // two cores. A worker's files share its modules: the server's code is loaded once per
          // worker, not once per file (45 s of imports in a run were 7), and no file depends on
          // what another left in a module (servers are stopped after each file, api-setup.ts).
          fileParallelism: true,
          isolate: false,
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
