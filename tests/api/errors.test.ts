import { Hono } from 'hono'
import pino from 'pino'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppEnv } from '../../src/server/http/context.js'
import { handleError } from '../../src/server/http/errors.js'
import { expectApiError, openUpload, type ServerProcess, startServer } from '../helpers/server.js'

const MAX_BODY_BYTES = 64 * 1024

const validMessage = {
  name: '  Ada Lovelace ',
  email: '  Ada@Example.COM ',
  message: '   Hello, this is a demo message.  ',
}

/** A JSON body of `size` bytes exactly. */
function jsonOfSize(size: number): string {
  const prefix = '{"message":"'
  const suffix = '"}'
  return prefix + 'x'.repeat(size - prefix.length - suffix.length) + suffix
}

describe('API errors over HTTP', () => {
  let server: ServerProcess
  beforeAll(async () => {
    server = await startServer()
  })

  const post = (path: string, body: string, contentType = 'application/json') =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    })

  it.each([
    ['GET', '/api/nope'],
    ['GET', '/api/demo/nope'],
    ['POST', '/api/nope'],
    // Sent without a body nor Content-Length, as fetch and curl send a DELETE: not a body to refuse.
    ['DELETE', '/api/health/extra'],
  ])('%s %s (no such endpoint) → 404 not_found', async (method, path) => {
    const response = await fetch(`${server.url}${path}`, { method })
    await expectApiError(response, 404, 'not_found')
  })

  it('malformed JSON → 400', async () => {
    const response = await post('/api/demo/messages', '{"name": "Ada",')
    await expectApiError(response, 400, 'bad_request')
  })

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'a body sent as %s → 415 unsupported_media_type',
    async (contentType) => {
      const response = await post('/api/demo/messages', JSON.stringify(validMessage), contentType)
      await expectApiError(response, 415, 'unsupported_media_type')
    },
  )

  it('a chunked body sent as text/plain, without Content-Length → 415 unsupported_media_type', async () => {
    const upload = openUpload(server, {
      path: '/api/demo/messages',
      headers: { 'content-type': 'text/plain' },
    })
    await upload.continued
    upload.request.end(JSON.stringify(validMessage))
    await expectApiError(await upload.response, 415, 'unsupported_media_type')
  })

  it('a body over 64 KiB with Content-Length → 413 payload_too_large', async () => {
    const response = await post('/api/demo/messages', jsonOfSize(MAX_BODY_BYTES + 1))
    await expectApiError(response, 413, 'payload_too_large')
  })

  it('a body over 64 KiB sent chunked, without Content-Length → 413 payload_too_large', async () => {
    const upload = openUpload(server, {
      path: '/api/demo/messages',
      headers: { 'content-type': 'application/json' },
    })
    await upload.continued
    const body = jsonOfSize(MAX_BODY_BYTES + 1024)
    // Several chunks, so the limit has to be counted across them.
    for (let i = 0; i < body.length; i += 8192) upload.request.write(body.slice(i, i + 8192))
    upload.request.end()
    expect(upload.request.getHeader('content-length')).toBeUndefined()
    await expectApiError(await upload.response, 413, 'payload_too_large')
  })

  it('a body of exactly 64 KiB is not refused for its size', async () => {
    const response = await post('/api/demo/messages', jsonOfSize(MAX_BODY_BYTES))
    // It reaches validation (the message is too long), so the size limit let it through.
    const error = await expectApiError(response, 400, 'validation_failed')
    expect(error.fields).toHaveProperty('message')
  })

  it('an empty object → 400 validation_failed with a message for each field', async () => {
    const response = await post('/api/demo/messages', '{}')
    const error = await expectApiError(response, 400, 'validation_failed')
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(['email', 'message', 'name'])
  })

  it('invalid values → 400 validation_failed naming only the invalid fields', async () => {
    const response = await post(
      '/api/demo/messages',
      JSON.stringify({ ...validMessage, email: 'not-an-email', message: 'short' }),
    )
    const error = await expectApiError(response, 400, 'validation_failed')
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(['email', 'message'])
  })

  it('a valid body → 200 with the values echoed trimmed, the email lowercased', async () => {
    const response = await post('/api/demo/messages', JSON.stringify(validMessage))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/)
    const body = (await response.json()) as {
      received: unknown
      receivedAt: string
      requestId: string
    }
    expect(body.received).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      message: 'Hello, this is a demo message.',
    })
    expect(Number.isNaN(Date.parse(body.receivedAt))).toBe(false)
    expect(body.requestId).toBe(response.headers.get('x-request-id'))
  })

  it('a JSON media type with a charset is accepted', async () => {
    const response = await post(
      '/api/demo/messages',
      JSON.stringify(validMessage),
      'application/json; charset=utf-8',
    )
    expect(response.status).toBe(200)
  })
})

describe('unexpected errors (error handler in-process)', () => {
  it('→ 500 internal_error without internals, which go to the log instead', async () => {
    const logged: string[] = []
    const logger = pino({ base: undefined }, { write: (line: string) => logged.push(line) })
    const app = new Hono<AppEnv>()
    app.use('*', async (c, next) => {
      c.set('requestId', 'test-request')
      c.set('logger', logger)
      await next()
    })
    app.get('/boom', () => {
      throw new Error('secret internals')
    })
    app.onError(handleError)

    const response = await app.request('/boom')
    const text = await response.clone().text()
    await expectApiError(response, 500, 'internal_error')
    expect(text).not.toMatch(/secret|stack|at /i)
    expect(logged.join('\n')).toContain('secret internals')
  })
})
