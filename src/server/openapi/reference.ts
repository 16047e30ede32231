import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { Hono } from 'hono'
import type { AppEnv } from '@/server/http/context'
import { type Encoded, encode, sendEncoded } from '@/server/http/encoding'
import { ApiError } from '@/server/http/errors'
import { undocumented } from './describe'

/**
 * `/api/docs`: a browsable reference of `/api/openapi.json`, served whole by the app (Swagger UI
 * from the `swagger-ui-dist` package, no CDN: it works offline). The page passes the app's own
 * Content-Security-Policy: its scripts are files of this origin (the start-up code too, no inline
 * script), Swagger UI's inline styles are allowed by `style-src 'unsafe-inline'` as for the app,
 * and "Try it out" calls this origin only (`connect-src 'self'`).
 */

const DOCUMENT_URL = '/api/openapi.json'
const IMMUTABLE = 'public, max-age=31536000, immutable'

/** The files of swagger-ui-dist the page loads, and their types. */
const assetTypes: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
}

/** Starts Swagger UI; a file rather than an inline script, so the page needs no CSP of its own. */
const initScript = `'use strict'
window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(DOCUMENT_URL)},
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  deepLinking: true,
  // No call to the public validator service (the badge): the document is checked by our tests.
  validatorUrl: null,
  // The session cookie goes with "Try it out", as with any request of the app's own pages.
  withCredentials: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
})
`

/** A file of Swagger UI, compressed once per process (the bundle is 1.7 MB, 0.4 MB as brotli). */
const encodeFile = async (file: string): Promise<Encoded> => encode(await readFile(file))

export function apiReferenceRoutes(appName: string) {
  const require = createRequire(import.meta.url)
  const packageFile = require.resolve('swagger-ui-dist/package.json')
  const { version } = require(packageFile) as { version: string }
  const assetsDir = path.dirname(packageFile)
  // The version is in the path, so the files can be cached for good.
  const assetBase = `/api/docs/assets/${version}`
  const encoded = new Map<string, Promise<Encoded>>()

  const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(appName)} API reference</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="${assetBase}/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${assetBase}/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`

  return new Hono<AppEnv>()
    .get('/', undocumented, (c) => {
      c.header('Cache-Control', 'no-cache')
      return c.html(page)
    })
    .get('/init.js', undocumented, (c) => {
      c.header('Cache-Control', 'no-cache')
      c.header('Content-Type', 'text/javascript; charset=utf-8')
      return c.body(initScript)
    })
    .get('/assets/:version/:file', undocumented, async (c) => {
      const { file } = c.req.param()
      const type = assetTypes[file]
      if (c.req.param('version') !== version || !type) {
        throw new ApiError('not_found', 'Not found.')
      }
      let pending = encoded.get(file)
      if (!pending) {
        pending = encodeFile(path.join(assetsDir, file))
        encoded.set(file, pending)
        pending.catch(() => encoded.delete(file))
      }
      const content = await pending
      c.header('Content-Type', type)
      c.header('Cache-Control', IMMUTABLE)
      c.header('Vary', 'Accept-Encoding')
      return sendEncoded(c, content)
    })
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
