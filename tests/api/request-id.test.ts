import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { startAppServer } from '../helpers/app-server'
import { jsonLogs, type TestServer, waitForLog } from '../helpers/server'

describe('request ids', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer({ env: { LOG_REQUESTS: 'true' } })
  })

  it('gives every response its own X-Request-Id', async () => {
    const ids = await Promise.all(
      ['/api/health', '/api/nope', '/', '/config.json'].map(async (path) => {
        const response = await fetch(`${server.url}${path}`)
        await response.body?.cancel()
        return response.headers.get('x-request-id')
      }),
    )
    for (const id of ids) expect(id).toMatch(/^\S{8,}$/)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('echoes a valid incoming X-Request-Id in the header and the body', async () => {
    const id = `proxy-${randomUUID()}`
    const response = await fetch(`${server.url}/api/demo/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': id },
      body: JSON.stringify({
        name: 'Ada',
        email: 'ada@example.com',
        message: 'Hello from a test.',
      }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-request-id')).toBe(id)
    expect(await response.json()).toMatchObject({ requestId: id })
  })

  it.each([
    ['with spaces', 'not a valid id'],
    ['too long', 'x'.repeat(200)],
    ['with markup', '<script>alert(1)</script>'],
  ])('replaces an incoming X-Request-Id %s', async (_why, incoming) => {
    const response = await fetch(`${server.url}/api/health`, {
      headers: { 'x-request-id': incoming },
    })
    const id = response.headers.get('x-request-id')
    expect(id).toBeTruthy()
    expect(id).not.toBe(incoming)
  })

  it('puts the request id on every log line written for a request', async () => {
    const id = `trace-${randomUUID()}`
    const response = await fetch(`${server.url}/api/client-errors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': id },
      body: JSON.stringify({ message: 'boom', path: '/about', userAgent: 'test' }),
    })
    expect(response.status).toBe(204)

    const requestLine = await waitForLog(
      server,
      (entry) => entry.requestId === id && entry.msg === 'request',
    )
    expect(requestLine).toMatchObject({
      req: { method: 'POST', path: '/api/client-errors' },
      res: { status: 204 },
    })
    const linesOfThisRequest = jsonLogs(server).filter((entry) => entry.requestId === id)
    expect(linesOfThisRequest.map((entry) => entry.msg)).toEqual([
      'client error reported',
      'request',
    ])

    // And no request was logged without one.
    const requestLines = jsonLogs(server).filter((entry) => entry.msg === 'request')
    expect(requestLines.length).toBeGreaterThan(1)
    for (const entry of requestLines) expect(typeof entry.requestId).toBe('string')
  })
})
