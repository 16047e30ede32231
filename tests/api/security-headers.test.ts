import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../scripts/lib/server.mjs'
import { startAppServer } from '../helpers/app-server'
import {
  fixtureAssetPath,
  fixtureInlineScript,
  projectRoot,
  type TestServer,
} from '../helpers/server'

/** One request of each kind of response the server produces. */
const responseKinds: [kind: string, path: string, init: RequestInit, status: number][] = [
  ['JSON API', '/api/health', {}, 200],
  ['API 404', '/api/nope', {}, 404],
  [
    'API 415',
    '/api/demo/messages',
    { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' },
    415,
  ],
  ['app shell 200', '/', {}, 200],
  ['app shell 404', '/does-not-exist', {}, 404],
  ['static asset', fixtureAssetPath, {}, 200],
  ['client configuration', '/config.json', {}, 200],
]

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((tokens) => tokens[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  )
}

describe('security headers', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer()
  })

  const inlineScriptHash = `'sha256-${createHash('sha256').update(fixtureInlineScript, 'utf8').digest('base64')}'`

  describe.each(responseKinds)('on a %s response (%s)', (_kind, path, init, status) => {
    let response: Response
    beforeAll(async () => {
      response = await fetch(`${server.url}${path}`, init)
      await response.body?.cancel()
    })

    it(`answers ${status}`, () => {
      expect(response.status).toBe(status)
    })

    it('has a Content-Security-Policy that forbids framing; pages run only their own inline script, other answers nothing', () => {
      const csp = directives(response.headers.get('content-security-policy') ?? '')
      expect(csp.get('frame-ancestors')).toEqual(["'none'"])
      const type = response.headers.get('content-type')
      if (type === null || type.startsWith('text/html')) {
        const scriptSrc = csp.get('script-src') ?? csp.get('default-src')
        expect(scriptSrc).toBeDefined()
        expect(scriptSrc).not.toContain("'unsafe-inline'")
        expect(scriptSrc).not.toContain("'unsafe-eval'")
        expect(scriptSrc).toContain(inlineScriptHash)
        expect(csp.get('object-src')).toEqual(["'none'"])
      } else {
        expect(csp.get('default-src')).toEqual(["'none'"])
        expect([...csp.keys()].sort()).toEqual(['default-src', 'frame-ancestors'])
      }
    })

    it('forbids MIME sniffing and sets a referrer policy', () => {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('referrer-policy')).toBeTruthy()
    })

    it('sends no Strict-Transport-Security over plain http', () => {
      expect(response.headers.get('strict-transport-security')).toBeNull()
    })
  })

  it.each(['/api/health', '/'])(
    'believes no X-Forwarded-Proto on %s without TRUST_PROXY: anyone may write it',
    async (path) => {
      const response = await fetch(`${server.url}${path}`, {
        headers: { 'x-forwarded-proto': 'https' },
      })
      expect(response.headers.get('strict-transport-security')).toBeNull()
    },
  )
})

describe('security headers behind a trusted proxy (TRUST_PROXY=true)', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer({ env: { TRUST_PROXY: 'true' } })
  })

  it.each(['/api/health', '/'])(
    'sends Strict-Transport-Security on %s when the proxy says the request came over https, not otherwise',
    async (path) => {
      const viaHttps = await fetch(`${server.url}${path}`, { headers: { 'x-forwarded-proto': 'https' } })
      expect(viaHttps.headers.get('strict-transport-security')).toMatch(/max-age=\d{7,}/)
      const viaHttp = await fetch(`${server.url}${path}`, { headers: { 'x-forwarded-proto': 'http' } })
      expect(viaHttp.headers.get('strict-transport-security')).toBeNull()
    },
  )
})

describe('security headers when APP_URL is https', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer({ env: { APP_URL: 'https://lingua.example' } })
  })

  it.each(['/api/health', '/'])('sends Strict-Transport-Security on %s', async (path) => {
    const response = await fetch(`${server.url}${path}`)
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d{7,}/)
  })
})

// The fixture above is one small page; what follows runs the real build (`dist/client`), as
// production serves it: every kind of answer a browser or a script can get, each with the headers.

