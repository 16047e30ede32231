import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Context, Hono } from 'hono'
import { matchRoute } from '@/shared/routes'
import type { AppEnv } from './context'

export interface AppShell {
  html: string
  etag: string
}

/** Reads the built `index.html` once; undefined when the client has not been built. */
export function loadAppShell(clientDir: string): AppShell | undefined {
  const file = path.join(clientDir, 'index.html')
  if (!existsSync(file)) return undefined
  const html = readFileSync(file, 'utf8')
  return { html, etag: `"${createHash('sha1').update(html).digest('base64url')}"` }
}

const IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * Built files (hashed assets cached for a year), then the app shell for every other GET: 200 for a
 * route of the route table, 404 for anything else, never cached without revalidation.
 */
export function mountClient(app: Hono<AppEnv>, clientDir: string, shell: AppShell | undefined) {
  const serveFile = serveStatic<AppEnv>({
    root: clientDir,
    precompressed: true,
    onFound: (file, c) => {
      const hashed = c.req.path.startsWith('/assets/')
      c.header('Cache-Control', hashed ? IMMUTABLE : 'public, max-age=3600')
    },
  })
  app.use('*', async (c, next) => {
    // Only paths that look like files; `/` and routes fall through to the shell.
    const last = c.req.path.split('/').pop() ?? ''
    if (!last.includes('.') || last === 'index.html') return next()
    return serveFile(c as Context<AppEnv, string>, next)
  })
  // A missing build file is a plain 404: the HTML shell would only confuse a script or style load.
  app.on(['GET', 'HEAD'], '/assets/*', (c) => {
    c.header('Cache-Control', 'no-store')
    return c.text('Not found', 404)
  })

  app.on(['GET', 'HEAD'], '*', (c) => {
    if (!shell) {
      return c.text('The client is not built. Run `npm run build` (or `npm start`).', 503)
    }
    const status = matchRoute(c.req.path) ? 200 : 404
    c.header('Cache-Control', 'no-cache')
    c.header('Vary', 'Accept-Encoding')
    if (status === 200) {
      c.header('ETag', shell.etag)
      if (c.req.header('if-none-match') === shell.etag) return c.body(null, 304)
    }
    return c.html(shell.html, status)
  })
}
