import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ClientConfig } from '@/shared/client-config'
import { startAppServer } from '../helpers/app-server'
import {
  fixtureAssetPath,
  fixtureIndexHtml,
  projectRoot,
  type TestServer,
} from '../helpers/server'

const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
  version: string
}

describe('app shell and static files', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer()
  })

  it.each([
    ['/', 200],
    ['/about', 200],
    ['/admin/language-levels', 200],
    ['/admin/language-levels/5', 200],
    ['/admin/language-levels/create', 200],
    ['/about/', 200],
    ['/does-not-exist', 404],
    ['/admin/language-levels/abc', 404],
    ['/admin/language-levels/0', 404],
    ['/admin/language-levels/05', 404],
    ['/admin/language-levels/5/extra', 404],
  ])('GET %s → %i with the app shell, revalidated on every use', async (pagePath, status) => {
    const response = await fetch(`${server.url}${pagePath}`)
    expect(response.status).toBe(status)
    expect(response.headers.get('content-type')).toMatch(/^text\/html\b/)
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(await response.text()).toBe(fixtureIndexHtml)
  })

  it('answers 304 to a revalidation of an unchanged shell', async () => {
    const first = await fetch(`${server.url}/about`)
    const etag = first.headers.get('etag')
    expect(etag).toBeTruthy()
    const again = await fetch(`${server.url}/about`, { headers: { 'if-none-match': etag! } })
    expect(again.status).toBe(304)
    // A 304's headers replace the cached page's: it must keep the page's policy.
    expect(again.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'))
  })

  it('serves hashed assets with a year-long immutable cache', async () => {
    const response = await fetch(`${server.url}${fixtureAssetPath}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/javascript/)
    const cacheControl = response.headers.get('cache-control') ?? ''
    expect(cacheControl).toContain('immutable')
    expect(cacheControl).toContain('max-age=31536000')
    expect(await response.text()).toContain('console.log')
  })

  it('GET /config.json gives the client its runtime configuration', async () => {
    const response = await fetch(`${server.url}/config.json`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/)
    expect(response.headers.get('cache-control')).toBe('no-cache')
    const body = (await response.json()) as ClientConfig
    expect(body).toMatchObject({ apiBaseUrl: '/api', appName: 'Lingua', version })
  })
})

describe('client configuration from the environment', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer({ env: { APP_NAME: 'Lingua Test' } })
  })

  it('takes the application name of /config.json from APP_NAME', async () => {
    const body = (await (await fetch(`${server.url}/config.json`)).json()) as ClientConfig
    expect(body.appName).toBe('Lingua Test')
  })
})

const builtClient = path.join(projectRoot, 'dist/client')

// Runs after `npm run build`: the real page, whose inline script and assets the fixture stands for.
describe.runIf(existsSync(path.join(builtClient, 'index.html')))(
  'the built client (dist/client)',
  () => {
    let server: TestServer
    let html: string
    beforeAll(async () => {
      server = await startAppServer({ clientDir: builtClient })
      html = readFileSync(path.join(builtClient, 'index.html'), 'utf8')
    })

    it.each([
      ['the shell of a signed-in visit', '/about', { cookie: 'lingua.session_token=any' }],
      ['a page the server renders', '/', {}],
      ['a page the server renders, in Russian and dark', '/login', { cookie: 'lingua.lang=ru; lingua.theme=dark' }],
    ])('allows each inline script of %s by its hash, and no other inline script', async (_what, pagePath, headers) => {
      const response = await fetch(`${server.url}${pagePath}`, { headers })
      const page = await response.text()
      const scriptSrc =
        (response.headers.get('content-security-policy') ?? '')
          .split(';')
          .map((directive) => directive.trim().split(/\s+/))
          .find(([name]) => name === 'script-src') ?? []
      expect(scriptSrc).not.toContain("'unsafe-inline'")
      // Every script without a `src`, except the JSON data block of a rendered page (not run).
      const inline = [...page.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>([\s\S]*?)<\/script>/gi)]
      expect(inline.length).toBeGreaterThan(0)
      for (const [, body] of inline) {
        const hash = createHash('sha256')
          .update(body ?? '', 'utf8')
          .digest('base64')
        expect(scriptSrc).toContain(`'sha256-${hash}'`)
      }
    })

    it('serves the entry script and the stylesheet it links, cached as immutable', async () => {
      const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
        (m) => m[1]!,
      )
      expect(assets.length).toBeGreaterThan(0)
      for (const asset of assets) {
        const response = await fetch(`${server.url}${asset}`)
        expect(response.status, asset).toBe(200)
        expect(response.headers.get('content-type')).toMatch(
          asset.endsWith('.css') ? /text\/css/ : /javascript/,
        )
        expect(response.headers.get('cache-control')).toContain('immutable')
        expect(response.headers.get('x-content-type-options')).toBe('nosniff')
        await response.body?.cancel()
      }
    })
  },
)