/** What a kind of request needs from the running app: paths that change with every build. */
interface BuiltApp {
  url: string
  /** The Origin the app trusts (APP_URL). */
  origin: string
  entryScript: string
  preloadedScript: string
  stylesheet: string
  shellEtag: string
  docsStylesheet: string
}

interface ResponseKind {
  kind: string
  status: number
  /** The Content-Encoding the answer must have: the precompressed file was the one served. */
  encoding?: string
  request(app: BuiltApp): Promise<Response>
}

/** A session cookie (any value): the server sends the app shell, not a page it renders. */
const signedIn = 'lingua.session_token=any'

const get = (app: BuiltApp, path: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${path}`, { headers, redirect: 'manual' })

const builtAppKinds: ResponseKind[] = [
  { kind: 'HTML page rendered by the server', status: 200, request: (app) => get(app, '/') },
  { kind: 'app shell', status: 200, request: (app) => get(app, '/', { cookie: signedIn }) },
  { kind: 'SPA route fallback', status: 200, request: (app) => get(app, '/admin/language-levels/5') },
  { kind: '404 page', status: 404, request: (app) => get(app, '/no/such/page') },
  {
    kind: '304 of the page',
    status: 304,
    request: (app) => get(app, '/dashboard', { 'if-none-match': app.shellEtag, cookie: signedIn }),
  },
  { kind: 'HEAD of a page', status: 200, request: (app) => fetch(`${app.url}/`, { method: 'HEAD' }) },
  {
    kind: 'hashed script, brotli',
    status: 200,
    encoding: 'br',
    request: (app) => get(app, app.preloadedScript, { 'accept-encoding': 'br' }),
  },
  {
    kind: 'hashed stylesheet, gzip',
    status: 200,
    encoding: 'gzip',
    request: (app) => get(app, app.stylesheet, { 'accept-encoding': 'gzip' }),
  },
  {
    kind: 'hashed script, uncompressed',
    status: 200,
    request: (app) => get(app, app.entryScript, { 'accept-encoding': 'identity' }),
  },
  {
    kind: 'HEAD of an asset',
    status: 200,
    request: (app) => fetch(`${app.url}${app.entryScript}`, { method: 'HEAD' }),
  },
  { kind: 'missing asset', status: 404, request: (app) => get(app, '/assets/missing-0000.js') },
  { kind: 'SVG file (scriptable)', status: 200, request: (app) => get(app, '/favicon.svg') },
  { kind: 'robots.txt', status: 200, request: (app) => get(app, '/robots.txt') },
  { kind: 'client configuration', status: 200, request: (app) => get(app, '/config.json') },
  { kind: 'API JSON', status: 200, request: (app) => get(app, '/api/language-levels') },
  {
    kind: 'API HEAD',
    status: 200,
    request: (app) => fetch(`${app.url}/api/health`, { method: 'HEAD' }),
  },
  { kind: 'API 400', status: 400, request: (app) => get(app, '/api/language-levels?pageSize=abc') },
  { kind: 'API 401', status: 401, request: (app) => get(app, '/api/me') },
  {
    kind: 'API 403 (cross-origin write)',
    status: 403,
    request: (app) =>
      fetch(`${app.url}/api/me/profile`, {
        method: 'PUT',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        body: '{}',
      }),
  },
  { kind: 'API 404', status: 404, request: (app) => get(app, '/api/no-such-endpoint') },
  {
    kind: 'API 415',
    status: 415,
    request: (app) =>
      fetch(`${app.url}/api/client-errors`, {
        method: 'POST',
        headers: { origin: app.origin, 'content-type': 'text/plain' },
        body: 'hi',
      }),
  },
  {
    // A documented path without OPTIONS: 405 with Allow, and no Access-Control-Allow-* to let it in.
    kind: 'CORS preflight (OPTIONS) from another site',
    status: 405,
    request: (app) =>
      fetch(`${app.url}/api/auth/sign-in/email`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      }),
  },
  { kind: 'OPTIONS of a page', status: 404, request: (app) => fetch(`${app.url}/`, { method: 'OPTIONS' }) },
  { kind: 'better-auth answer', status: 200, request: (app) => get(app, '/api/auth/get-session') },
  {
    kind: 'better-auth error',
    status: 401,
    request: (app) =>
      fetch(`${app.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { origin: app.origin, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }),
      }),
  },
  {
    kind: 'redirect (better-auth email link with a callback)',
    status: 302,
    request: (app) => get(app, '/api/auth/verify-email?token=invalid&callbackURL=%2Flogin'),
  },
  { kind: 'OpenAPI document', status: 200, request: (app) => get(app, '/api/openapi.json') },
  { kind: 'API reference page', status: 200, request: (app) => get(app, '/api/docs') },
  { kind: 'API reference script', status: 200, request: (app) => get(app, '/api/docs/init.js') },
  {
    kind: 'API reference stylesheet, brotli',
    status: 200,
    encoding: 'br',
    request: (app) => get(app, app.docsStylesheet, { 'accept-encoding': 'br' }),
  },
]

