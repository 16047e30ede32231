import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SessionUser } from '@/server/http/context'
import { startAppServer } from '../helpers/app-server'
import { Client, registerAndVerify } from '../helpers/auth-client'
import { type TestServer, expectApiError } from '../helpers/server'

const password = 'correct horse battery'
const tokenCookie = 'lingua.session_token'
const cacheCookie = 'lingua.session_data'
/**
 * The server's SESSION_CACHE_SECONDS: long enough for a sign-up and a few requests on two busy
 * cores, short enough that the expiry test does not wait the default minute.
 */
const cacheSeconds = 8

type Cookies = Record<string, string>

/** The compact cache cookie: base64url JSON `{ session: { session, user, … }, expiresAt, signature }`. */
interface CachePayload {
  session: { session: { token: string }; user: Record<string, unknown> }
  expiresAt: number
  signature: string
}
const decode = (value: string) => JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as CachePayload
const encode = (payload: CachePayload) => Buffer.from(JSON.stringify(payload)).toString('base64url')

// readSession remembers what better-auth answered from a valid cache cookie (session-memo.ts).
// These tests hold it to better-auth's own rules over HTTP. It sits above the database, so the
// embedded one is enough. The tests run concurrently: each has its own accounts, and the last one
// waits for a cache cookie to expire (SESSION_CACHE_SECONDS, shortened here from 60 s).
describe.concurrent('the session memo of the app routes', () => {
  let server: TestServer
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-session-memo-'))
    server = await startAppServer({
      env: {
        DATA_DIR: dataDir,
        // Several accounts from one address within a minute.
        AUTH_RATE_LIMIT_SCALE: '20',
        // Without it the first account to confirm becomes admin, after its cookies were issued.
        ADMIN_EMAILS: 'nobody-here@example.com',
        SESSION_CACHE_SECONDS: String(cacheSeconds),
      },
    })
  })
  afterAll(async () => {
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  /** A confirmed, signed-in account; its client holds the token and a cache cookie. */
  const signUp = async (email: string, name: string) => {
    const client = new Client(server)
    await registerAndVerify(client, dataDir, { name, email, password })
    const cookies: Cookies = Object.fromEntries(client.cookies)
    expect(Object.keys(cookies)).toEqual(expect.arrayContaining([tokenCookie, cacheCookie]))
    return { client, cookies }
  }

  /** A request with exactly these cookies; nothing is kept. */
  const send = (pathname: string, cookies: Cookies) =>
    fetch(`${server.url}${pathname}`, {
      headers: {
        Origin: server.url,
        Cookie: Object.entries(cookies)
          .map(([name, value]) => `${name}=${value}`)
          .join('; '),
      },
    })

  const me = async (cookies: Cookies) => {
    const response = await send('/api/me', cookies)
    const body = (await response.json()) as { user?: SessionUser }
    return { status: response.status, user: body.user }
  }

  /** What better-auth's own endpoint says for these cookies (`null`: no session). */
  const getSession = async (cookies: Cookies) => {
    const response = await send('/api/auth/get-session', cookies)
    expect(response.status).toBe(200)
    return ((await response.json()) as { user: SessionUser } | null)?.user ?? null
  }

  it('answers the same user to every request with the same cookies, as better-auth does', async () => {
    const { cookies } = await signUp('same@example.com', 'Ada Same')
    const expected = await getSession(cookies)
    expect(expected).toMatchObject({ email: 'same@example.com', name: 'Ada Same', role: 'user' })
    for (let i = 0; i < 20; i++) {
      const answer = await me(cookies)
      expect(answer.status).toBe(200)
      expect(answer.user).toEqual({
        id: expected?.id,
        name: 'Ada Same',
        email: 'same@example.com',
        role: 'user',
        emailVerified: true,
      })
    }
  })

  it("answers better-auth's get-session again, byte for byte, to the same cookies (session-answer-memo.ts)", async () => {
    const { cookies } = await signUp('gina@example.com', 'Gina')
    const answers = []
    for (let i = 0; i < 5; i++) {
      const response = await send('/api/auth/get-session', cookies)
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.getSetCookie()).toEqual([])
      answers.push(await response.text())
    }
    expect(new Set(answers).size).toBe(1)
    const answer = JSON.parse(answers[0] ?? 'null') as { session: Record<string, unknown>; user: SessionUser }
    expect(answer.user).toMatchObject({ email: 'gina@example.com', name: 'Gina' })
    // The token stays in its HttpOnly cookie (session-tokens.ts), remembered answer or not.
    expect(answer.session).not.toHaveProperty('token')
    expect(answers[0]).not.toContain(cookies[tokenCookie]?.split('.')[0])
    // A query asks better-auth itself (`disableCookieCache` reads the store): the same user.
    const fresh = await send('/api/auth/get-session?disableCookieCache=true', cookies)
    expect(((await fresh.json()) as { user: SessionUser }).user.id).toBe(answer.user.id)
  })

  it('never gives one user the answer of another, however their requests interleave', async () => {
    const a = await signUp('ann@example.com', 'Ann')
    const b = await signUp('bob@example.com', 'Bob')
    const answers = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const [cookies, email] = i % 2 ? [b.cookies, 'bob@example.com'] : [a.cookies, 'ann@example.com']
        return { email, answer: await me(cookies) }
      }),
    )
    for (const { email, answer } of answers) {
      expect(answer.status).toBe(200)
      expect(answer.user?.email).toBe(email)
    }
    // One's token with the other's cache cookie: better-auth refuses the cookie of another
    // session and reads the token's own session; so does the memo.
    const crossed = [
      { [tokenCookie]: a.cookies[tokenCookie] ?? '', [cacheCookie]: b.cookies[cacheCookie] ?? '' },
      { [tokenCookie]: b.cookies[tokenCookie] ?? '', [cacheCookie]: a.cookies[cacheCookie] ?? '' },
    ]
    for (let round = 0; round < 3; round++) {
      expect((await me(crossed[0] ?? {})).user?.email).toBe('ann@example.com')
      expect((await me(crossed[1] ?? {})).user?.email).toBe('bob@example.com')
      expect((await getSession(crossed[0] ?? {}))?.email).toBe('ann@example.com')
      expect((await getSession(crossed[1] ?? {}))?.email).toBe('bob@example.com')
    }
    expect((await me(a.cookies)).user?.email).toBe('ann@example.com')
    expect((await me(b.cookies)).user?.email).toBe('bob@example.com')
  })

  it('does not believe a forged cache cookie, nor remember what the database answered for one', async () => {
    const { client, cookies } = await signUp('carol@example.com', 'Carol')
    const genuine = cookies[cacheCookie] ?? ''
    expect((await me(cookies)).user).toMatchObject({ name: 'Carol', role: 'user' })
    expect(await getSession(cookies)).toMatchObject({ name: 'Carol', role: 'user' })

    const payload = decode(genuine)
    const promoted = structuredClone(payload)
    promoted.session.user.role = 'admin'
    promoted.session.user.name = 'Mallory'
    const prolonged = structuredClone(payload)
    prolonged.expiresAt += 60 * 60 * 1000
    const badSignature = structuredClone(payload)
    badSignature.signature = `${payload.signature.slice(0, -2)}${payload.signature.endsWith('AA') ? 'BB' : 'AA'}`
    const forged = [promoted, prolonged, badSignature].map((p) => ({ ...cookies, [cacheCookie]: encode(p) }))

    // While the session lives, better-auth refuses each forged cookie and reads the database:
    // the real user, not what the cookie claims. Asked twice, in case the first was remembered.
    const stored = await getSession({ [tokenCookie]: cookies[tokenCookie] ?? '' })
    expect(stored).toMatchObject({ name: 'Carol', role: 'user' })
    for (const cookie of [...forged, ...forged]) {
      const answer = await me(cookie)
      expect(answer.status).toBe(200)
      expect(answer.user).toMatchObject({ id: stored?.id, name: 'Carol', role: 'user' })
      expect(await getSession(cookie)).toMatchObject({ id: stored?.id, name: 'Carol', role: 'user' })
    }

    expect((await client.request('POST', '/api/auth/sign-out', {})).status).toBe(200)
    // The session is gone from the database: no forged cookie is answered from anywhere.
    for (const cookie of forged) {
      await expectApiError(await send('/api/me', cookie), 401, 'unauthenticated')
    }
    // Nor the token alone: without a cache cookie, every request asks the database.
    await expectApiError(await send('/api/me', { [tokenCookie]: cookies[tokenCookie] ?? '' }), 401, 'unauthenticated')
    // Nor the genuine cache cookie, once the instance has heard that the session ended (a live
    // event): better-auth would honour it until it expires; the app drops it (docs/security.md).
    await vi.waitFor(async () => expect((await me(cookies)).status).toBe(401), { timeout: 2000, interval: 50 })
    expect(await getSession(cookies)).toBeNull()
    expect(decode(genuine).expiresAt).toBeGreaterThan(Date.now() - 60_000)
  })

  it(
    'refuses the old cookies of a signed-out session as soon as the sign-out is heard, and after its cache cookie expired',
    async () => {
      const { client, cookies } = await signUp('dora@example.com', 'Dora')
      const expiresAt = decode(cookies[cacheCookie] ?? '').expiresAt
      expect(expiresAt - Date.now()).toBeGreaterThan(0)
      // The server's SESSION_CACHE_SECONDS, not better-auth's default of 5 minutes.
      expect(expiresAt - Date.now()).toBeLessThanOrEqual(cacheSeconds * 1000)
      for (let i = 0; i < 5; i++) expect((await me(cookies)).status).toBe(200)
      for (let i = 0; i < 3; i++) expect(await getSession(cookies)).toMatchObject({ name: 'Dora' })

      expect((await client.request('POST', '/api/auth/sign-out', {})).status).toBe(200)
      // Within the bound too, once the sign-out is heard: the cache cookie is not believed.
      await vi.waitFor(async () => expect((await me(cookies)).status).toBe(401), { timeout: 2000, interval: 50 })
      expect(await getSession(cookies)).toBeNull()

      await sleep(Math.max(0, expiresAt - Date.now()) + 1000)
      await expectApiError(await send('/api/me', cookies), 401, 'unauthenticated')
      await expectApiError(await send('/api/me/profile', cookies), 401, 'unauthenticated')
      expect(await getSession(cookies)).toBeNull()
    },
    30_000,
  )
})

