import { readFile, readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
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

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: 'src/client/routes',
      generatedRouteTree: 'src/client/routeTree.gen.ts',
      autoCodeSplitting: true,
    }),
    react(),
    tailwindcss(),
    precompress(),
  ],
  resolve: { tsconfigPaths: true },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    watch: { ignored: ['**/data/**', '**/playwright-report/**', '**/test-results/**'] },
    proxy: {
      '/api': `http://127.0.0.1:${process.env.API_PORT ?? 3001}`,
      '/config.json': `http://127.0.0.1:${process.env.API_PORT ?? 3001}`,
    },
  },
})
