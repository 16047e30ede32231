import { validate } from '@readme/openapi-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorCodes } from '../../src/shared/errors.js'
import { LEVEL_CODE_MAX } from '../../src/shared/levels.js'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts.js'
import type { Client } from '../helpers/auth-client.js'
import { type ServerProcess, expectApiError, expectJson, startServer } from '../helpers/server.js'

interface Schema {
  type?: string | string[]
  properties?: Record<string, Schema>
  required?: string[]
  maxLength?: number
  minLength?: number
  pattern?: string
  enum?: unknown[]
  $ref?: string
}
interface Operation {
  operationId?: string
  summary?: string
  tags?: string[]
  security?: Record<string, string[]>[]
  parameters?: { in: string; name: string; schema: Schema }[]
  requestBody?: { content: Record<string, { schema: Schema }> }
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: Schema }> }>
}
interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string }
  paths: Record<string, Record<string, Operation>>
  components: {
    schemas: Record<string, Schema>
    responses: Record<string, { content: Record<string, { schema: Schema }> }>
    securitySchemes: Record<string, { type: string; in: string; name: string }>
  }
}

/** Every endpoint of the app (PRODUCT §8) with its methods; the auth ones are better-auth's. */
const appEndpoints: Record<string, string[]> = {
  '/api/health': ['get'],
  '/api/ready': ['get'],
  '/api/client-errors': ['post'],
  '/config.json': ['get'],
  '/api/demo/server-time': ['get'],
  '/api/demo/messages': ['post'],
  '/api/me': ['get'],
  '/api/me/profile': ['get', 'put'],
  '/api/me/sessions/{id}': ['delete'],
  '/api/language-levels': ['get', 'post'],
  '/api/language-levels/order': ['put'],
  '/api/language-levels/{id}': ['delete', 'get', 'patch'],
  '/api/language-levels/{id}/usage': ['get'],
  '/api/audit-log': ['get'],
}
const adminOnly = [
  'post /api/language-levels',
  'put /api/language-levels/order',
  'patch /api/language-levels/{id}',
  'delete /api/language-levels/{id}',
  'get /api/language-levels/{id}/usage',
  'get /api/audit-log',
]
const signedInOnly = ['get /api/me', 'get /api/me/profile', 'put /api/me/profile', 'delete /api/me/sessions/{id}']

function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  )
}

