import net from 'node:net'
import { Hono } from 'hono'
import pino from 'pino'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppEnv } from '@/server/http/context'
import { handleError } from '@/server/http/errors'
import { startAppServer } from '../helpers/app-server'
import { expectApiError, openUpload, type TestServer } from '../helpers/server'

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
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer()
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

describe('requests refused before the app, by the HTTP server', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer()
  })

  /**
   * Writes the bytes on a new connection (then closes the client's side with `halfClose`) and
   * reads everything the server sends until it closes.
   */
  const raw = (bytes: string, halfClose = false) =>
    new Promise<{ status: number; headers: Headers; body: string }>((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port: server.port }, () =>
        halfClose ? socket.end(bytes, 'latin1') : socket.write(bytes, 'latin1'),
      )
      const chunks: Buffer[] = []
      socket.on('data', (chunk: Buffer) => chunks.push(chunk))
      socket.on('error', reject)
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('latin1')
        const [head = '', body = ''] = text.split('\r\n\r\n')
        const [statusLine = '', ...lines] = head.split('\r\n')
        const headers = new Headers(lines.map((line): [string, string] => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]))
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body })
      })
    })

  it.each([
    ['a malformed request line', 'GET /api/health HTTP/1.1 extra\r\nHost: localhost\r\n\r\n', 400, 'bad_request'],
    ['a method Node does not know', 'FOO /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n', 400, 'bad_request'],
    ['a control character in a header', 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\u0001b\r\n\r\n', 400, 'bad_request'],
    ['HTTP/1.1 without Host', 'GET /api/health HTTP/1.1\r\n\r\n', 400, 'bad_request'],
    ['a Host no URL can hold', 'GET /api/health HTTP/1.1\r\nHost: a b\r\n\r\n', 400, 'bad_request'],
    ['a backslash in the path', 'GET /api\\health HTTP/1.1\r\nHost: localhost\r\n\r\n', 400, 'bad_request'],
    ['headers over 16 KiB', `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(17_000)}\r\n\r\n`, 431, 'headers_too_large'],
  ])('%s → %i in the error shape, with the security headers', async (_why, bytes, status, code) => {
    const answer = await raw(bytes)
    expect(answer.status).toBe(status)
    expect(answer.headers.get('content-type')).toMatch(/^application\/json\b/)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'")
    expect(answer.headers.get('x-frame-options')).toBe('DENY')
    expect(answer.headers.get('x-request-id')).toMatch(/^[\w-]{36}$/)
    const body = JSON.parse(answer.body) as { error: { code: string; message: string } }
    expect(Object.keys(body)).toEqual(['error'])
    expect(body.error.code).toBe(code)
    expect(body.error.message.length).toBeGreaterThan(0)
  })

  it('answers a client that closes its side once the request is sent, however long the answer takes', async () => {
    // A password check takes tens of milliseconds (scrypt, even for an unknown email): by default
    // Node ended the connection at the client's FIN, before the answer.
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'not the password' })
    const answer = await raw(
      `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: ${server.url}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      true,
    )
    expect(answer.status).toBe(401)
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'invalid_credentials' } })
  })

  it('serves a request whose Expect it does not meet as if it had none (Node answered a bare 417)', async () => {
    const answer = await raw('GET /api/health HTTP/1.1\r\nHost: localhost\r\nExpect: x-unknown\r\nConnection: close\r\n\r\n')
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'ok' })
  })
})

describe('unexpected errors (error handler in-process)', () => {
  it('→ 500 internal_error without internals, which go to the log instead', async () => {
    const logged: string[] = []
    const logger = pino({ base: undefined }, { write: (line: string) => logged.push(line) })
    const app = new Hono<AppEnv>()
    app.use('*', async (c, next) => {
      c.set('requestId', 'test-request')
      c.set('logger', () => logger)
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
