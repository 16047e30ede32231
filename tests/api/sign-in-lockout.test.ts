import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readOutbox } from '../../src/server/mail/index.js'
import { Client, freshUser, registerAndVerify } from '../helpers/auth-client.js'
import { databaseTargets } from '../helpers/database.js'
import { type ServerProcess, expectApiError, startServer } from '../helpers/server.js'

const password = 'correct horse battery'
const wrong = 'not the password'

describe.each(databaseTargets())('per-account lock-out of password sign-in on %s', (target) => {
  let server: ServerProcess
  let dataDir: string
  let addresses = 0

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-lockout-'))
    // Behind a trusted proxy each attempt comes from an address of its own, as in an attack spread
    // over many addresses: the per-address limits never apply, the per-account lock-out does.
    server = await startServer({ database: target, env: { DATA_DIR: dataDir, TRUST_PROXY: 'true' } })
  })
  afterAll(async () => {
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  function signIn(email: string, secret: string) {
    addresses += 1
    return fetch(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: {
        Origin: server.url,
        'Content-Type': 'application/json',
        'X-Forwarded-For': `198.18.${addresses >> 8}.${addresses & 255}`,
      },
      body: JSON.stringify({ email, password: secret }),
    })
  }

  /** Five wrong passwords, then the right one: what a client sees of each. */
  async function fiveFailuresThenTheRightPassword(email: string) {
    const answers = []
    for (const [attempt, secret] of [wrong, wrong, wrong, wrong, wrong, password].entries()) {
      // Letter case does not make another email.
      const response = await signIn(attempt % 2 ? email.toUpperCase() : email, secret)
      answers.push({
        status: response.status,
        retryAfter: response.headers.has('retry-after'),
        body: (await response.json()) as unknown,
      })
    }
    return answers
  }

  it('locks it for 15 minutes after 5 failures, whatever the addresses, the same with or without an account', async () => {
    const known = `locked-${target}@example.com`
    await registerAndVerify(new Client(server), dataDir, { email: known, password })

    const answers = await fiveFailuresThenTheRightPassword(known)
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429])
    expect(await fiveFailuresThenTheRightPassword(`nobody-${target}@example.com`)).toEqual(answers)

    const locked = await signIn(known, password)
    const retryAfter = Number(locked.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(14 * 60)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    const error = await expectApiError(locked, 429, 'rate_limited')
    expect(error.message).toMatch(/too many failed sign-in attempts/i)
    // Other emails are not locked.
    await expectApiError(await signIn(`other-${target}@example.com`, wrong), 401, 'invalid_credentials')
  })

  it('starts counting again after a successful sign-in', async () => {
    const email = `cleared-${target}@example.com`
    await registerAndVerify(new Client(server), dataDir, { email, password })
    for (let i = 0; i < 4; i++) expect((await signIn(email, wrong)).status).toBe(401)
    expect((await signIn(email, password)).status).toBe(200)
    for (let i = 0; i < 5; i++) expect((await signIn(email, wrong)).status).toBe(401)
    expect((await signIn(email, password)).status).toBe(429)
  })

  it('leaves the code sign-in open while the password is locked, and a password reset lifts the lock', async () => {
    const email = `recover-${target}@example.com`
    await registerAndVerify(new Client(server), dataDir, { email, password })
    for (let i = 0; i < 5; i++) expect((await signIn(email, wrong)).status).toBe(401)
    expect((await signIn(email, password)).status).toBe(429)

    const byCode = new Client(server)
    const sent = await byCode.request('POST', '/api/auth/email-otp/send-verification-otp', {
      email,
      type: 'sign-in',
    })
    expect(sent.status).toBe(200)
    const [code] = (await readOutbox(dataDir, { to: email, kind: 'sign-in-code' })).slice(-1)
    const signedIn = await byCode.request('POST', '/api/auth/sign-in/email-otp', { email, otp: code?.code })
    expect(signedIn.status).toBe(200)
    expect(await freshUser(byCode)).toMatchObject({ email })

    const asked = await new Client(server).request('POST', '/api/auth/request-password-reset', {
      email,
      redirectTo: '/confirm',
    })
    expect(asked.status).toBe(200)
    const [reset] = await readOutbox(dataDir, { to: email, kind: 'reset-password' })
    const newPassword = 'a new and better passphrase'
    const changed = await new Client(server).request('POST', '/api/auth/reset-password', {
      token: new URL(reset?.link ?? '').searchParams.get('token'),
      newPassword,
    })
    expect(changed.status).toBe(200)
    expect((await signIn(email, newPassword)).status).toBe(200)
  })
})
