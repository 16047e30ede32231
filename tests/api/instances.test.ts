import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readOutbox } from '../../src/server/mail/index.js'
import { Client, freshUser, registerAndVerify } from '../helpers/auth-client.js'
import { type TestDatabase, createTestDatabase } from '../helpers/database.js'
import { type ServerProcess, startServer } from '../helpers/server.js'

const redisUrl = process.env.TEST_REDIS_URL
const password = 'correct horse battery'

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
      // Without the up-to-60 s cached copy, instance B sees at once that the session is gone.
      onB.cookies.delete('lingua.session_data')
      expect(await freshUser(onB)).toBeNull()
    })

    it('sends at most one email of a kind per address per minute between both instances', async () => {
      const email = 'grace@example.com'
      await registerAndVerify(new Client(a), dataDir, { email, password })
      for (const server of [a, b, a, b]) {
        const response = await new Client(server).request('POST', '/api/auth/request-password-reset', {
          email,
          redirectTo: '/confirm',
        })
        expect(response.status).toBe(200)
      }
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
  },
)