/** The sources of `<script>` elements without src, as the CSP hashes them. */
/** The inline scripts a browser runs (a JSON data block, as a rendered page carries, runs nothing). */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b(?![^>]*\bsrc\s*=)(?![^>]*\btype="application\/json")[^>]*>([\s\S]*?)<\/script>/gi)]
    .map((match) => match[1] ?? '')
    .filter((body) => body.trim() !== '')
}

const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

/** Starts the server on a port chosen here, so that APP_URL can name it. */
async function startBuiltApp(appUrl?: (port: number) => string): Promise<{ server: TestServer; app: BuiltApp }> {
  const port = await freePort()
  const origin = appUrl ? appUrl(port) : `http://127.0.0.1:${port}`
  const server = await startAppServer({
    clientDir: builtClientDir,
    database: process.env.TEST_DATABASE_URL ? 'postgres' : undefined,
    env: { PORT: String(port), APP_URL: origin },
  })
  // The app shell, as a signed-in visit gets it (a visitor's page holds its stylesheet).
  const shell = await fetch(`${server.url}/`, { headers: { cookie: signedIn } })
  const html = await shell.text()
  const entryScript = /<script\b[^>]*\bsrc="(\/assets\/[^"]+\.js)"/.exec(html)?.[1]
  // A script of 1 KB or more, which the build also stores compressed (the entry itself is smaller).
  const preloadedScript = /<link\b[^>]*rel="modulepreload"[^>]*href="(\/assets\/[^"]+\.js)"/.exec(html)?.[1]
  const stylesheet = /<link\b[^>]*rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1]
  const docs = await (await fetch(`${server.url}/api/docs`)).text()
  const docsStylesheet = /href="(\/api\/docs\/assets\/[^"]+\.css)"/.exec(docs)?.[1]
  if (!entryScript || !preloadedScript || !stylesheet || !docsStylesheet) {
    throw new Error(`The built page or the API reference lost its script or stylesheet:\n${html}\n${docs}`)
  }
  const app: BuiltApp = {
    url: server.url,
    origin,
    entryScript,
    preloadedScript,
    stylesheet,
    docsStylesheet,
    shellEtag: shell.headers.get('etag') ?? '',
  }
  return { server, app }
}

const builtClientDir = path.join(projectRoot, 'dist/client')

