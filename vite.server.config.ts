import { defineConfig } from 'vite'

/**
 * Bundles the API server and the administrator CLI for Node (run with `node`, no devDependency);
 * dependencies stay in node_modules.
 */
export default defineConfig({
  publicDir: false,
  resolve: { tsconfigPaths: true },
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'dist/server',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      input: { main: 'src/server/main.ts', cli: 'src/cli/main.ts' },
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
})