// A get-session answer the app kept (session-answer-memo.ts) is still counted against the address's
// limit, in better-auth's own counter: over it, better-auth refuses the request.
describe('the session reads answered by the app', () => {
  let server: TestServer
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-session-reads-'))
    server = await startAppServer({
      env: { DATA_DIR: dataDir, ADMIN_EMAILS: 'nobody-here@example.com', AUTH_RATE_LIMIT_SCALE: '0.02' },
    })
  })
  afterAll(async () => {
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  it("count against the address's limit of session reads, as better-auth's own answers do", async () => {
    const client = new Client(server)
    await registerAndVerify(client, dataDir, { name: 'Hana', email: 'hana@example.com', password })
    // 600 × 0.02: 12 reads a minute, some of them taken by the sign-up's own checks.
    const statuses: number[] = []
    for (let read = 0; read < 30 && !statuses.includes(429); read++) {
      const response = await client.request('GET', '/api/auth/get-session')
      statuses.push(response.status)
      if (response.status === 200) expect(((await response.json()) as { user: SessionUser }).user.name).toBe('Hana')
      else await expectApiError(response, 429, 'rate_limited')
    }
    const answered = statuses.filter((status) => status === 200).length
    expect(statuses.at(-1), statuses.join(' ')).toBe(429)
    expect(answered).toBeGreaterThan(1)
    expect(answered).toBeLessThanOrEqual(12)
  })
})
