import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_ERROR_LIMITS } from '@/server/api/client-errors'
import { readOutbox } from '@/server/mail/index'
import type { LanguageLevel } from '@/shared/levels'
import { Client, freshUser, registerAndVerify } from '../helpers/auth-client'
import { type TestDatabase, createTestDatabase } from '../helpers/database'
import { allLevels } from '../helpers/levels'
import { type ServerProcess, expectApiError, expectJson, startServer } from '../helpers/server'

const redisUrl = process.env.TEST_REDIS_URL
const password = 'correct horse battery'
const tokenCookie = 'lingua.session_token'
const cacheCookie = 'lingua.session_data'
/**
 * The instances' SESSION_CACHE_SECONDS: the documented bound within which a revoked session is
 * refused everywhere (60 s by default), shortened so that the test need not wait a minute.
 */
const cacheSeconds = 5
/**
 * How soon a change on one instance holds on the other: the event crosses through PostgreSQL after
 * the commit, well within the 2 s in which a revoked session must leave every tab (docs/product.md §5),
 * long before the cache cookie would have expired.
 */
const liveWithinMs = 2000
const adminEmail = 'admin@example.com'


/** When a session cache cookie stops being believed (its signed `expiresAt`). */
const cacheCookieExpiry = (value: string) =>
  (JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { expiresAt: number }).expiresAt

/**
 * A client whose requests come from an address of its own (X-Forwarded-For, as TRUST_PROXY is
 * on): its sign-ups and sign-ins are not counted against the limits the last tests exhaust.
 */
const clientAt = (server: ServerProcess, address: string) =>
  new Client(server, server.url, { 'X-Forwarded-For': address })

