import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readOutbox } from '@/server/mail/index'
import { startAppServer } from '../helpers/app-server'
import { Client, freshUser, registerAndVerify, verificationLink } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { type TestServer, expectApiError } from '../helpers/server'

const password = 'correct horse battery'

describe.each(databaseTargets())('accounts with email and password on %s', (target) => {
  let server: TestServer
  let dataDir: string

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-auth-'))
    server = await startAppServer({ database: target, env: { DATA_DIR: dataDir, AUTH_RATE_LIMIT_SCALE: '100' } })
  })
  afterAll(async () => {
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('registers, refuses sign-in until the email is confirmed, then signs in', async () => {
    const client = new Client(server)
    const email = `ada-${target}@example.com`
    const registered = await client.request('POST', '/api/auth/sign-up/email', {
      name: 'Ada Lovelace',
      email,
      password,
    })
    expect(registered.status).toBe(200)
    expect(client.cookies.size).toBe(0)

    const link = await verificationLink(dataDir, email)
    // Emailed links use APP_URL (the test servers' own address).
    expect(`${link.origin}${link.pathname}`).toBe(`${server.url}/confirm`)
    expect(link.searchParams.get('type')).toBe('signup')

    const early = await client.request('POST', '/api/auth/sign-in/email', { email, password })
    await expectApiError(early, 403, 'email_not_verified')
    expect(client.cookies.size).toBe(0)

    const verified = await client.request(
      'GET',
      `/api/auth/verify-email?token=${encodeURIComponent(link.searchParams.get('token') ?? '')}`,
    )
    expect(verified.status).toBe(200)

    const session = await client.request('GET', '/api/auth/get-session')
    expect(session.status).toBe(200)
    expect(await session.json()).toMatchObject({ user: { email, emailVerified: true } })
  })

  it('sets the session in an HttpOnly, SameSite=Lax cookie that lasts 400 days', async () => {
    const client = new Client(server)
    const email = `cookie-${target}@example.com`
    await registerAndVerify(client, dataDir, { email, password })
    client.cookies.clear()

    const response = await client.request('POST', '/api/auth/sign-in/email', { email, password })
    expect(response.status).toBe(200)
    const sessionCookie = response.headers
      .getSetCookie()
      .find((header) => header.startsWith('lingua.session_token='))
    expect(sessionCookie).toBeDefined()
    expect(sessionCookie).toMatch(/;\s*HttpOnly/i)
    expect(sessionCookie).toMatch(/;\s*SameSite=Lax/i)
    expect(sessionCookie).toMatch(/;\s*Path=\//)
    expect(sessionCookie).toMatch(new RegExp(`Max-Age=${400 * 24 * 60 * 60}\\b`))
    // Served over plain http here: a Secure cookie would never come back.
    expect(sessionCookie).not.toMatch(/;\s*Secure/i)
  })

  it('refuses a wrong password with 401 and no session', async () => {
    const client = new Client(server)
    const email = `wrong-${target}@example.com`
    await registerAndVerify(client, dataDir, { email, password })
    client.cookies.clear()

    const response = await client.request('POST', '/api/auth/sign-in/email', {
      email,
      password: 'not the password',
    })
    await expectApiError(response, 401, 'invalid_credentials')
    expect(client.cookies.has('lingua.session_token')).toBe(false)
  })

  it('signs out: the session no longer works', async () => {
    const client = new Client(server)
    const email = `out-${target}@example.com`
    await registerAndVerify(client, dataDir, { email, password })
    expect(client.cookies.has('lingua.session_token')).toBe(true)
    const stolen = new Map(client.cookies)

    expect((await client.request('POST', '/api/auth/sign-out', {})).status).toBe(200)
    expect(await (await client.request('GET', '/api/auth/get-session')).json()).toBeNull()

    // The old session token, replayed without its cached copy, is refused by the database.
    const replay = new Client(server)
    replay.cookies.set('lingua.session_token', stolen.get('lingua.session_token') ?? '')
    expect(await (await replay.request('GET', '/api/auth/get-session')).json()).toBeNull()
  })

  it('refuses a sign-in posted from another origin', async () => {
    const client = new Client(server, 'https://evil.example')
    const response = await client.request('POST', '/api/auth/sign-in/email', {
      email: `ada-${target}@example.com`,
      password,
    })
    expect(response.status).toBe(403)
    expect(client.cookies.size).toBe(0)
  })

  it('refuses passwords shorter than 8 or longer than 128 characters, on the password field', async () => {
    const client = new Client(server)
    for (const [email, candidate] of [
      [`short-${target}@example.com`, 'seven77'],
      [`long-${target}@example.com`, 'x'.repeat(129)],
    ] as const) {
      const response = await client.request('POST', '/api/auth/sign-up/email', {
        name: 'Ada',
        email,
        password: candidate,
      })
      const error = await expectApiError(response, 400, 'weak_password')
      expect(Object.keys(error.fields ?? {})).toEqual(['password'])
    }
    const longest = await client.request('POST', '/api/auth/sign-up/email', {
      name: 'Ada',
      email: `longest-${target}@example.com`,
      password: 'Lingua, level by level: '.repeat(6).slice(0, 128),
    })
    expect(longest.status).toBe(200)
  })

  it('refuses common and easily guessed passwords with a clear message', async () => {
    const client = new Client(server)
    for (const weak of ['password123', 'qwertyuiop', '12345678910', `weak-${target}@example.com`]) {
      const response = await client.request('POST', '/api/auth/sign-up/email', {
        name: 'Ada',
        email: `weak-${target}@example.com`,
        password: weak,
      })
      const error = await expectApiError(response, 400, 'weak_password')
      expect(error.fields?.password?.[0]).toMatch(/too common or too easy to guess/)
    }
  })

  it('answers an invalid or tampered confirmation token in the error shape', async () => {
    const client = new Client(server)
    await expectApiError(
      await client.request('GET', '/api/auth/verify-email?token=not-a-token'),
      400,
      'invalid_token',
    )
  })

  it('answers registration, recovery and code requests the same for known and unknown emails', async () => {
    const known = `known-${target}@example.com`
    await registerAndVerify(new Client(server), dataDir, { email: known, password })
    const unknown = `unknown-${target}@example.com`
    const shape = (value: unknown): unknown =>
      value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)]))
        : typeof value
    const requests: [string, (email: string) => unknown][] = [
      ['/api/auth/sign-up/email', (email) => ({ name: 'Eve', email, password: 'another long password' })],
      ['/api/auth/request-password-reset', (email) => ({ email, redirectTo: '/confirm' })],
      ['/api/auth/email-otp/send-verification-otp', (email) => ({ email, type: 'sign-in' })],
    ]
    for (const [pathname, body] of requests) {
      const answers = []
      for (const email of [known, unknown]) {
        const response = await new Client(server).request('POST', pathname, body(email))
        answers.push({ status: response.status, shape: shape(await response.json()) })
      }
      expect(answers[0], pathname).toEqual(answers[1])
      expect(answers[0]?.status, pathname).toBe(200)
    }
  })

  it('emails the owner when someone registers their address again, at most once a minute', async () => {
    const email = `again-${target}@example.com`
    await registerAndVerify(new Client(server), dataDir, { email, password })
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await new Client(server).request('POST', '/api/auth/sign-up/email', {
        name: 'Eve',
        email: attempt ? email.toUpperCase() : email,
        password: 'another long password',
      })
      expect(response.status).toBe(200)
    }
    const [mail, ...more] = await readOutbox(dataDir, { to: email, kind: 'account-exists' })
    expect(more).toEqual([])
    expect(mail?.subject).toBe('You already have a Lingua account')
    expect(mail?.link).toBe(`${server.url}/login`)
    expect(mail?.text).toContain('Forgot password?')
    // No second confirmation: the account is the owner's, not the new registrant's.
    expect(await readOutbox(dataDir, { to: email, kind: 'verify-email' })).toHaveLength(1)
    await expectApiError(
      await new Client(server).request('POST', '/api/auth/sign-in/email', { email, password: 'another long password' }),
      401,
      'invalid_credentials',
    )
  })

  it('confirms an unconfirmed account signed in with an emailed code, and drops the password it was registered with', async () => {
    // Whoever registered the address may not own the mailbox: better-auth keeps no password or
    // session from before the code proved it.
    const email = `unconfirmed-${target}@example.com`
    const client = new Client(server)
    expect((await client.request('POST', '/api/auth/sign-up/email', { name: 'Ada', email, password })).status).toBe(200)
    const sent = await client.request('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })
    expect(sent.status).toBe(200)
    const [mail] = await readOutbox(dataDir, { to: email, kind: 'sign-in-code' })
    expect((await client.request('POST', '/api/auth/sign-in/email-otp', { email, otp: mail?.code })).status).toBe(200)
    expect(await freshUser(client)).toMatchObject({ email, emailVerified: true })
    await expectApiError(
      await new Client(server).request('POST', '/api/auth/sign-in/email', { email, password }),
      401,
      'invalid_credentials',
    )
  })

  it('signs in with an emailed code once: asking again keeps the code, a used or guessed-at code is refused', async () => {
    const email = `code-${target}@example.com`
    await registerAndVerify(new Client(server), dataDir, { email, password })
    const ask = () =>
      new Client(server).request('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })
    const signInWith = (otp: string | undefined) =>
      new Client(server).request('POST', '/api/auth/sign-in/email-otp', { email, otp })

    expect((await ask()).status).toBe(200)
    // A second request within the mail throttle's minute is told to wait, sends nothing, and does
    // not replace the code already in the inbox.
    await expectApiError(await ask(), 429, 'email_recently_sent')
    const codes = await readOutbox(dataDir, { to: email, kind: 'sign-in-code' })
    expect(codes).toHaveLength(1)
    const code = codes[0]?.code
    expect(code).toMatch(/^\d{6}$/)

    const wrong = code === '000000' ? '111111' : '000000'
    await expectApiError(await signInWith(wrong), 400, 'invalid_token')
    expect((await signInWith(code)).status).toBe(200)
    await expectApiError(await signInWith(code), 400, 'invalid_token')
  })

  it('answers /api/me with the signed-in user, and 401 in the error shape to a visitor', async () => {
    const visitor = await new Client(server).request('GET', '/api/me')
    await expectApiError(visitor, 401, 'unauthenticated')

    const email = `me-${target}@example.com`
    const client = new Client(server)
    await registerAndVerify(client, dataDir, { name: 'Ada Me', email, password })
    const me = await client.request('GET', '/api/me')
    expect(me.status).toBe(200)
    expect(me.headers.get('cache-control')).toBe('no-store')
    const { user } = (await me.json()) as { user: Record<string, unknown> }
    expect(Object.keys(user).sort()).toEqual(['email', 'emailVerified', 'id', 'name', 'role'])
    expect(user).toMatchObject({ name: 'Ada Me', email, emailVerified: true })

    // Without the 60 s cache cookie the session is read from the database, and the cookie comes back.
    client.cookies.delete('lingua.session_data')
    expect((await client.request('GET', '/api/me')).status).toBe(200)
    expect(client.cookies.has('lingua.session_data')).toBe(true)

    expect((await client.request('POST', '/api/auth/sign-out', {})).status).toBe(200)
    await expectApiError(await client.request('GET', '/api/me'), 401, 'unauthenticated')
  })

  it('refuses any API write a browser sends from another site, in the error shape', async () => {
    const foreign = await fetch(`${server.url}/api/demo/messages`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Eve', email: 'eve@example.com', message: 'hello there!' }),
    })
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toMatchObject({ error: { code: 'forbidden' } })
    const crossSite = await fetch(`${server.url}/api/auth/sign-out`, {
      method: 'POST',
      headers: { 'Sec-Fetch-Site': 'cross-site' },
    })
    expect(crossSite.status).toBe(403)
  })

  it('never writes the password to the log', () => {
    expect(server.logs.join('\n')).not.toContain(password)
  })
})
