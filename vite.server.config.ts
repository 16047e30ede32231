import { defineConfig } from 'vite'

/**
 * Bundles the API server and the administrator CLI for Node (run with `node`, no devDependency).
 * The dependencies are bundled in too: Node spent about a second loading their thousands of
 * files (resolving, reading and compiling each; better-auth and its passkey plugin alone 0.55 s),
 * most of a cold start (bench/cold-start.mjs). Those left in node_modules load files of their own
 * at run time (PGlite's WebAssembly, sharp's native binary, pino's worker transports) or are
 * CommonJS with optional requires (pg, ioredis, nodemailer).
 */
export default defineConfig({
  publicDir: false,
  resolve: { tsconfigPaths: true },
  ssr: { noExternal: true, external: ['@electric-sql/pglite', 'sharp', 'pino', 'pg', 'ioredis', 'nodemailer'] },
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'dist/server',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      input: { main: 'src/server/main.ts', cli: 'src/cli/main.ts', 'import-planner': 'src/server/api/imports/anki-planner-child.ts', 'import-writer': 'src/server/api/imports/anki-writer-child.ts', 'memory-model-fitter': 'src/server/api/practice/memory-model-child.ts' },
      // Chunks beside the entries: a module forks an entry by its path from itself (jobs/child-process.ts).
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    },
  },
})
