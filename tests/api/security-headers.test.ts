import { createHash } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  fixtureAssetPath,
  fixtureInlineScript,
  type ServerProcess,
  startServer,
} from '../helpers/server.js'

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
  let server: ServerProcess
  beforeAll(async () => {
    server = await startServer()
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
    'sends Strict-Transport-Security on %s when a proxy says the request came over https',
    async (path) => {
      const response = await fetch(`${server.url}${path}`, {
        headers: { 'x-forwarded-proto': 'https' },
      })
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d{7,}/)
    },
  )
})

describe('security headers when APP_URL is https', () => {
  let server: ServerProcess
  beforeAll(async () => {
    server = await startServer({ env: { APP_URL: 'https://lingua.example' } })
  })

  it.each(['/api/health', '/'])('sends Strict-Transport-Security on %s', async (path) => {
    const response = await fetch(`${server.url}${path}`)
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d{7,}/)
  })
})
