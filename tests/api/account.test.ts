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

describe.each(databaseTargets())('email change and account deletion on %s', (target) => {
  let server: TestServer
  let dataDir: string
  const boss = `boss-${target}@example.com`

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-account-'))
    // Each test registers accounts from one address: more than the 5 sign-ups a minute allowed.
    server = await startAppServer({ database: target, env: { DATA_DIR: dataDir, ADMIN_EMAILS: boss, AUTH_RATE_LIMIT_SCALE: '4' } })
  })
  afterAll(async () => {
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  const signIn = (email: string, secret: string) =>
    new Client(server).request('POST', '/api/auth/sign-in/email', { email, password: secret })

  it('moves the account to a new address once the link sent there is opened', async () => {
    const client = new Client(server)
    const old = `old-${target}@example.com`
    await registerAndVerify(client, dataDir, { email: old, password })

    expect((await client.request('POST', '/api/auth/change-email', { newEmail: boss })).status).toBe(200)
    // Nothing changes until the new address's owner opens the link; the old address gets nothing.
    expect(await freshUser(client)).toMatchObject({ email: old })
    expect(await readOutbox(dataDir, { to: old, kind: 'change-email' })).toEqual([])
    const [mail, ...more] = await readOutbox(dataDir, { to: boss, kind: 'change-email' })
    expect(more).toEqual([])
    expect(mail?.text).toContain(boss)
    const link = new URL(mail?.link ?? '')
    expect(`${link.origin}${link.pathname}`).toBe(`${server.url}/confirm`)
    expect(link.searchParams.get('type')).toBe('email_change')

    const token = link.searchParams.get('token') ?? ''
    const confirmed = await client.request('GET', `/api/auth/verify-email?token=${encodeURIComponent(token)}`)
    expect(confirmed.status).toBe(200)
    // Verified at an address ADMIN_EMAILS lists: the role follows the new address.
    expect(await freshUser(client)).toMatchObject({ email: boss, emailVerified: true, role: 'admin' })
    expect((await signIn(boss, password)).status).toBe(200)
    await expectApiError(await signIn(old, password), 401, 'invalid_credentials')
  })

  it('answers a change to a taken address exactly like one to a free address, and mails only the free one', async () => {
    const client = new Client(server)
    await registerAndVerify(client, dataDir, { email: `mover-${target}@example.com`, password })
    const taken = `taken-${target}@example.com`
    await registerAndVerify(new Client(server), dataDir, { email: taken, password })
    const free = `free-${target}@example.com`

    const answers = []
    for (const newEmail of [taken, free]) {
      const response = await client.request('POST', '/api/auth/change-email', { newEmail })
      answers.push({ status: response.status, body: (await response.json()) as unknown })
    }
    expect(answers[0]).toEqual(answers[1])
    expect(answers[0]?.status).toBe(200)
    expect(await readOutbox(dataDir, { to: taken, kind: 'change-email' })).toEqual([])
    expect(await readOutbox(dataDir, { to: free, kind: 'change-email' })).toHaveLength(1)
  })

  it('deletes the account with its password only; the session ends and the address can register again', async () => {
    const client = new Client(server)
    const email = `leaving-${target}@example.com`
    await registerAndVerify(client, dataDir, { email, password })
    const token = client.cookies.get('lingua.session_token') ?? ''

    const withoutPassword = await client.request('POST', '/api/auth/delete-user', {})
    const missing = await expectApiError(withoutPassword, 400, 'validation_failed')
    expect(Object.keys(missing.fields ?? {})).toEqual(['password'])
    await expectApiError(
      await client.request('POST', '/api/auth/delete-user', { password: 'not the password' }),
      401,
      'invalid_credentials',
    )
    expect(await freshUser(client)).toMatchObject({ email })

    expect((await client.request('POST', '/api/auth/delete-user', { password })).status).toBe(200)
    expect(await freshUser(client)).toBeNull()
    // The session token, replayed, is refused by the database.
    const replay = new Client(server)
    replay.cookies.set('lingua.session_token', token)
    expect(await freshUser(replay)).toBeNull()
    await expectApiError(await signIn(email, password), 401, 'invalid_credentials')

    // A new registration makes a new, unconfirmed account with the new password.
    const newPassword = 'a fresh start, level by level'
    const again = new Client(server)
    const registered = await again.request('POST', '/api/auth/sign-up/email', { name: 'Ada', email, password: newPassword })
    expect(registered.status).toBe(200)
    expect(await readOutbox(dataDir, { to: email, kind: 'account-exists' })).toEqual([])
    await expectApiError(await signIn(email, newPassword), 403, 'email_not_verified')
  })

  it('checks names (1–100 characters) on sign-up and on update, and sets no picture there (pictures are uploaded)', async () => {
    const tooLong = await new Client(server).request('POST', '/api/auth/sign-up/email', {
      name: 'x'.repeat(101),
      email: `long-name-${target}@example.com`,
      password,
    })
    expect(Object.keys((await expectApiError(tooLong, 400, 'validation_failed')).fields ?? {})).toEqual(['name'])
    // A picture is only ever uploaded (PUT /api/me/avatar) and re-encoded by the server: any
    // `image` here is refused, an https:// one too, and so is removing it here.
    const withImage = await new Client(server).request('POST', '/api/auth/sign-up/email', {
      name: 'Ada',
      email: `sign-up-image-${target}@example.com`,
      password,
      image: 'https://example.com/ada.png',
    })
    expect(Object.keys((await expectApiError(withImage, 400, 'validation_failed')).fields ?? {})).toEqual(['image'])

    const client = new Client(server)
    await registerAndVerify(client, dataDir, { email: `profile-${target}@example.com`, password })
    const images = ['https://example.com/ada.png', 'http://example.com/a.png', 'javascript:alert(1)', '/api/avatars/x/y-256.webp', '', null]
    for (const image of images) {
      const refused = await client.request('POST', '/api/auth/update-user', { image })
      expect(Object.keys((await expectApiError(refused, 400, 'validation_failed')).fields ?? {}), String(image)).toEqual(['image'])
      // Not with a name either: nothing of the update is saved.
      const withName = await client.request('POST', '/api/auth/update-user', { name: 'Not Saved', image })
      expect(Object.keys((await expectApiError(withName, 400, 'validation_failed')).fields ?? {}), String(image)).toEqual(['image'])
    }
    expect(await freshUser(client)).toMatchObject({ name: 'Ada Lovelace', image: null })
    const blank = await client.request('POST', '/api/auth/update-user', { name: '   ' })
    expect(Object.keys((await expectApiError(blank, 400, 'validation_failed')).fields ?? {})).toEqual(['name'])

    expect((await client.request('POST', '/api/auth/update-user', { name: 'Ada King' })).status).toBe(200)
    expect(await freshUser(client)).toMatchObject({ name: 'Ada King', image: null })
  })

  it('refuses names people cannot read: control characters, ANSI escapes, direction overrides, and names that show nothing', async () => {
    const client = new Client(server)
    await registerAndVerify(client, dataDir, { name: 'Readable Name', email: `readable-${target}@example.com`, password })
    const unreadable = [
      ['a bell', 'Ada\u0007'],
      ['an ANSI escape', '\u001b[31mAdmin\u001b[0m'],
      ['a C1 control', 'Ada\u0085'],
      ['a right-to-left override', 'Ada\u202Egnp.exe'],
      ['a direction isolate', '\u2067Ada\u2069'],
      ['zero-width joiners only', '\u200D\u200D\u200D'],
      ['a Hangul filler', '\u3164'],
      ['Hangul and Braille fillers and a zero-width space', '\u115F\u2800\u200B'],
    ]
    for (const [index, [why, name]] of unreadable.entries()) {
      const update = await client.request('POST', '/api/auth/update-user', { name })
      expect(Object.keys((await expectApiError(update, 400, 'validation_failed')).fields ?? {}), why).toEqual(['name'])
      const signUp = await new Client(server).request('POST', '/api/auth/sign-up/email', {
        name,
        email: `unreadable-${target}-${index}@example.com`,
        password,
      })
      expect(signUp.status, why).toBe(400)
    }
    expect(await freshUser(client)).toMatchObject({ name: 'Readable Name' })
    // Names in any script, with accents, and emoji joined by zero-width joiners are names.
    for (const name of ['Zoë Ångström', '李小龙', 'محمد', 'Ana-María O’Brien', '👩‍💻 Ada']) {
      expect((await client.request('POST', '/api/auth/update-user', { name })).status, name).toBe(200)
      expect(await freshUser(client)).toMatchObject({ name })
    }
  })
})