describe('the OpenAPI document at /api/openapi.json', () => {
  let world: AdminWorld
  let document: OpenApiDocument
  beforeAll(async () => {
    world = await startAdminWorld('pglite', 'openapi')
    document = await expectJson<OpenApiDocument>(await world.visitor.request('GET', '/api/openapi.json'))
  })
  afterAll(async () => {
    await world.stop()
  })

  const appOperations = () => operationsOf(document).filter(({ path }) => !path.startsWith('/api/auth/'))
  const authOperations = () => operationsOf(document).filter(({ path }) => path.startsWith('/api/auth/'))

  it('is a valid OpenAPI 3.1 document, revalidated by caches', async () => {
    expect(document.openapi).toMatch(/^3\.1\./)
    expect(document.info.title).toBe('Lingua API')
    // The parser resolves every $ref and checks the document against the OpenAPI schema.
    const copy = JSON.parse(JSON.stringify(document)) as Parameters<typeof validate>[0]
    const result = await validate(copy)
    expect(result, JSON.stringify(result, null, 2)).toMatchObject({ valid: true })

    const response = await world.visitor.request('GET', '/api/openapi.json')
    expect(response.headers.get('cache-control')).toBe('no-cache')
    const etag = response.headers.get('etag')
    expect(etag).toBeTruthy()
    await response.body?.cancel()
    const again = await fetch(`${world.server.url}/api/openapi.json`, { headers: { 'If-None-Match': etag ?? '' } })
    expect(again.status).toBe(304)
  })

  it('lists every endpoint of the app with its methods, and nothing else besides the auth endpoints', () => {
    const listed: Record<string, string[]> = {}
    for (const { path, method } of appOperations()) (listed[path] ??= []).push(method)
    for (const methods of Object.values(listed)) methods.sort()
    expect(listed).toEqual(appEndpoints)
  })

  it('names, tags and summarizes every operation once', () => {
    const ids = operationsOf(document).map(({ operation }) => operation.operationId)
    for (const { path, method, operation } of operationsOf(document)) {
      const name = `${method.toUpperCase()} ${path}`
      expect(operation.summary, name).toBeTruthy()
      expect(operation.tags?.length, name).toBe(1)
      expect(operation.operationId, name).toBeTruthy()
      expect(ids.filter((id) => id === operation.operationId).length, name).toBe(1)
    }
  })

  it('says who may call each endpoint: the session cookie, 401 and 403', () => {
    const scheme = document.components.securitySchemes.sessionCookie
    expect(scheme).toEqual(expect.objectContaining({ type: 'apiKey', in: 'cookie' }))
    // The cookie the server really sets when signing in.
    expect([...world.admin.cookies.keys()]).toContain(scheme?.name)

    for (const { path, method, operation } of appOperations()) {
      const key = `${method} ${path}`
      const statuses = Object.keys(operation.responses)
      if (adminOnly.includes(key)) {
        expect(operation.security, key).toEqual([{ sessionCookie: [] }])
        expect(statuses, key).toEqual(expect.arrayContaining(['401', '403']))
      } else if (signedInOnly.includes(key)) {
        expect(operation.security, key).toEqual([{ sessionCookie: [] }])
        expect(statuses, key).toContain('401')
        expect(statuses, key).not.toContain('403')
      } else {
        expect(operation.security, key).toEqual([])
        expect(statuses, key).not.toContain('401')
      }
    }
  })

  it('describes every failure with the one error shape, as shared response components', () => {
    const apiError = document.components.schemas.ApiError
    const error = apiError?.properties?.error
    expect(error?.required).toEqual(['code', 'message'])
    expect(error?.properties?.code?.enum).toEqual([...errorCodes])
    expect(Object.keys(error?.properties ?? {})).toEqual(['code', 'message', 'fields'])

    const components = document.components.responses
    for (const status of ['400', '401', '403', '404', '409', '413', '415', '429', '500', '503']) {
      const ref = operationsOf(document)
        .map(({ operation }) => operation.responses[status]?.$ref)
        .find(Boolean)
      expect(ref, `some operation answers ${status}`).toMatch(/^#\/components\/responses\//)
      const component = components[ref?.split('/').pop() ?? '']
      expect(component?.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ApiError' })
    }
    for (const { path, method, operation } of operationsOf(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) >= 400) expect(response.$ref, `${method} ${path} ${status}`).toMatch(/^#\/components\/responses\//)
      }
    }
  })

  it('answers only what it documents, for a visitor, a learner and an administrator', async () => {
    // Each operation once per caller, with an empty body for writes and an id that has no level.
    const callers: [string, Client][] = [
      ['visitor', world.visitor],
      ['learner', world.learner],
      ['admin', world.admin],
    ]
    for (const [who, client] of callers) {
      for (const { path, method, operation } of appOperations()) {
        const url = path.replace('{id}', '999999')
        const body = method === 'get' || method === 'delete' ? undefined : {}
        const response = await client.request(method.toUpperCase(), url, body)
        await response.body?.cancel()
        expect(Object.keys(operation.responses), `${who}: ${method.toUpperCase()} ${url} → ${response.status}`).toContain(
          String(response.status),
        )
      }
    }
    // The auth endpoints too (a visitor, empty bodies): each is served as documented.
    for (const { path, method, operation } of authOperations()) {
      const url = path.replace(/\{\w+\}/g, 'x')
      const response = await world.visitor.request(method.toUpperCase(), url, method === 'post' ? {} : undefined)
      await response.body?.cancel()
      expect(Object.keys(operation.responses), `${method.toUpperCase()} ${url} → ${response.status}`).toContain(
        String(response.status),
      )
    }
  })

  it('includes the auth endpoints, under /api/auth, with their session requirement', () => {
    const paths = Object.keys(document.paths)
    for (const path of ['/api/auth/sign-up/email', '/api/auth/sign-in/email', '/api/auth/sign-in/email-otp']) {
      expect(document.paths[path]?.post, path).toBeDefined()
      expect(document.paths[path]?.post?.security, path).toEqual([])
    }
    expect(document.paths['/api/auth/get-session']?.get).toBeDefined()
    expect(document.paths['/api/auth/two-factor/verify-totp']?.post).toBeDefined()
    expect(document.paths['/api/auth/change-password']?.post?.security).toEqual([{ sessionCookie: [] }])
    expect(Object.keys(document.paths['/api/auth/sign-in/email']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401', '429']),
    )
    const signIn = document.paths['/api/auth/sign-in/email']?.post?.requestBody?.content['application/json']?.schema
    expect(signIn?.required).toEqual(['email', 'password'])
    // Methods the app does not hand to better-auth are not listed.
    for (const { method } of authOperations()) expect(['get', 'post']).toContain(method)
    expect(paths.filter((path) => path.startsWith('/api/auth/')).length).toBeGreaterThan(20)
  })

  it('leaves out the disabled auth endpoints, which answer 404', async () => {
    const paths = Object.keys(document.paths)
    expect(paths.filter((path) => path.startsWith('/api/auth/admin/'))).toEqual([])
    expect(paths.filter((path) => /^\/api\/auth\/(open-api|reference)\b/.test(path))).toEqual([])
    for (const path of ['/api/auth/admin/list-users', '/api/auth/open-api/generate-schema', '/api/auth/reference']) {
      await expectApiError(await world.admin.request('GET', path), 404, 'not_found')
    }
  })

  describe('documents requests as the server validates them', () => {
    const bodyOf = (path: string, method: string) =>
      document.paths[path]?.[method]?.requestBody?.content['application/json']?.schema ?? {}

    it('POST /api/language-levels: required fields, code length and pattern', async () => {
      const schema = bodyOf('/api/language-levels', 'post')
      expect(schema.required).toEqual(['code', 'name'])
      const code = schema.properties?.code ?? {}
      expect(code).toMatchObject({ type: 'string', minLength: 1, maxLength: LEVEL_CODE_MAX })
      const max = code.maxLength ?? 0
      const pattern = new RegExp(code.pattern ?? '', 'u')

      // One character over the documented length is refused on `code`; the length itself is not.
      const tooLong = 'L'.repeat(max + 1)
      const refused = await expectApiError(
        await world.admin.request('POST', '/api/language-levels', { code: tooLong, name: 'Too long' }),
        400,
        'validation_failed',
      )
      expect(Object.keys(refused.fields ?? {})).toEqual(['code'])
      const longest = `Z${Date.now()}`.padEnd(max, 'z')
      expect(longest).toMatch(pattern)
      await expectJson(await world.admin.request('POST', '/api/language-levels', { code: longest, name: 'Longest' }), 201)

      // The documented pattern refuses what the server refuses.
      expect('B 2').not.toMatch(pattern)
      const badCode = await expectApiError(
        await world.admin.request('POST', '/api/language-levels', { code: 'B 2', name: 'Space' }),
        400,
        'validation_failed',
      )
      expect(Object.keys(badCode.fields ?? {})).toEqual(['code'])

      // A required field, missing.
      const missing = await expectApiError(
        await world.admin.request('POST', '/api/language-levels', { code: 'NONAME' }),
        400,
        'validation_failed',
      )
      expect(Object.keys(missing.fields ?? {})).toEqual(['name'])
    })

    it('PATCH /api/language-levels/{id}: the version is required, the id is a path parameter', () => {
      const operation = document.paths['/api/language-levels/{id}']?.patch
      expect(bodyOf('/api/language-levels/{id}', 'patch').required).toEqual(['version'])
      expect(operation?.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'id' })]),
      )
    })

    it('GET /api/language-levels: the query parameters and their bounds', async () => {
      const parameters = document.paths['/api/language-levels']?.get?.parameters ?? []
      expect(parameters.map((parameter) => `${parameter.in}:${parameter.name}`).sort()).toEqual(
        ['query:page', 'query:pageSize', 'query:q', 'query:sort'],
      )
      const sort = parameters.find((parameter) => parameter.name === 'sort')
      expect(sort?.schema.enum).toContain('-updatedAt')
      const pageSize = new RegExp(parameters.find((parameter) => parameter.name === 'pageSize')?.schema.pattern ?? '')
      expect('1000').not.toMatch(pageSize)
      await expectApiError(await world.visitor.request('GET', '/api/language-levels?pageSize=1000'), 400, 'validation_failed')
      await expectApiError(await world.visitor.request('GET', '/api/language-levels?sort=nope'), 400, 'validation_failed')
    })

    it('PUT /api/me/profile: every field, nullable', () => {
      const schema = bodyOf('/api/me/profile', 'put')
      expect(schema.required).toEqual(['language', 'currentLevelId', 'targetLevelId'])
    })
  })

  it('documents answers with the shared shapes', () => {
    const level = document.components.schemas.LanguageLevel
    expect(Object.keys(level?.properties ?? {}).sort()).toEqual(
      ['code', 'createdAt', 'createdBy', 'description', 'id', 'name', 'position', 'updatedAt', 'updatedBy', 'version'],
    )
    const list = document.paths['/api/language-levels']?.get?.responses['200']?.content?.['application/json']?.schema
    expect(list).toEqual({ $ref: '#/components/schemas/LanguageLevelPage' })
    const created = document.paths['/api/language-levels']?.post?.responses['201']?.content?.['application/json']?.schema
    expect(created).toEqual({ $ref: '#/components/schemas/LanguageLevel' })
    expect(document.paths['/api/language-levels/{id}']?.delete?.responses['204']).toBeDefined()
  })
})