describe('security headers of the built app, on every kind of answer', () => {
  let app: BuiltApp
  let httpsApp: BuiltApp
  beforeAll(async () => {
    if (!existsSync(path.join(builtClientDir, 'index.html'))) {
      throw new Error('dist/client is not built: run `npm run build` before the API tests')
    }
    // Served over http (no HSTS), and behind an https APP_URL (HSTS on everything).
    ;[{ app }, { app: httpsApp }] = await Promise.all([
      startBuiltApp(),
      startBuiltApp(() => 'https://lingua.example'),
    ])
  })

  describe.each(builtAppKinds)('$kind', (kind) => {
    const { status } = kind
    let response: Response
    let body: string
    beforeAll(async () => {
      response = await kind.request(app)
      body = await response.text()
    })

    it(`answers ${status}${kind.encoding ? `, ${kind.encoding}-encoded` : ''}`, () => {
      expect(response.status, body.slice(0, 500)).toBe(status)
      if (kind.encoding) expect(response.headers.get('content-encoding')).toBe(kind.encoding)
    })

    it('has a Content-Security-Policy: a page runs only its own scripts, anything else runs nothing', () => {
      const csp = directives(response.headers.get('content-security-policy') ?? '')
      expect(csp.get('frame-ancestors')).toEqual(["'none'"])
      const type = response.headers.get('content-type')
      // A 304 has no type: its headers replace those of the cached page, so it keeps the page's policy.
      if (type === null || type.startsWith('text/html')) {
        const scriptSrc = csp.get('script-src') ?? []
        // Only this origin and the hashes of known inline scripts: no 'unsafe-*', no hosts, no schemes.
        expect(scriptSrc.filter((source) => !/^'sha256-[\w+/=]+'$/.test(source))).toEqual(["'self'"])
        for (const script of inlineScripts(body)) expect(scriptSrc).toContain(sha256Source(script))
        expect(csp.get('default-src')).toEqual(["'self'"])
        expect(csp.get('object-src')).toEqual(["'none'"])
        expect(csp.get('base-uri')).toEqual(["'self'"])
        expect(csp.get('form-action')).toEqual(["'self'"])
        expect(csp.get('connect-src')).toEqual(["'self'"])
      } else {
        expect(Object.fromEntries(csp)).toEqual({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] })
      }
    })

    it('forbids MIME sniffing, framing, cross-origin reads and powerful features; keeps the referrer to the origin', () => {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin')
      expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin')
      const permissions = (response.headers.get('permissions-policy') ?? '').split(/,\s*/)
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment']) {
        expect(permissions).toContain(`${feature}=()`)
      }
    })

    it('grants no cross-origin access (no CORS) and names no server software', () => {
      expect(response.headers.get('access-control-allow-origin')).toBeNull()
      expect(response.headers.get('access-control-allow-credentials')).toBeNull()
      expect(response.headers.get('x-powered-by')).toBeNull()
      expect(response.headers.get('server')).toBeNull()
    })

    it('sends no Strict-Transport-Security over plain http', () => {
      expect(response.headers.get('strict-transport-security')).toBeNull()
    })

    it('sends Strict-Transport-Security for a year or more when APP_URL is https', async () => {
      const secure = await kind.request(httpsApp)
      await secure.body?.cancel()
      expect(secure.status).toBe(status)
      const hsts = secure.headers.get('strict-transport-security') ?? ''
      expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(31_536_000)
    })
  })
})

describe('security headers on 503 answers', () => {
  let server: TestServer
  let emptyClientDir: string
  beforeAll(async () => {
    // A client folder without index.html: pages answer 503 until the client is built.
    emptyClientDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-no-client-'))
    server = await startAppServer({
      clientDir: emptyClientDir,
      database: process.env.TEST_DATABASE_URL ? 'postgres' : undefined,
    })
  })
  afterAll(async () => {
    await server.stop()
    await rm(emptyClientDir, { recursive: true, force: true })
  })

  function expectHeaders(response: Response) {
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'")
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  }

  it('on a page while the client is not built', async () => {
    const response = await fetch(`${server.url}/`)
    expect(response.status).toBe(503)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain\b/)
    await response.body?.cancel()
    expectHeaders(response)
  })

  it.runIf(process.env.TEST_DATABASE_URL)('on the API while the database is unreachable', async () => {
    const database = server.database!
    await database.blockConnections()
    try {
      let response: Response
      const deadline = Date.now() + 5000
      // The pool notices the lost connections on its next query: poll.
      do {
        response = await fetch(`${server.url}/api/ready`)
        await response.body?.cancel()
      } while (response.status !== 503 && Date.now() < deadline)
      expect(response.status).toBe(503)
      expectHeaders(response)
    } finally {
      await database.allowConnections()
    }
  })
})
