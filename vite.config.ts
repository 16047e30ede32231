import { readFile, readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import tailwindcss from '@tailwindcss/vite'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { type Plugin, defineConfig } from 'vite'

/** Writes `.br` and `.gz` beside every text asset so the server never compresses at request time. */
function precompress(): Plugin {
  let outDir = 'dist/client'
  return {
    name: 'lingua:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir)
    },
    async closeBundle() {
      // The server bundle of the pages (dist/ssr) is read from disk by the server, not sent.
      if (this.environment.config.build.ssr) return
      const files = await readdir(outDir, { recursive: true })
      await Promise.all(
        files
          .filter((file) => /\.(js|css|html|svg|json|txt|webmanifest)$/.test(file))
          .map(async (file) => {
            const full = path.join(outDir, file)
            const data = await readFile(full)
            if (data.length < 1024) return
            await writeFile(`${full}.gz`, gzipSync(data, { level: 9 }))
            await writeFile(
              `${full}.br`,
              brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
            )
          }),
      )
    },
  }
}

/**
 * src/client/main.tsx and the modules it imports statically, directly or not: every page runs all
 * of them when the app starts, so they are one chunk rather than twenty (main in it too: boot.ts's
 * import then asks for this one chunk, and every page saves a request and 0.4 KB gzip). Each chunk
 * is a request the browser starts on the main thread, where Vite's preload of twenty-odd chunks
 * was a long task of its own on a slow phone (bench/lighthouse.mjs), and on HTTP/1.1 six requests
 * go at a time. No page loads more than before: they all loaded every one of these.
 */
function startChunk() {
  const main = fileURLToPath(new URL('src/client/main.tsx', import.meta.url))
  const modules = new Set<string>()
  const plugin: Plugin = {
    name: 'lingua:start-chunk',
    apply: 'build',
    buildEnd() {
      if (this.environment.config.build.ssr) return
      const pending = [main]
      for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
        if (modules.has(id)) continue
        modules.add(id)
        pending.push(...(this.getModuleInfo(id)?.importedIds ?? []))
      }
    },
  }
  // TanStack Query's index is imported for `queryOptions` alone; the rest of it, captured here, would
  // be kept in the chunk: pages load it when they first query (the `query` group).
  return { plugin, test: (id: string) => modules.has(id) && !queryCache.test(id) }
}
/**
 * TanStack Query but `queryOptions` (a function that returns its argument), which stays in the
 * start chunk: a module that only declares reads does not load the cache (the level form's page,
 * which writes).
 */
const queryCache = /node_modules\/@tanstack\/(react-query|query-core)\/(?!build\/modern\/queryOptions\.js$)/
const start = startChunk()
/**
 * In the start chunk as well: the page title and heading every page shows (the 404 screen too), and
 * the interface's own few words (Close, Cancel, Loading…, Show password), which tables, dialogs,
 * toasts and password fields share — a chunk of their own was a request of 0.2 KB on most pages.
 */
const pageTitle = /src\/client\/(lib\/page-title\.ts|components\/ui\/(page-heading\.tsx|messages\.ts))$/

/**
 * The browser bundle (dist/client), and with `--ssr src/client/entry-server.tsx --outDir dist/ssr`
 * the server's bundle of the same pages (src/server/http/pages.ts renders visitors' pages with it):
 * self-contained (no dependency read from node_modules at run time) and built for production.
 */
export default defineConfig(({ isSsrBuild }) => ({
  ...(isSsrBuild
    ? { ssr: { noExternal: true }, define: { 'process.env.NODE_ENV': JSON.stringify('production') } }
    : {}),
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: 'src/client/routes',
      generatedRouteTree: 'src/client/routeTree.gen.ts',
      autoCodeSplitting: true,
    }),
    react(),
    start.plugin,
    tailwindcss(),
    precompress(),
  ],
  resolve: {
    tsconfigPaths: true,
    // TanStack Store asks for the shim of `useSyncExternalStore` (for React before 18); React 19 has
    // it, and the package's own entry without the shim uses it (0.5 KB gzip less on every page).
    alias: [
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector' },
    ],
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    target: 'es2022',
    // No polyfill of `<link rel="modulepreload">` in the entry: every browser of the last three
    // years has it (Safari since 17), and one without only fetches the modules when imported.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Vite's preload helper in a chunk of its own, not in the entry (src/client/boot.ts): a
          // chunk that imports from the entry is given the entry's stylesheet to load with it,
          // which a page the server rendered holds inline (a second copy otherwise).
          groups: [
            { name: 'preload-helper', test: /vite\/preload-helper/, priority: 2 },
            { name: 'start', test: (id: string) => start.test(id) || pageTitle.test(id), priority: 1 },
            // The forms' library and the app's hooks over it, loaded by every page with a form, as
            // one file; not what they import (the error sentences…), which pages without a form load
            // too. (Their validation, zod and the resolver, still comes when a form is first used.)
            {
              name: 'forms',
              test: /node_modules\/react-hook-form\/|src\/client\/lib\/(use-action|form-resolver|use-form-mutation)\.ts$/,
              includeDependenciesRecursively: false,
            },
            // The sign-in page and its passkey button, which the code sign-in step (loaded when
            // chosen, from this page only) shares: one file rather than two.
            {
              name: 'login',
              test: /src\/client\/(routes\/login\.tsx\?tsr-split|features\/auth\/(login-page|passkey-sign-in)\.tsx$)/,
              includeDependenciesRecursively: false,
            },
            // TanStack Query and the app's client of it: a page that reads data loads them all, as
            // one file rather than three (about 2 KB gzip less for each such page).
            {
              name: 'query',
              test: (id: string) => queryCache.test(id) || id.includes('src/client/lib/query-client'),
            },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    watch: { ignored: ['**/data/**', '**/playwright-report/**', '**/test-results/**'] },
    proxy: {
      '/api': `http://127.0.0.1:${process.env.API_PORT ?? 3001}`,
      '/config.json': `http://127.0.0.1:${process.env.API_PORT ?? 3001}`,
    },
  },
}))