describe('the API reference page at /api/docs', () => {
  let server: ServerProcess
  beforeAll(async () => {
    server = await startServer()
  })

  it('is an HTML page under the app’s Content-Security-Policy, with every file from this server', async () => {
    const response = await fetch(`${server.url}/api/docs`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html\b/)
    const csp = response.headers.get('content-security-policy') ?? ''
    const scriptSrc = csp.split(';').find((part) => part.trim().startsWith('script-src'))
    expect(scriptSrc).toMatch(/'self'/)
    expect(scriptSrc).not.toMatch(/unsafe/)
    const html = await response.text()
    // No CDN, no other site: it works offline.
    expect(html).not.toMatch(/https?:\/\//)
    // No inline script (the CSP would refuse it).
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)

    const files = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '')
    const scripts = files.filter((file) => file.endsWith('.js'))
    const styles = files.filter((file) => file.endsWith('.css'))
    expect(scripts.length).toBe(2)
    expect(styles.length).toBe(1)
    for (const file of [...scripts, ...styles]) {
      const asset = await fetch(`${server.url}${file}`)
      expect(asset.status, file).toBe(200)
      expect(asset.headers.get('content-type'), file).toMatch(file.endsWith('.js') ? /^text\/javascript\b/ : /^text\/css\b/)
      const text = await asset.text()
      expect(text.length, file).toBeGreaterThan(0)
      if (file.includes('/assets/')) {
        // Versioned paths, cached for good, sent compressed.
        expect(asset.headers.get('cache-control'), file).toMatch(/immutable/)
        expect(asset.headers.get('content-encoding'), file).toMatch(/^(br|gzip)$/)
      } else {
        // The start-up script points the page at the document.
        expect(text).toContain('/api/openapi.json')
      }
    }
  })

  it('answers 404 for a file it does not serve', async () => {
    const page = await (await fetch(`${server.url}/api/docs`)).text()
    const bundle = page.match(/src="([^"]+swagger-ui-bundle\.js)"/)?.[1] ?? ''
    await expectApiError(await fetch(`${server.url}${bundle.replace('swagger-ui-bundle.js', 'index.html')}`), 404, 'not_found')
    await expectApiError(await fetch(`${server.url}${bundle.replace(/\/\d[^/]*\//, '/0.0.0/')}`), 404, 'not_found')
  })
})