describe.runIf(process.env.TEST_DATABASE_URL && redisUrl)(
  'two instances sharing PostgreSQL and Redis',
  () => {
    let database: TestDatabase
    let dataDir: string
    let a: ServerProcess
    let b: ServerProcess
    const keyPrefix = `lingua-test-${randomUUID()}:`

    beforeAll(async () => {
      database = await createTestDatabase()
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-instances-'))
      const env = {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        REDIS_URL: redisUrl ?? '',
        // A run of its own: no counters or sessions of another run.
        REDIS_KEY_PREFIX: keyPrefix,
        // Lets the lock-out test give each attempt an address of its own (X-Forwarded-For).
        TRUST_PROXY: 'true',
        SESSION_CACHE_SECONDS: String(cacheSeconds),
        ADMIN_EMAILS: adminEmail,
      }
      // Started at the same moment: migrations must not race.
      ;[a, b] = await Promise.all([startServer({ env }), startServer({ env })])
    })
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()])
      await database?.drop()
      await rm(dataDir, { recursive: true, force: true })
      const redis = new Redis(redisUrl ?? '')
      const keys = await redis.keys(`${keyPrefix}*`)
      if (keys.length > 0) await redis.del(...keys)
      await redis.quit()
    })

    it('a session made on one instance works on the other, and signing out on one ends it on both', async () => {
      const onA = new Client(a)
      await registerAndVerify(onA, dataDir, { email: 'ada@example.com', password })
      const onB = new Client(b)
      for (const [name, value] of onA.cookies) onB.cookies.set(name, value)
      expect(await freshUser(onB)).toMatchObject({ email: 'ada@example.com' })

      expect((await onA.request('POST', '/api/auth/sign-out', {})).status).toBe(200)
      // Without the cached copy (up to SESSION_CACHE_SECONDS old), instance B sees at once that the
      // session is gone.
      onB.cookies.delete('lingua.session_data')
      expect(await freshUser(onB)).toBeNull()
    })

    it.each([
      {
        how: 'signs out everywhere',
        revoke: (laptop: Client) => laptop.request('POST', '/api/auth/revoke-sessions', {}),
      },
      {
        how: 'ends the session of the other device',
        revoke: async (laptop: Client, phoneSessionId: string) => {
          const sessions = await expectJson<{ id: string }[]>(await laptop.request('GET', '/api/auth/list-sessions'))
          expect(sessions.map((session) => session.id)).toContain(phoneSessionId)
          return laptop.request('DELETE', `/api/me/sessions/${phoneSessionId}`)
        },
      },
    ])(
      'refuses on instance B, within SESSION_CACHE_SECONDS, a session whose user $how on instance A, though its client keeps the cache cookie',
      async ({ how, revoke }) => {
        const email = `${how.replaceAll(' ', '-')}@example.com`
        const address = `198.18.1.${how.length}`
        const laptop = clientAt(a, address)
        await registerAndVerify(laptop, dataDir, { email, password })
        // A second session, made on instance B: the phone.
        const phone = clientAt(b, address)
        expect((await phone.request('POST', '/api/auth/sign-in/email', { email, password })).status).toBe(200)
        const phoneSession = await expectJson<{ session: { id: string } }>(
          await phone.request('GET', '/api/auth/get-session?disableCookieCache=true'),
        )
        for (let i = 0; i < 3; i++) expect((await phone.request('GET', '/api/me')).status).toBe(200)
        const cookie = phone.cookies.get(cacheCookie)
        expect(cookie, 'the phone holds a session cache cookie').toBeDefined()
        const believedUntil = cacheCookieExpiry(cookie ?? '')
        expect(believedUntil - Date.now()).toBeLessThanOrEqual(cacheSeconds * 1000)

        expect((await revoke(laptop, phoneSession.session.id)).ok).toBe(true)
        const revokedAt = Date.now()
        // The bound: the cache cookie expires, at the latest SESSION_CACHE_SECONDS after the
        // revocation; then B asks the database (or Redis), where the session is gone. A second
        // of slack for the polling and two busy cores.
        const deadline = Math.min(believedUntil, revokedAt + cacheSeconds * 1000) + 1000
        let served = 0
        for (;;) {
          // The client keeps the cookie: nothing but its expiry ends the cached copy.
          expect(phone.cookies.get(cacheCookie)).toBe(cookie)
          const response = await phone.request('GET', '/api/me/profile')
          if (response.status === 401) {
            await expectApiError(response, 401, 'unauthenticated')
            break
          }
          expect(response.status).toBe(200)
          served++
          expect(Date.now(), `still served ${Date.now() - revokedAt} ms after the revocation (${served} answers)`).toBeLessThan(deadline)
          await sleep(100)
        }
        const refusedAfter = Date.now() - revokedAt
        expect(refusedAfter).toBeLessThanOrEqual(cacheSeconds * 1000 + 1000)
        // And better-auth's own endpoint on B agrees, with or without the cache.
        expect(await freshUser(phone)).toBeNull()
        expect((await phone.request('GET', '/api/auth/get-session')).status).toBe(200)
        expect(phone.cookies.has(tokenCookie) && phone.cookies.has(cacheCookie)).toBe(false)
      },
      (cacheSeconds + 20) * 1000,
    )

    it('refuses on instance B an edit of a level based on the version instance A has just replaced', async () => {
      const onA = clientAt(a, '198.18.2.1')
      await registerAndVerify(onA, dataDir, { email: adminEmail, password })
      const onB = clientAt(b, '198.18.2.1')
      for (const [name, value] of onA.cookies) onB.cookies.set(name, value)
      const [level] = await allLevels(onB)
      expect(level).toBeDefined()
      const { id, version } = level as LanguageLevel

      // Both read version `version`; A saves first.
      const saved = await expectJson<LanguageLevel>(
        await onA.request('PATCH', `/api/language-levels/${id}`, { name: 'Saved on A', version }),
      )
      expect(saved.version).toBe(version + 1)
      const stale = await onB.request('PATCH', `/api/language-levels/${id}`, { name: 'Stale on B', version })
      await expectApiError(stale, 409, 'conflict')

      // B answers what A wrote, and takes an edit based on it.
      const fresh = await expectJson<LanguageLevel>(await onB.request('GET', `/api/language-levels/${id}`))
      expect(fresh).toMatchObject({ name: 'Saved on A', version: version + 1 })
      const retried = await expectJson<LanguageLevel>(
        await onB.request('PATCH', `/api/language-levels/${id}`, { name: 'Saved on B', version: fresh.version }),
      )
      expect(retried).toMatchObject({ name: 'Saved on B', version: version + 2 })
    })

    it('an administrator on A disables a person whose tab talks to B: B refuses them within 2 s, and their sign-in, and no refresh brings the session back', async () => {
      const admin = clientAt(a, '198.18.2.1')
      expect((await admin.request('POST', '/api/auth/sign-in/email', { email: adminEmail, password })).status).toBe(200)
      const onA = clientAt(a, '198.18.2.3')
      await registerAndVerify(onA, dataDir, { email: 'linus@example.com', password })
      const onB = clientAt(b, '198.18.2.3')
      for (const [name, value] of onA.cookies) onB.cookies.set(name, value)
      const id = ((await freshUser(onB)) as { id?: string } | null)?.id ?? ''
      // B now holds a session cache cookie it would believe for `cacheSeconds` without the store.
      expect((await onB.request('GET', '/api/me')).status).toBe(200)
      expect(onB.cookies.has(cacheCookie)).toBe(true)

      // A role granted on A is in the session B answers (from its cache cookie until then) on the
      // person's next request.
      const roleOnB = async () =>
        ((await (await onB.request('GET', '/api/auth/get-session')).json()) as { user?: { role?: string } } | null)?.user?.role
      expect(await roleOnB()).toBe('user')
      await expectJson(await admin.request('PUT', `/api/admin/users/${id}/role`, { role: 'admin' }))
      const roleSeen = Date.now()
      while ((await roleOnB()) !== 'admin') {
        expect(Date.now() - roleSeen, 'the new role seen on B').toBeLessThan(liveWithinMs)
        await sleep(20)
      }
      await expectJson(await admin.request('PUT', `/api/admin/users/${id}/role`, { role: 'user' }))

      // better-auth's copy of the session in Redis, under its token.
      const token = decodeURIComponent(onA.cookies.get(tokenCookie) ?? '').split('.')[0] ?? ''
      const storedInRedis = async () => {
        const redis = new Redis(redisUrl ?? '')
        try {
          return (await redis.exists(`${keyPrefix}auth:${token}`)) === 1
        } finally {
          await redis.quit()
        }
      }
      expect(await storedInRedis()).toBe(true)

      await expectJson(await admin.request('POST', `/api/admin/users/${id}/disable`))
      const disabledAt = Date.now()
      // The event crosses from A to B through PostgreSQL after A's commit (liveWithinMs).
      while ((await onB.request('GET', '/api/me')).status !== 401) {
        expect(Date.now() - disabledAt, 'the person refused on B').toBeLessThan(liveWithinMs)
        await sleep(20)
      }
      await expectApiError(
        await clientAt(b, '198.18.2.3').request('POST', '/api/auth/sign-in/email', { email: 'linus@example.com', password }),
        403,
        'account_disabled',
      )
      // The instances' refreshes of the copies kept in Redis (after the role changes and the
      // disable) have run by now: none brought the ended session back.
      await sleep(1000)
      expect((await onB.request('GET', '/api/me')).status).toBe(401)
      expect(await storedInRedis()).toBe(false)
    })

    it('serves on instance B, byte for byte, a picture uploaded through instance A, and answers 404 there once it is removed on A', async () => {
      const address = '198.18.3.1'
      const onA = clientAt(a, address)
      await registerAndVerify(onA, dataDir, { email: 'pictured@example.com', password })
      const file = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c03060' } }).png().toBuffer()
      const { image } = await expectJson<{ image: string }>(
        await onA.request('PUT', '/api/me/avatar', undefined, {
          body: new Uint8Array(file),
          // These replace the client's own headers: its address, Origin and cookies are given again.
          headers: { 'Content-Type': 'image/png', Origin: a.url, Cookie: onA.cookieHeader(), 'X-Forwarded-For': address },
        }),
      )
      // The picture is in the database, not on A's disk: B serves the same bytes at both sizes.
      const urls = [image, image.replace(/-256\.webp$/, '-64.webp')]
      for (const url of urls) {
        const fromA = await fetch(`${a.url}${url}`)
        const fromB = await fetch(`${b.url}${url}`)
        expect([fromA.status, fromB.status], url).toEqual([200, 200])
        expect(fromB.headers.get('content-type')).toBe('image/webp')
        expect(Buffer.from(await fromB.arrayBuffer()).equals(Buffer.from(await fromA.arrayBuffer())), url).toBe(true)
      }

      expect((await onA.request('DELETE', '/api/me/avatar')).status).toBe(204)
      for (const url of urls) await expectApiError(await fetch(`${b.url}${url}`), 404, 'not_found')
    })

    it('sends at most one email of a kind per address per minute between both instances', async () => {
      const email = 'grace@example.com'
      await registerAndVerify(new Client(a), dataDir, { email, password })
      const statuses = []
      for (const server of [a, b, a, b]) {
        const response = await new Client(server).request('POST', '/api/auth/request-password-reset', {
          email,
          redirectTo: '/confirm',
        })
        statuses.push(response.status)
        // The others are told to wait, by whichever instance they reach.
        if (response.status === 429) await expectApiError(response, 429, 'email_recently_sent')
      }
      expect(statuses).toEqual([200, 429, 429, 429])
      expect(await readOutbox(dataDir, { to: email, kind: 'reset-password' })).toHaveLength(1)
    })

    it('locks password sign-in for an email after 5 failures counted across both instances', async () => {
      let addresses = 0
      const attempt = (server: ServerProcess, secret: string) =>
        fetch(`${server.url}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: {
            Origin: server.url,
            'Content-Type': 'application/json',
            'X-Forwarded-For': `198.18.0.${++addresses}`,
          },
          body: JSON.stringify({ email: 'ada@example.com', password: secret }),
        })
      for (const server of [a, b, a, b, a]) expect((await attempt(server, 'not the password')).status).toBe(401)
      expect((await attempt(b, password)).status).toBe(429)
      expect((await attempt(a, password)).status).toBe(429)
    })

    it('counts the sign-in rate limit across both instances', async () => {
      let emails = 0
      // Each for an email of its own: this limit counts client addresses, not accounts.
      const attempt = (server: ServerProcess) =>
        fetch(`${server.url}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: { Origin: server.url, 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: `nobody-${++emails}@example.com`, password: 'not the password' }),
        })
      for (let i = 0; i < 5; i++) expect((await attempt(a)).status).toBe(401)
      for (let i = 0; i < 5; i++) expect((await attempt(b)).status).toBe(401)
      expect((await attempt(a)).status).toBe(429)
      expect((await attempt(b)).status).toBe(429)
    })

    it('counts the session reads of one address across both instances, the answers an instance kept too', async () => {
      const reader = clientAt(a, '198.18.3.1')
      await registerAndVerify(reader, dataDir, { email: 'reader@example.com', password })
      // The same session read from an address of its own: its count starts at zero (600 a minute).
      const [onA, onB] = [clientAt(a, '198.18.3.2'), clientAt(b, '198.18.3.2')]
      for (const client of [onA, onB]) for (const [name, value] of reader.cookies) client.cookies.set(name, value)
      const read = async (client: Client) => {
        const response = await client.request('GET', '/api/auth/get-session')
        await response.body?.cancel()
        return response.status
      }
      // After its first read, each instance answers from what it kept (session-answer-memo.ts).
      for (let count = 0; count < 600; count++) expect(await read(count % 2 ? onB : onA), `read ${count + 1}`).toBe(200)
      expect(await read(onA)).toBe(429)
      expect(await read(onB)).toBe(429)
    })

    it('counts the error reports of one address across both instances', async () => {
      const report = (server: ServerProcess) =>
        fetch(`${server.url}/api/client-errors`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.7' },
          body: JSON.stringify({ message: 'boom', path: '/', userAgent: 'bot' }),
        })
      for (let i = 0; i < CLIENT_ERROR_LIMITS.perAddress / 2; i++) {
        expect((await report(a)).status).toBe(204)
        expect((await report(b)).status).toBe(204)
      }
      await expectApiError(await report(a), 429, 'rate_limited')
      await expectApiError(await report(b), 429, 'rate_limited')
    })
  },
)
