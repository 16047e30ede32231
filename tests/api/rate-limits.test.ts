import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer } from '../helpers/app-server'
import { type TestServer, expectApiError } from '../helpers/server'

let attempts = 0

/** A failed sign-in, each for an email of its own: these limits count addresses, not accounts. */
async function signIn(server: TestServer, headers: Record<string, string> = {}) {
  attempts += 1
  return fetch(`${server.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { Origin: server.url, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ email: `nobody-${attempts}@example.com`, password: 'not the password' }),
  })
}

describe('auth rate limits (default limits, as in production)', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer()
  })
  afterAll(async () => {
    await server.stop()
  })

  it('answers 429 with Retry-After after 10 sign-in attempts a minute from one address', async () => {
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await signIn(server)).status, `attempt ${attempt}`).toBe(401)
    }
    const limited = await signIn(server)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    await expectApiError(limited, 429, 'rate_limited')
  })

  it('lets one address read the session on every page load of a classroom (over the 100 of other endpoints)', async () => {
    for (let read = 1; read <= 150; read++) {
      const response = await fetch(`${server.url}/api/auth/get-session`)
      expect(response.status, `read ${read}`).toBe(200)
      await response.body?.cancel()
    }
  })

  it('does not let a client pick its own address with X-Forwarded-For (no trusted proxy)', async () => {
    const response = await signIn(server, { 'X-Forwarded-For': '203.0.113.7' })
    expect(response.status).toBe(429)
  })
})

describe('auth rate limits behind a trusted proxy', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer({ env: { TRUST_PROXY: 'true' } })
  })
  afterAll(async () => {
    await server.stop()
  })

  it('counts each forwarded client address on its own', async () => {
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await signIn(server, { 'X-Forwarded-For': '203.0.113.7' })).status).toBe(401)
    }
    expect((await signIn(server, { 'X-Forwarded-For': '203.0.113.7' })).status).toBe(429)
    expect((await signIn(server, { 'X-Forwarded-For': '198.51.100.2' })).status).toBe(401)
  })

  it('takes the address the proxy added (the last entry), not one the client wrote before it', async () => {
    // A proxy that appends: the client sends a new made-up address each time, the proxy adds the real one.
    for (let attempt = 1; attempt <= 10; attempt++) {
      const headers = { 'X-Forwarded-For': `192.0.2.${attempt}, 198.51.100.9` }
      expect((await signIn(server, headers)).status, `attempt ${attempt}`).toBe(401)
    }
    expect((await signIn(server, { 'X-Forwarded-For': '192.0.2.99, 198.51.100.9' })).status).toBe(429)
  })
})
