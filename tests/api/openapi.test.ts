import { validate } from '@readme/openapi-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorCodes } from '@/shared/errors'
import { LEVEL_CODE_MAX, type LanguageLevel } from '@/shared/levels'
import { INT32_MAX } from '@/shared/query'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { startAppServer } from '../helpers/app-server'
import type { Client } from '../helpers/auth-client'
import { allLevels } from '../helpers/levels'
import { conformanceChecker } from '../helpers/openapi-conformance'
import { type TestServer, expectApiError, expectJson } from '../helpers/server'

interface Schema {
  type?: string | string[]
  format?: string
  uniqueItems?: boolean
  maximum?: number
  minimum?: number
  exclusiveMinimum?: number
  items?: Schema
  anyOf?: Schema[]
  allOf?: Schema[]
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
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> }
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

/** Every endpoint of the app (docs/product.md §8) with its methods; the auth ones are better-auth's. */
const appEndpoints: Record<string, string[]> = {
  '/api/health': ['get'],
  '/api/ready': ['get'],
  '/api/client-errors': ['post'],
  '/api/sign-in/provider': ['post'],
  '/config.json': ['get'],
  '/api/demo/server-time': ['get'],
  '/api/events': ['get'],
  '/api/demo/messages': ['post'],
  '/api/reminders/unsubscribe': ['get', 'post'],
  '/api/me': ['get'],
  '/api/me/profile': ['get', 'put'],
  '/api/me/sessions/{id}': ['delete'],
  '/api/me/sign-in-methods': ['get'],
  '/api/me/avatar': ['delete', 'put'],
  '/api/me/export': ['get'],
  '/api/me/assessment': ['delete', 'get', 'post'],
  '/api/me/assessment/answers': ['post'],
  '/api/avatars/{userId}/{file}': ['get'],
  '/api/language-levels': ['get', 'post'],
  '/api/language-levels/order': ['put'],
  '/api/language-levels/{id}': ['delete', 'get', 'patch'],
  '/api/language-levels/{id}/usage': ['get'],
  '/api/language-levels/{id}/words': ['get', 'post'],
  '/api/language-levels/{id}/words/csv': ['get', 'post'],
  '/api/words/{id}': ['delete', 'patch'],
  '/api/me/practice/queue': ['get'],
  '/api/me/practice/reviews': ['post'],
  '/api/me/practice/undo': ['post'],
  '/api/me/practice/today': ['get'],
  '/api/me/practice/settings': ['get', 'put'],
  '/api/me/practice/memory-model': ['get', 'post'],
  '/api/me/progress': ['get'],
  '/api/me/decks': ['get', 'post'],
  '/api/me/decks/{id}': ['delete', 'get', 'patch'],
  '/api/me/decks/{id}/export.apkg': ['get'],
  '/api/me/decks/{id}/export.csv': ['get'],
  '/api/me/decks/{id}/words': ['get', 'post'],
  '/api/me/decks/{id}/words/csv': ['post'],
  '/api/me/decks/{id}/words/{wordId}': ['delete', 'put'],
  '/api/me/imports': ['get', 'post'],
  '/api/me/imports/{id}': ['get'],
  '/api/audit-log': ['get'],
  '/api/can-do-statements': ['get'],
  '/api/admin/can-do-statements': ['get', 'post'],
  '/api/admin/can-do-statements/order': ['put'],
  '/api/admin/can-do-statements/csv': ['get', 'post'],
  '/api/admin/can-do-statements/{id}': ['delete', 'patch'],
  '/api/admin/overview': ['get'],
  '/api/admin/users': ['get'],
  '/api/admin/users/{id}': ['delete', 'get'],
  '/api/admin/users/{id}/role': ['put'],
  '/api/admin/users/{id}/disable': ['post'],
  '/api/admin/users/{id}/enable': ['post'],
  '/api/admin/users/{id}/sign-out': ['post'],
  '/api/admin/users/{id}/resend-confirmation': ['post'],
  '/api/admin/users/{id}/sessions/{sessionId}': ['delete'],
}
const adminOnly = [
  'post /api/language-levels',
  'put /api/language-levels/order',
  'patch /api/language-levels/{id}',
  'delete /api/language-levels/{id}',
  'get /api/language-levels/{id}/usage',
  'get /api/language-levels/{id}/words',
  'post /api/language-levels/{id}/words',
  'get /api/language-levels/{id}/words/csv',
  'post /api/language-levels/{id}/words/csv',
  'patch /api/words/{id}',
  'delete /api/words/{id}',
  'get /api/audit-log',
  ...Object.entries(appEndpoints)
    .filter(([path]) => path.startsWith('/api/admin/'))
    .flatMap(([path, methods]) => methods.map((method) => `${method} ${path}`)),
]
const signedInOnly = [
  'get /api/me',
  'get /api/me/profile',
  'put /api/me/profile',
  'delete /api/me/sessions/{id}',
  'get /api/me/sign-in-methods',
  'put /api/me/avatar',
  'delete /api/me/avatar',
  'get /api/me/export',
  'get /api/me/assessment',
  'post /api/me/assessment',
  'delete /api/me/assessment',
  'post /api/me/assessment/answers',
  'get /api/me/practice/queue',
  'post /api/me/practice/reviews',
  'post /api/me/practice/undo',
  'get /api/me/practice/today',
  'get /api/me/practice/settings',
  'put /api/me/practice/settings',
  'get /api/me/practice/memory-model',
  'post /api/me/practice/memory-model',
  'get /api/me/progress',
  ...Object.entries(appEndpoints)
    .filter(([path]) => path.startsWith('/api/me/decks') || path.startsWith('/api/me/imports'))
    .flatMap(([path, methods]) => methods.map((method) => `${method} ${path}`)),
]

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
        // A write may be refused as cross-site (403); a read is never forbidden to its owner.
        if (method === 'get') expect(statuses, key).not.toContain('403')
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

  /** Sends a request and checks its answer against the document: status, content type, body. */
  /** The body; of an event stream (which never ends), what came up to its `ready` event. */
  async function bodyText(response: Response): Promise<string> {
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return response.text()
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    let text = ''
    while (!text.includes('event: ready\n')) {
      const { value, done } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
    await reader.cancel()
    return text
  }

  async function conforming(client: Client, method: string, url: string, body?: unknown, init?: RequestInit) {
    const response = await client.request(method, url, body, init)
    const text = await bodyText(response)
    const problem = conformanceChecker(document)({
      method,
      target: url,
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: text,
    })
    expect(problem, `${method} ${url} → ${response.status} ${text.slice(0, 300)}`).toBeUndefined()
    const json = response.headers.get('content-type')?.startsWith('application/json') && text
    return { status: response.status, body: json ? (JSON.parse(text) as unknown) : undefined, headers: response.headers }
  }

  // One test per caller (each operation once, with an empty body for writes and an id that has no
  // level): together they took most of one test's time limit on a loaded machine.
  it.each([
    ['a visitor', 'visitor'],
    ['a learner', 'learner'],
    ['an administrator', 'admin'],
  ] as const)('answers only what it documents, for %s', async (_, caller) => {
    for (const { path, method } of appOperations()) {
      const url = path.replace('{id}', '999999')
      const body = method === 'get' || method === 'delete' ? undefined : {}
      await conforming(world[caller], method.toUpperCase(), url, body)
    }
  })

  it('answers only what it documents at the auth endpoints, for a visitor', async () => {
    // Empty bodies, then no body at all where it is optional.
    for (const { path, method, operation } of authOperations()) {
      const url = path.replace(/\{\w+\}/g, 'x')
      await conforming(world.visitor, method.toUpperCase(), url, method === 'post' ? {} : undefined)
      if (method === 'post' && !operation.requestBody?.required) {
        // No 415 for what the document allows: a POST without a body.
        const { status } = await conforming(world.visitor, 'POST', url)
        expect(status, `POST ${url} without a body`).not.toBe(415)
      }
    }
  })

  it('answers the main journeys as documented: every status, content type and body, for a visitor, a learner and an administrator', async () => {
    const { visitor, learner, admin } = world
    for (const client of [visitor, learner, admin]) {
      for (const url of ['/api/health', '/api/ready', '/config.json', '/api/demo/server-time', '/api/language-levels', '/api/language-levels?q=b&sort=-code&page=1&pageSize=2', '/api/me', '/api/me/profile', '/api/me/sign-in-methods', '/api/audit-log?pageSize=5', '/api/auth/get-session', '/api/auth/list-sessions', '/api/auth/list-accounts', '/api/auth/ok']) {
        await conforming(client, 'GET', url)
      }
      await conforming(client, 'POST', '/api/demo/messages', { name: 'Ada', email: 'ada@example.com', message: 'Hello there, friend.' })
      await conforming(client, 'POST', '/api/client-errors', { status: 500, message: 'x', path: '/', userAgent: 'test' })
    }
    const levels = await allLevels(admin)
    const first = levels[0] as LanguageLevel
    await conforming(visitor, 'GET', `/api/language-levels/${first.id}`)
    await conforming(admin, 'GET', `/api/language-levels/${first.id}/usage`)
    await conforming(learner, 'PUT', '/api/me/profile', { language: 'fr', currentLevelId: first.id, targetLevelId: null })
    await conforming(learner, 'GET', '/api/me/profile')
    const created = (await conforming(admin, 'POST', '/api/language-levels', { code: `CF${Date.now() % 100000}`, name: 'Conformance' })).body as LanguageLevel
    await conforming(admin, 'POST', '/api/language-levels', { code: created.code, name: 'Again' })
    const patched = (await conforming(admin, 'PATCH', `/api/language-levels/${created.id}`, { name: 'Changed', version: created.version })).body as LanguageLevel
    await conforming(admin, 'PATCH', `/api/language-levels/${created.id}`, { name: 'Stale', version: created.version })
    await conforming(admin, 'PUT', '/api/language-levels/order', { ids: [...levels.map((level) => level.id), patched.id].reverse() })
    await conforming(admin, 'GET', '/api/audit-log')
    await conforming(admin, 'DELETE', `/api/language-levels/${created.id}`)
    // better-auth's answers, its tokens stripped: signed-in reads and changes.
    await conforming(learner, 'GET', '/api/auth/get-session?disableCookieCache=true')
    await conforming(learner, 'POST', '/api/auth/update-user', { name: 'Learner Renamed' })
    await conforming(learner, 'POST', '/api/auth/update-user')
    await conforming(learner, 'POST', '/api/auth/revoke-other-sessions')
    await conforming(learner, 'POST', '/api/auth/two-factor/get-totp-uri', { password: 'wrong password here' })
    await conforming(visitor, 'POST', '/api/auth/sign-in/email', { email: world.adminEmail, password: 'wrong password here' })
    const other = await world.signUp(`conformance-${Date.now()}@example.com`)
    await conforming(other, 'POST', '/api/auth/sign-in/email', { email: 'nobody@example.com', password: 'x' })
    await conforming(other, 'POST', '/api/auth/revoke-sessions')
    await conforming(other, 'GET', '/api/me')
    // A sign-up, a sign-in and a sign-out, as a new visitor.
    const newcomer = new (visitor.constructor as typeof Client)(world.server)
    const email = `conformance-new-${Date.now()}@example.com`
    await conforming(newcomer, 'POST', '/api/auth/sign-up/email', { name: 'New', email, password: 'Zq!unguessable-9' })
    await conforming(newcomer, 'POST', '/api/auth/sign-in/email', { email, password: 'Zq!unguessable-9' })
    await conforming(other, 'POST', '/api/auth/sign-out')
  })

  it('answers 405 with Allow for a documented path called with a method it does not list', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/api/health', 'GET, HEAD'],
      ['DELETE', '/api/language-levels', 'GET, HEAD, POST'],
      ['GET', '/api/language-levels/order', 'PUT'],
      ['POST', '/api/language-levels/1', 'GET, HEAD, PATCH, DELETE'],
      ['GET', '/api/auth/sign-out', 'POST'],
      ['DELETE', '/api/auth/sign-out', 'POST'],
      ['POST', '/config.json', 'GET, HEAD'],
    ] as const) {
      const response = await world.admin.request(method, path, method === 'GET' ? undefined : {})
      expect(response.headers.get('allow')?.split(', ').sort(), `${method} ${path}`).toEqual(allow.split(', ').sort())
      await expectApiError(response, 405, 'method_not_allowed')
    }
    // A path it does not document stays 404.
    await expectApiError(await world.admin.request('PUT', '/api/nothing-here', {}), 404, 'not_found')
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
    // The emailed-code second factor, which the app does not configure (it could only fail).
    for (const path of ['/api/auth/two-factor/send-otp', '/api/auth/two-factor/verify-otp']) {
      expect(paths, path).not.toContain(path)
      await expectApiError(await world.learner.request('POST', path, { code: '123456' }), 404, 'not_found')
      await expectApiError(await world.learner.request('POST', path), 404, 'not_found')
    }
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
      const patternOf = (name: string) => new RegExp(parameters.find((parameter) => parameter.name === name)?.schema.pattern ?? '')
      // The documented pattern takes exactly what the server takes: page ≥ 1, pageSize 1–100.
      for (const [name, value] of [['pageSize', '1'], ['pageSize', '100'], ['page', '1'], ['page', '100000'], ['page', '20']]) {
        expect(value, `${name}=${value}`).toMatch(patternOf(name as string))
        await expectJson(await world.visitor.request('GET', `/api/language-levels?${name}=${value}`))
      }
      for (const [name, value] of [['pageSize', '0'], ['pageSize', '101'], ['pageSize', '1000'], ['pageSize', '999'], ['page', '0'], ['page', '999999'], ['page', '100001'], ['pageSize', '007']]) {
        expect(value, `${name}=${value}`).not.toMatch(patternOf(name as string))
        await expectApiError(await world.visitor.request('GET', `/api/language-levels?${name}=${value}`), 400, 'validation_failed')
      }
      await expectApiError(await world.visitor.request('GET', '/api/language-levels?sort=nope'), 400, 'validation_failed')
      const audit = document.paths['/api/audit-log']?.get?.parameters ?? []
      const auditPageSize = new RegExp(audit.find((parameter) => parameter.name === 'pageSize')?.schema.pattern ?? '')
      expect('0').not.toMatch(auditPageSize)
      expect('101').not.toMatch(auditPageSize)
      expect('100').toMatch(auditPageSize)
    })

    it('bounds every integer of a body to its 32-bit column, and the server answers 400 above it, not 500', async () => {
      const integers: string[] = []
      const walk = (schema: Schema | undefined, where: string) => {
        if (!schema) return
        if ([schema.type].flat().includes('integer')) {
          integers.push(where)
          expect(schema.maximum, where).toBeLessThanOrEqual(INT32_MAX)
          expect(schema.minimum ?? schema.exclusiveMinimum, where).toBeDefined()
        }
        for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property, `${where}.${name}`)
        for (const variant of schema.anyOf ?? []) walk(variant, where)
        walk(schema.items, `${where}[]`)
      }
      for (const { path, method } of appOperations()) walk(bodyOf(path, method), `${method} ${path}`)
      expect(integers).toEqual(expect.arrayContaining([
        'put /api/me/profile.currentLevelId',
        'put /api/me/profile.targetLevelId',
        'patch /api/language-levels/{id}.version',
        'put /api/language-levels/order.ids[]',
      ]))
      const [level] = await allLevels(world.admin)
      const id = (level as LanguageLevel).id
      for (const big of [INT32_MAX + 1, 2 ** 53 - 1, 2 ** 53]) {
        for (const [field, body] of [
          ['currentLevelId', { language: 'fr', currentLevelId: big, targetLevelId: null }],
          ['targetLevelId', { language: 'fr', currentLevelId: null, targetLevelId: big }],
        ] as const) {
          const refused = await expectApiError(await world.learner.request('PUT', '/api/me/profile', body), 400, 'validation_failed')
          expect(Object.keys(refused.fields ?? {}), `${field}=${big}`).toEqual([field])
        }
        const version = await expectApiError(
          await world.admin.request('PATCH', `/api/language-levels/${id}`, { name: 'Big', version: big }),
          400,
          'validation_failed',
        )
        expect(Object.keys(version.fields ?? {})).toEqual(['version'])
        await expectApiError(await world.admin.request('PUT', '/api/language-levels/order', { ids: [big] }), 400, 'validation_failed')
      }
      // The largest documented value is taken: no such row, but no failure of the database either.
      await expectApiError(
        await world.admin.request('PATCH', `/api/language-levels/${id}`, { name: 'Max', version: INT32_MAX }),
        409,
        'conflict',
      )
      const unknown = await expectApiError(
        await world.learner.request('PUT', '/api/me/profile', { language: 'fr', currentLevelId: INT32_MAX, targetLevelId: null }),
        400,
        'validation_failed',
      )
      expect(unknown.fields?.currentLevelId).toEqual(['This language level does not exist.'])
    })

    it('PUT /api/language-levels/order: ids unique, as the server enforces', async () => {
      const ids = bodyOf('/api/language-levels/order', 'put').properties?.ids
      expect(ids?.uniqueItems).toBe(true)
      const levels = await allLevels(world.admin)
      const first = (levels[0] as LanguageLevel).id
      const refused = await expectApiError(
        await world.admin.request('PUT', '/api/language-levels/order', { ids: [first, first] }),
        400,
        'validation_failed',
      )
      expect(Object.keys(refused.fields ?? {})).toEqual(['ids'])
    })

    it('refuses NUL in every documented string, and says so', async () => {
      const strings: string[] = []
      // A pattern of the string, or of its allOf, that no text with NUL matches.
      const nulFree = (schema: Schema) =>
        [schema.pattern, ...(schema.allOf ?? []).map((part) => part.pattern)].some(
          (pattern) => pattern !== undefined && !new RegExp(pattern, 'u').test('a\u0000b'),
        )
      const walk = (schema: Schema | undefined, where: string) => {
        if (!schema) return
        if ([schema.type].flat().includes('string') && !schema.enum) {
          strings.push(where)
          expect(nulFree(schema), where).toBe(true)
        }
        for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property, `${where}.${name}`)
        for (const variant of schema.anyOf ?? []) walk(variant, where)
        walk(schema.items, `${where}[]`)
      }
      for (const { path, method, operation } of operationsOf(document)) {
        walk(bodyOf(path, method), `${method} ${path}`)
        for (const parameter of operation.parameters ?? []) walk(parameter.schema, `${method} ${path} ${parameter.in}:${parameter.name}`)
      }
      expect(strings.length).toBeGreaterThan(50)
      // What the document says, the server does, on a body and a query of the app and of better-auth.
      await expectApiError(await world.visitor.request('POST', '/api/auth/sign-in/email', { email: 'a@example.com', password: 'a\u0000b' }), 400, 'validation_failed')
      await expectApiError(await world.admin.request('POST', '/api/language-levels', { code: 'NUL', name: 'a\u0000b' }), 400, 'validation_failed')
      await expectApiError(await world.visitor.request('GET', '/api/language-levels?q=%00'), 400, 'validation_failed')
    })

    it('declares the email format and the password lengths better-auth enforces', async () => {
      const authBody = (path: string) => bodyOf(`/api/auth${path}`, 'post')
      for (const [path, field] of [['/sign-up/email', 'password'], ['/reset-password', 'newPassword'], ['/change-password', 'newPassword'], ['/email-otp/reset-password', 'password']] as const) {
        expect(authBody(path).properties?.[field], `${path} ${field}`).toMatchObject({ minLength: 8, maxLength: 128 })
      }
      const emails = operationsOf(document).flatMap(({ path, method }) =>
        Object.entries(bodyOf(path, method).properties ?? {})
          .filter(([name]) => /^(email|newEmail)$/.test(name))
          .map(([name, schema]) => ({ path, method, name, schema })),
      )
      expect(emails.length).toBeGreaterThan(10)
      for (const { path, method, name, schema } of emails) {
        expect(schema.format, `${path} ${name}`).toBe('email')
        // Not an email: refused on the field, as a visitor (or 401 first, where a session is needed).
        const concretePath = path.replace('{id}', 'a'.repeat(32))
        const response = await world.visitor.request(method.toUpperCase(), concretePath, { [name]: 'not-an-email', otp: '123456', type: 'sign-in', password: 'Zq!unguessable-9', name: 'A', message: 'long enough message' })
        expect([400, 401], `${path}: ${response.status}`).toContain(response.status)
        if (response.status === 400) {
          const refused = await expectApiError(response, 400, 'validation_failed')
          expect(Object.keys(refused.fields ?? {}), path).toContain(name)
        } else {
          await response.body?.cancel()
        }
      }
      // A password one under the documented length is refused at sign-up; the length itself is not.
      const short = await expectApiError(
        await world.visitor.request('POST', '/api/auth/sign-up/email', { name: 'Short', email: `short-${Date.now()}@example.com`, password: 'Zq!4567' }),
        400,
        'weak_password',
      )
      expect(Object.keys(short.fields ?? {})).toEqual(['password'])
    })

    it('PUT /api/me/profile: every field, nullable', () => {
      const schema = bodyOf('/api/me/profile', 'put')
      expect(schema.required).toEqual(['language', 'currentLevelId', 'targetLevelId'])
    })

    it('says which bodies are required; a POST whose body is optional is served without one', async () => {
      for (const { path, method, operation } of operationsOf(document)) {
        if (!operation.requestBody) continue
        // A file (a picture) is the whole body: always required.
        if (!operation.requestBody.content['application/json']) {
          expect(operation.requestBody.required, `${method} ${path}`).toBe(true)
          continue
        }
        const required = bodyOf(path, method).required ?? []
        const nonEmpty = (bodyOf(path, method) as { minProperties?: number }).minProperties ?? 0
        expect(Boolean(operation.requestBody.required), `${method} ${path}`).toBe(required.length > 0 || nonEmpty > 0)
      }
      for (const path of ['/api/auth/sign-out', '/api/auth/revoke-sessions', '/api/auth/revoke-other-sessions']) {
        expect(document.paths[path]?.post?.requestBody?.required, path).toBe(false)
      }
      // An update without a change is refused (400): the document says it needs a field.
      expect(document.paths['/api/auth/update-user']?.post?.requestBody?.required).toBe(true)
      expect(bodyOf('/api/auth/update-user', 'post')).toMatchObject({ minProperties: 1 })
      const client = await world.signUp(`bodiless-${Date.now()}@example.com`)
      await expectApiError(await client.request('POST', '/api/auth/update-user'), 400, 'bad_request')
      await expectApiError(await client.request('POST', '/api/auth/update-user', {}), 400, 'bad_request')
      for (const path of ['/api/auth/revoke-other-sessions', '/api/auth/sign-out']) {
        expect((await client.request('POST', path)).status, path).toBe(200)
      }
      expect((await client.request('GET', '/api/me')).status).toBe(401)
    })
  })

  it('documents better-auth’s answers as the app sends them: nullable fields, no session token', () => {
    const session = document.components.schemas.Session
    expect(session?.properties?.impersonatedBy?.type).toEqual(['string', 'null'])
    expect(session?.properties?.token).toBeUndefined()
    expect(session?.required).not.toContain('token')
    expect(JSON.stringify(document)).not.toContain('"nullable"')
    for (const path of ['/api/auth/sign-in/email', '/api/auth/sign-up/email']) {
      const schema = document.paths[path]?.post?.responses['200']?.content?.['application/json']?.schema
      expect(schema?.properties?.token, path).toBeUndefined()
      expect(schema?.required ?? [], path).not.toContain('token')
    }
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
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer()
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
