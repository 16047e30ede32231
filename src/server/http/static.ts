import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import { isbot } from 'isbot'
import type { Context, Hono } from 'hono'
import { matchRoute } from '@/shared/routes'
import type { AppEnv } from './context'
import { sendEncoded } from './encoding'
import type { PageRenderer } from './pages'

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
export function mountClient(app: Hono<AppEnv>, clientDir: string, shell: AppShell | undefined, pages?: PageRenderer) {
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

  // A form of a page the server rendered, sent before the app took the page over (the forms say
  // `method="post"` so that nothing typed lands in a URL): the page again, nothing kept.
  app.post('*', (c, next) => {
    if (!matchRoute(c.req.path)) return next()
    const url = new URL(c.req.url)
    c.header('Cache-Control', 'no-store')
    return c.redirect(url.pathname + url.search, 303)
  })
  app.on(['GET', 'HEAD'], '*', async (c) => {
    if (!shell) {
      return c.text('The client is not built. Run `npm run build` (or `npm start`).', 503)
    }
    const status = matchRoute(c.req.path) ? 200 : 404
    c.header('Cache-Control', 'no-cache')
    c.header('Vary', 'Accept-Encoding')
    const url = new URL(c.req.url)
    // A crawler gets no error screen (features/errors): its 404 is the shell's.
    const rendered = status === 404 && isbot(c.req.header('user-agent')) ? undefined : pages?.page({
      url: url.pathname + url.search,
      cookie: c.req.header('cookie'),
      acceptLanguage: c.req.header('accept-language'),
    })
    if (rendered) {
      try {
        const page = await rendered
        c.header('Vary', 'Accept-Encoding, Cookie, Accept-Language')
        c.header('Content-Type', 'text/html; charset=UTF-8')
        c.header('ETag', page.etag)
        if (status === 200 && c.req.header('if-none-match') === page.etag) return c.body(null, 304)
        return sendEncoded(c, page.content, status)
      } catch (error) {
        // The shell still works: the browser renders the page.
        c.var.logger().error({ err: error }, 'the page could not be rendered on the server')
      }
    }
    if (status === 200) {
      c.header('ETag', shell.etag)
      if (c.req.header('if-none-match') === shell.etag) return c.body(null, 304)
    }
    return c.html(shell.html, status)
  })
}
