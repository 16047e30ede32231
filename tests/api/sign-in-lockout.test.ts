import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readOutbox } from '@/server/mail/index'
import { startAppServer } from '../helpers/app-server'
import { Client, freshUser, registerAndVerify } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { type TestServer, expectApiError } from '../helpers/server'

const password = 'correct horse battery'
const wrong = 'not the password'

describe.each(databaseTargets())('per-account lock-out of password sign-in on %s', (target) => {
  let server: TestServer
  let dataDir: string
  let addresses = 0

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-lockout-'))
    // Behind a trusted proxy each attempt comes from an address of its own, as in an attack spread
    // over many addresses: the per-address limits never apply, the per-account lock-out does.
    server = await startAppServer({ database: target, env: { DATA_DIR: dataDir, TRUST_PROXY: 'true' } })
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
  it('cannot be turned against the owner: after wrong passwords and codes from elsewhere, the owner signs in with the password on a known browser and with an emailed code on a new one', async () => {
    const email = `victim-${target}@example.com`
    const owner = new Client(server, server.url, { 'X-Forwarded-For': '192.0.2.10' })
    // Opening the confirmation link signs in: from then on this browser knows the account.
    await registerAndVerify(owner, dataDir, { email, password })
    expect(owner.cookies.get('lingua.known_device')).toMatch(/^[\w-]{22}$/)
    expect((await owner.request('POST', '/api/auth/sign-out', {})).status).toBe(200)

    // The attacker, from addresses of its own: wrong passwords until the email is locked, then a
    // code asked for and burnt with wrong guesses.
    for (let i = 0; i < 5; i++) await expectApiError(await signIn(email, wrong), 401, 'invalid_credentials')
    await expectApiError(await signIn(email, password), 429, 'rate_limited')
    const attacker = new Client(server, server.url, { 'X-Forwarded-For': '198.51.100.66' })
    expect((await attacker.request('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })).status).toBe(200)
    for (let i = 0; i < 4; i++) {
      await expectApiError(await attacker.request('POST', '/api/auth/sign-in/email-otp', { email, otp: '000000' }), 400, 'invalid_token')
    }

    // The owner's browser is not held back by what strangers did.
    expect((await owner.request('POST', '/api/auth/sign-in/email', { email, password })).status).toBe(200)
    expect(await freshUser(owner)).toMatchObject({ email })

    // A new browser is a stranger for the password; the code it asks for is a fresh one, sent at
    // once (the burnt one does not hold the email back for the throttle's minute).
    const elsewhere = new Client(server, server.url, { 'X-Forwarded-For': '192.0.2.11' })
    await expectApiError(await elsewhere.request('POST', '/api/auth/sign-in/email', { email, password }), 429, 'rate_limited')
    const burnt = (await readOutbox(dataDir, { to: email, kind: 'sign-in-code' })).map((mail) => mail.code)
    expect(burnt).toHaveLength(1)
    expect((await elsewhere.request('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })).status).toBe(200)
    const codes = (await readOutbox(dataDir, { to: email, kind: 'sign-in-code' })).map((mail) => mail.code)
    expect(codes).toHaveLength(2)
    expect(codes[1]).not.toBe(codes[0])
    expect((await elsewhere.request('POST', '/api/auth/sign-in/email-otp', { email, otp: codes[1] })).status).toBe(200)
    expect(await freshUser(elsewhere)).toMatchObject({ email })
    // Its password sign-ins are the owner's from now on.
    expect(elsewhere.cookies.get('lingua.known_device')).toMatch(/^[\w-]{22}$/)
  })

  it('tells whoever asks for an email again within the minute to wait, the same with or without an account', async () => {
    const email = `asks-twice-${target}@example.com`
    await registerAndVerify(new Client(server), dataDir, { email, password })
    const answersFor = async (address: string) => {
      const client = new Client(server, server.url, { 'X-Forwarded-For': `192.0.2.${++addresses & 255}` })
      const answers = []
      for (const [path, body] of [
        ['/api/auth/email-otp/send-verification-otp', { email: address, type: 'sign-in' }],
        ['/api/auth/email-otp/send-verification-otp', { email: address, type: 'sign-in' }],
        ['/api/auth/request-password-reset', { email: address, redirectTo: '/confirm' }],
        ['/api/auth/request-password-reset', { email: address, redirectTo: '/confirm' }],
      ] as const) {
        const response = await client.request('POST', path, body)
        const retryAfter = Number(response.headers.get('retry-after') ?? 0)
        const text = await response.text()
        answers.push({ status: response.status, waits: retryAfter > 55 && retryAfter <= 60, text: text.replace(/\d+ s/, 'N s') })
      }
      return answers
    }
    const withAccount = await answersFor(email)
    expect(withAccount.map((answer) => answer.status)).toEqual([200, 429, 200, 429])
    expect(withAccount[1]).toMatchObject({ waits: true, text: expect.stringMatching(/"code":"email_recently_sent".*Wait N s before asking again/) as unknown })
    expect(await answersFor(`nobody-asks-${target}@example.com`)).toEqual(withAccount)
    // One code and one link went out, not two of each.
    expect(await readOutbox(dataDir, { to: email, kind: 'sign-in-code' })).toHaveLength(1)
    expect(await readOutbox(dataDir, { to: email, kind: 'reset-password' })).toHaveLength(1)
  })
})
