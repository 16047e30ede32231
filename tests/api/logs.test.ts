import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { MAX_ECHOED_TEXT } from '@/server/logger'
import { startAppServer } from '../helpers/app-server'
import { Client } from '../helpers/auth-client'
import { expectApiError, jsonLogs, type ServerProcess, type TestServer, startServer, waitForLog } from '../helpers/server'

/** The log tells operators about the server, not about visitors' mistakes. */
describe('what a visitor’s mistakes write to the log', () => {
  let server: ServerProcess
  beforeAll(async () => {
    server = await startServer({ env: { NODE_ENV: 'production', LOG_LEVEL: 'debug' } })
  })

  it('logs a refused callback URL as a warning, repeating at most a bounded part of it', async () => {
    const attackerText = `https://evil.example/${'x'.repeat(5000)}`
    const before = server.logs.length
    const refused = await new Client(server).request('POST', '/api/auth/sign-in/email', {
      email: 'nobody@example.com',
      password: 'not the password',
      callbackURL: attackerText,
    })
    expect(refused.status).toBe(403)
    await expect.poll(() => jsonLogs(server).some((entry) => String(entry.msg).startsWith('Invalid callbackURL'))).toBe(true)
    const lines = jsonLogs(server).slice(-(server.logs.length - before))
    const line = lines.find((entry) => String(entry.msg).startsWith('Invalid callbackURL'))
    expect(line).toMatchObject({ level: 40, component: 'auth' })
    expect(String(line?.msg).length).toBeLessThan(MAX_ECHOED_TEXT + 40)
    expect(lines.filter((entry) => Number(entry.level) >= 50)).toEqual([])
  })

  it('has closed the deprecated path that printed a plain-text warning, and every line is JSON', async () => {
    await expectApiError(
      await new Client(server).request('POST', '/api/auth/forget-password/email-otp', { email: 'nobody@example.com' }),
      404,
      'not_found',
    )
    expect(server.logs.filter((line) => !line.startsWith('{'))).toEqual([])
  })
})

/** Operators choose the request log; what goes wrong or slow is logged whatever they chose. */
describe('the request log', () => {
  const linesOf = (server: TestServer, id: string) => jsonLogs(server).filter((entry) => entry.requestId === id)
  const send = (server: TestServer, method: string, path: string, id: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { 'x-request-id': id, 'content-type': 'application/json', origin: server.url },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  /** A line every setting writes (a reported client error): once it is in, earlier ones are too. */
  const barrier = async (server: TestServer) => {
    const id = `barrier-${randomUUID()}`
    expect((await send(server, 'POST', '/api/client-errors', id, { message: 'barrier', path: '/', userAgent: 'test' })).status).toBe(204)
    await waitForLog(server, (entry) => entry.requestId === id)
  }

  it('is off by default: a successful answer writes no line, a slow one and a server error do', async () => {
    const server = await startServer({ env: { SHUTDOWN_DELAY_MS: '3000' } })
    try {
      const quick = `quick-${randomUUID()}`
      expect((await send(server, 'GET', '/api/health', quick)).status).toBe(200)
      await barrier(server)
      expect(linesOf(server, quick)).toEqual([])

      // Draining: readiness answers 503 while connections are still taken.
      server.process.kill('SIGTERM')
      const draining = `draining-${randomUUID()}`
      await expect.poll(async () => (await send(server, 'GET', '/api/ready', draining)).status).toBe(503)
      const line = await waitForLog(server, (entry) => entry.requestId === draining && entry.msg === 'request')
      expect(line).toMatchObject({ level: 30, req: { method: 'GET', path: '/api/ready' }, res: { status: 503 } })
    } finally {
      await server.stop()
    }
  })

  it('logs an answer slower than SLOW_REQUEST_MS as a warning, with its time', async () => {
    // A sign-in checks a password hash: far slower than 1 ms.
    const server = await startAppServer({ env: { SLOW_REQUEST_MS: '1' } })
    try {
      const id = `slow-${randomUUID()}`
      const answer = await send(server, 'POST', '/api/auth/sign-in/email', id, { email: 'nobody@example.com', password: 'not the password' })
      expect(answer.status).toBe(401)
      const line = await waitForLog(server, (entry) => entry.requestId === id && entry.msg === 'slow request')
      expect(line).toMatchObject({ level: 40, req: { method: 'POST', path: '/api/auth/sign-in/email' }, res: { status: 401 } })
      expect(Number(line.ms)).toBeGreaterThanOrEqual(1)
    } finally {
      await server.stop()
    }
  })

  it('writes every answer at info with LOG_REQUESTS=true', async () => {
    const server = await startAppServer({ env: { LOG_REQUESTS: 'true' } })
    try {
      const id = `logged-${randomUUID()}`
      expect((await send(server, 'GET', '/api/health', id)).status).toBe(200)
      const line = await waitForLog(server, (entry) => entry.requestId === id && entry.msg === 'request')
      expect(line).toMatchObject({ level: 30, req: { method: 'GET', path: '/api/health' }, res: { status: 200 } })
    } finally {
      await server.stop()
    }
  })
})
