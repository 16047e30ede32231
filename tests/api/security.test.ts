import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LanguageLevel } from '@/shared/levels'
import { readOutbox } from '@/server/mail/index'
import { type AdminWorld, password, startAdminWorld } from '../helpers/accounts'
import { startAppServer } from '../helpers/app-server'
import { Client, freshUser, registerAndVerify } from '../helpers/auth-client'
import type { DatabaseTarget } from '../helpers/database'
import { type TestServer, expectApiError } from '../helpers/server'
import { type ReceivedMail, type TestSmtpServer, startSmtpServer } from '../helpers/smtp'

// Security checks that cut across the API: the Origin policy on every write endpoint, the flags of
// every cookie, a fresh session at every sign-in and none after sign-out, and no secret in the log.
// PostgreSQL when the machine has it (a server starts in a second), else the embedded database.

const target: DatabaseTarget = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'

/** The current code of an authenticator app set up from `otpauth://…?secret=BASE32`. */
function authenticatorCode(totpURI: string): Promise<string> {
  const secret = new URL(totpURI).searchParams.get('secret') ?? ''
  return createOTP(new TextDecoder().decode(base32.decode(secret))).totp()
}

/** A server of its own with its own outbox folder, removed after the file. */
async function startAccountsServer(env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-security-'))
  // Each journey signs in many times from one address.
  const server = await startAppServer({ database: target, env: { DATA_DIR: dataDir, AUTH_RATE_LIMIT_SCALE: '100', ...env } })
  return {
    server,
    dataDir,
    async stop() {
      await server.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

const uniqueEmail = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.com`

describe('writes from another site (CSRF) are refused on every write endpoint', () => {
  let world: AdminWorld
  let level: LanguageLevel
  /** Every write operation of the OpenAPI document, e.g. `PATCH /api/language-levels/{id}`. */
  let operations: { method: string; template: string }[]
  const marker = `cross-site-marker-${randomBytes(6).toString('hex')}`
  const stranger = uniqueEmail('stranger')

  beforeAll(async () => {
    world = await startAdminWorld(target, 'csrf', { AUTH_RATE_LIMIT_SCALE: '100' })
    const created = await world.admin.request('POST', '/api/language-levels', {
      code: 'CSRF1',
      name: 'Target of the attacks',
      description: '',
    })
    expect(created.status).toBe(201)
    level = (await created.json()) as LanguageLevel

    const document = (await (await fetch(`${world.server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>
    }
    const reads = new Set(['get', 'head', 'options', 'trace', 'parameters', 'summary', 'description', 'servers'])
    operations = Object.entries(document.paths).flatMap(([template, item]) =>
      Object.keys(item)
        .filter((method) => !reads.has(method))
        .map((method) => ({ method: method.toUpperCase(), template })),
    )
  })
  afterAll(() => world.stop())

  /**
   * A body that would change something if the request got through: a refusal must come from the
   * Origin check, not from a missing field.
   */
  function bodyFor(method: string, template: string): unknown {
    const bodies: Record<string, unknown> = {
      'POST /api/language-levels': { code: 'EVIL', name: 'Planted', description: '' },
      'PATCH /api/language-levels/{id}': { name: 'Hijacked', version: level.version },
      'PUT /api/language-levels/order': { ids: [level.id] },
      'PUT /api/me/profile': { language: 'fr', currentLevelId: level.id, targetLevelId: level.id },
      'POST /api/client-errors': { message: marker, path: '/', userAgent: marker },
      'POST /api/demo/messages': { name: 'Eve', email: 'eve@example.com', message: marker },
      'POST /api/auth/sign-up/email': { name: 'Eve', email: stranger, password },
      'POST /api/auth/sign-in/email': { email: world.adminEmail, password },
      'POST /api/auth/update-user': { name: 'Hijacked' },
      'POST /api/auth/change-password': { currentPassword: password, newPassword: 'an attacker chose this one' },
      'POST /api/auth/change-email': { newEmail: stranger },
      'POST /api/auth/delete-user': { password },
      'POST /api/auth/two-factor/enable': { password },
      'POST /api/auth/request-password-reset': { email: world.adminEmail },
      'POST /api/auth/send-verification-email': { email: world.adminEmail },
      'POST /api/auth/email-otp/send-verification-otp': { email: world.adminEmail, type: 'sign-in' },
    }
    if (method === 'DELETE') return undefined
    return bodies[`${method} ${template}`] ?? {}
  }

  /** What any of those writes would change: the administrator's account, data, emails and log. */
  async function state() {
    const { admin, server, dataDir } = world
    const json = async (response: Response) => (await response.json()) as unknown
    return {
      user: await freshUser(admin),
      sessions: ((await json(await admin.request('GET', '/api/auth/list-sessions'))) as unknown[]).length,
      profile: await json(await admin.request('GET', '/api/me/profile')),
      levels: await json(await fetch(`${server.url}/api/language-levels?sort=position&pageSize=100`)),
      auditEntries: ((await json(await admin.request('GET', '/api/audit-log'))) as { total: number }).total,
      emails: (await readOutbox(dataDir)).length,
      markerInLog: server.logs.some((line) => line.includes(marker)),
    }
  }

  // What a browser sends with a request another site's page makes; the last rows are what a
  // script could forge (no browser lets a page choose these headers).
  const attacks: [name: string, headers: (appUrl: string) => Record<string, string>][] = [
    ['a foreign Origin', () => ({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })],
    ['the Origin `null` (sandboxed frame, data: URL)', () => ({ origin: 'null', 'sec-fetch-site': 'cross-site' })],
    [
      'another port of the same host',
      (appUrl) => {
        const url = new URL(appUrl)
        url.port = String(Number(url.port) + 1)
        return { origin: url.origin, 'sec-fetch-site': 'same-site' }
      },
    ],
    ['an Origin that merely starts with the app’s', (appUrl) => ({ origin: `${appUrl}.evil.example` })],
    [
      'no Origin, a cross-site Sec-Fetch-Site and a foreign Referer',
      () => ({ 'sec-fetch-site': 'cross-site', referer: 'https://evil.example/page' }),
    ],
    ['no Origin and a same-site (sibling subdomain) Sec-Fetch-Site', () => ({ 'sec-fetch-site': 'same-site' })],
    ['a foreign Origin that claims to be same-origin', () => ({ origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' })],
  ]

  it('enumerates the write endpoints from /api/openapi.json, the app’s and better-auth’s', () => {
    const names = operations.map(({ method, template }) => `${method} ${template}`)
    expect(names.length).toBeGreaterThan(30)
    for (const known of [
      'POST /api/language-levels',
      'PATCH /api/language-levels/{id}',
      'DELETE /api/language-levels/{id}',
      'PUT /api/language-levels/order',
      'PUT /api/me/profile',
      'POST /api/auth/sign-in/email',
      'POST /api/auth/sign-out',
      'POST /api/auth/delete-user',
    ]) {
      expect(names).toContain(known)
    }
  })

  it.each(attacks)('with %s: 403 in the error shape, no cookie, nothing written', async (_name, attack) => {
    const { server, admin } = world
    const before = await state()
    const cookie = admin.cookieHeader()
    const wrong: string[] = []
    // Also methods and paths nobody documented: the policy covers all of /api, not a list.
    const all = [
      ...operations,
      { method: 'POST', template: '/api/no-such-endpoint' },
      { method: 'PUT', template: '/api/auth/sign-out' },
      { method: 'DELETE', template: '/api/me/profile' },
    ]
    for (const { method, template } of all) {
      const body = bodyFor(method, template)
      const pathname = template.replace('{id}', String(level.id)).replace('{token}', 'token')
      const response = await fetch(`${server.url}${pathname}`, {
        method,
        redirect: 'manual',
        headers: {
          // The victim's cookies: a browser attaches them (SameSite=Lax still sends them to a
          // same-site sibling, and a top-level POST form is the classic CSRF).
          cookie,
          ...attack(server.url),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      const code = /"code":"(\w+)"/.exec(text)?.[1]
      if (response.status !== 403 || code !== 'forbidden' || response.headers.getSetCookie().length > 0) {
        wrong.push(`${method} ${pathname} → ${response.status} ${text.slice(0, 120)}`)
      }
    }
    expect(wrong, 'writes not refused by the Origin check').toEqual([])
    expect(await state()).toEqual(before)
  })

  it('lets the same writes through from the app’s own origin (the refusals above are the Origin’s doing)', async () => {
    const { learner, server } = world
    const profile = { language: 'fr', currentLevelId: level.id, targetLevelId: level.id }
    const refused = await fetch(`${server.url}/api/me/profile`, {
      method: 'PUT',
      headers: {
        origin: 'https://evil.example',
        cookie: learner.cookieHeader(),
        'content-type': 'application/json',
      },
      body: JSON.stringify(profile),
    })
    await expectApiError(refused, 403, 'forbidden')
    const saved = await learner.request('PUT', '/api/me/profile', profile)
    expect(saved.status).toBe(200)
    expect(await saved.json()).toMatchObject(profile)
  })
})

/** A client that also keeps every Set-Cookie header it received. */
class RecordingClient extends Client {
  readonly setCookies: string[] = []
  override async request(method: string, pathname: string, body?: unknown): Promise<Response> {
    const response = await super.request(method, pathname, body)
    this.setCookies.push(...response.headers.getSetCookie())
    return response
  }
}

/** Signs in with the password and the current authenticator code. */
async function signInWithSecondFactor(client: Client, email: string, secret: string, totpURI: string) {
  const first = await client.request('POST', '/api/auth/sign-in/email', { email, password: secret })
  expect(await first.json()).toMatchObject({ twoFactorRedirect: true })
  const second = await client.request('POST', '/api/auth/two-factor/verify-totp', { code: await authenticatorCode(totpURI) })
  expect(second.status).toBe(200)
}

describe.each([
  { scheme: 'http', appUrl: undefined, prefix: 'lingua.' },
  { scheme: 'https', appUrl: 'https://lingua.example', prefix: '__Secure-lingua.' },
])('the flags of every cookie when APP_URL is $scheme', ({ scheme, appUrl, prefix }) => {
  let instance: Awaited<ReturnType<typeof startAccountsServer>>
  beforeAll(async () => {
    instance = await startAccountsServer(appUrl ? { APP_URL: appUrl } : {})
  })
  afterAll(() => instance.stop())

  it(`sets each cookie HttpOnly, SameSite=Lax, Path=/, host-only${scheme === 'https' ? ', Secure and __Secure- prefixed' : ''}`, async () => {
    const { server, dataDir } = instance
    // Under an https APP_URL the app's origin is that address, wherever the test reaches it.
    const client = new RecordingClient(server, appUrl ?? server.url)
    const email = uniqueEmail('cookies')
    await registerAndVerify(client, dataDir, { email, password })
    // "Remember me" off, the second factor, a sign-out: each sets cookies of its own.
    expect((await client.request('POST', '/api/auth/sign-in/email', { email, password, rememberMe: false })).status).toBe(200)
    const enabled = await client.request('POST', '/api/auth/two-factor/enable', { password })
    const { totpURI } = (await enabled.json()) as { totpURI: string }
    expect((await client.request('POST', '/api/auth/two-factor/verify-totp', { code: await authenticatorCode(totpURI) })).status).toBe(200)
    expect((await client.request('POST', '/api/auth/sign-out', {})).status).toBe(200)
    await signInWithSecondFactor(client, email, password, totpURI)
    expect((await client.request('POST', '/api/auth/sign-out', {})).status).toBe(200)

    const names = new Set(client.setCookies.map((header) => header.split('=')[0]))
    for (const name of ['session_token', 'session_data', 'dont_remember', 'two_factor']) {
      expect(names).toContain(`${prefix}${name}`)
    }
    for (const header of client.setCookies) {
      const attributes = header.split(';').slice(1).map((part) => part.trim().toLowerCase())
      expect(header.startsWith(prefix), header).toBe(true)
      expect(attributes, header).toContain('httponly')
      expect(attributes, header).toContain('samesite=lax')
      expect(attributes, header).toContain('path=/')
      // No Domain: the cookie goes back to this host only, never to a sibling subdomain.
      expect(attributes.filter((attribute) => attribute.startsWith('domain=')), header).toEqual([])
      // Over plain http a Secure cookie would never come back; under https it must not go out in clear.
      expect(attributes.includes('secure'), header).toBe(scheme === 'https')
    }
  })
})

const sessionStores: { store: string; env: Record<string, string> }[] = [
  { store: 'the database', env: {} },
  ...(process.env.TEST_REDIS_URL
    ? [
        {
          store: 'Redis in front of the database',
          env: { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_KEY_PREFIX: `lingua-security-${randomBytes(4).toString('hex')}:` },
        },
      ]
    : []),
]

describe.each(sessionStores)('sessions kept in $store', ({ env }) => {
  let instance: Awaited<ReturnType<typeof startAccountsServer>>
  beforeAll(async () => {
    instance = await startAccountsServer(env)
  })
  afterAll(() => instance.stop())

  const tokenOf = (client: Client) => client.cookies.get('lingua.session_token') ?? ''

  /** The session's id as the database has it (not the cached copy). */
  async function sessionId(client: Client): Promise<string | undefined> {
    const response = await client.request('GET', '/api/auth/get-session?disableCookieCache=true')
    return ((await response.json()) as { session?: { id: string } } | null)?.session?.id
  }

  /** A client holding nothing but this session token: a stolen cookie, without its cache cookie. */
  function replay(token: string) {
    const thief = new Client(instance.server)
    thief.cookies.set('lingua.session_token', token)
    return thief
  }

  it('issues a new session at every sign-in (password twice, emailed code, after the second factor) and replaces a planted one; none works after sign-out', async () => {
    const { server, dataDir } = instance
    const email = uniqueEmail('victim')
    const verifier = new Client(server)
    await registerAndVerify(verifier, dataDir, { email, password })
    const attacker = new Client(server)
    await registerAndVerify(attacker, dataDir, { email: uniqueEmail('attacker'), password })

    // Session fixation: a token the attacker planted in the victim's browser before sign-in.
    const planted = new Client(server)
    planted.cookies.set('lingua.session_token', tokenOf(attacker))
    expect((await planted.request('POST', '/api/auth/sign-in/email', { email, password })).status).toBe(200)
    const again = new Client(server)
    expect((await again.request('POST', '/api/auth/sign-in/email', { email, password })).status).toBe(200)

    const byCode = new Client(server)
    expect((await byCode.request('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })).status).toBe(200)
    const [codeMail] = (await readOutbox(dataDir, { to: email, kind: 'sign-in-code' })).slice(-1)
    expect((await byCode.request('POST', '/api/auth/sign-in/email-otp', { email, otp: codeMail?.code })).status).toBe(200)

    const enabled = await again.request('POST', '/api/auth/two-factor/enable', { password })
    const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] }
    expect((await again.request('POST', '/api/auth/two-factor/verify-totp', { code: await authenticatorCode(totpURI) })).status).toBe(200)
    const withTotp = new Client(server)
    await signInWithSecondFactor(withTotp, email, password, totpURI)
    const withBackupCode = new Client(server)
    await withBackupCode.request('POST', '/api/auth/sign-in/email', { email, password })
    expect((await withBackupCode.request('POST', '/api/auth/two-factor/verify-backup-code', { code: backupCodes[0] })).status).toBe(200)

    const clients = [verifier, planted, again, byCode, withTotp, withBackupCode]
    for (const client of clients) expect(await freshUser(client)).toMatchObject({ email })
    const tokens = clients.map(tokenOf)
    expect(new Set([...tokens, tokenOf(attacker)]).size).toBe(tokens.length + 1)
    const ids = await Promise.all(clients.map(sessionId))
    expect(new Set(ids).size).toBe(clients.length)
    // The planted token still names its own (the attacker's) session, never the victim's.
    expect(await freshUser(replay(tokenOf(attacker)))).not.toMatchObject({ email })

    // A stolen cache cookie is believed without the database for at most this long (the
    // documented revocation bound); the token alone is checked against the store every time.
    const cacheCookie = (await again.request('GET', '/api/auth/get-session?disableCookieCache=true')).headers
      .getSetCookie()
      .find((header) => header.startsWith('lingua.session_data='))
    expect(Number(/Max-Age=(\d+)/i.exec(cacheCookie ?? '')?.[1])).toBeLessThanOrEqual(60)

    for (const client of clients) {
      expect((await client.request('POST', '/api/auth/sign-out', {})).status).toBe(200)
    }
    for (const token of tokens) {
      expect(await freshUser(replay(token))).toBeNull()
      await expectApiError(await replay(token).request('GET', '/api/me'), 401, 'unauthenticated')
    }
  })
})

describe('the log at its most verbose never holds a secret', () => {
  let smtp: TestSmtpServer
  let server: TestServer
  let dataDir: string
  /** Every secret the journey saw, by what it is. */
  const secrets = new Map<string, string>()
  const keep = (what: string, value: string | undefined | null) => {
    expect(value, what).toBeTruthy()
    secrets.set(value ?? '', what)
  }

  beforeAll(async () => {
    smtp = await startSmtpServer()
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-security-log-'))
    server = await startAppServer({
      database: target,
      env: {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'trace',
        LOG_REQUESTS: 'true',
        // A real mail server: in production the links and codes must not reach the log.
        SMTP_URL: smtp.url,
        AUTH_RATE_LIMIT_SCALE: '100',
      },
    })
  })
  afterAll(async () => {
    await server.stop()
    await smtp.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  /** Keeps the cookies the answer set: their whole values and the session token inside. */
  function keepCookies(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';')
      const name = pair.slice(0, pair.indexOf('='))
      const value = pair.slice(pair.indexOf('=') + 1)
      if (value === '') continue
      keep(`cookie ${name}`, value)
      keep(`cookie ${name} (decoded)`, decodeURIComponent(value))
      // A signed cookie is `value.signature`: the value alone is the secret.
      const [unsigned] = decodeURIComponent(value).split('.')
      if (unsigned && unsigned.length >= 16) keep(`cookie ${name} (unsigned)`, unsigned)
    }
    return response
  }

  const mailTo = (to: string, subject: RegExp, count = 1) => {
    const deadline = Date.now() + 10_000
    const poll = async (): Promise<ReceivedMail> => {
      const found = smtp.messages.filter((mail) => mail.envelope.to.includes(to) && subject.test(mail.subject))
      if (found.length >= count) return found[count - 1]!
      if (Date.now() > deadline) throw new Error(`No email ${subject} to ${to}`)
      await sleep(25)
      return poll()
    }
    return poll()
  }
  /** Lines of the server's output holding a secret of the journey, with what it is. */
  function leaks(): string[] {
    const found: string[] = []
    for (const [secret, what] of secrets) {
      // Six-digit codes: only as a number of their own, not inside a timestamp.
      const pattern = /^\d+$/.test(secret)
        ? new RegExp(`(?<!\\d)${secret}(?!\\d)`)
        : new RegExp([secret, encodeURIComponent(secret)].map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'))
      for (const line of server.logs) {
        if (pattern.test(line)) found.push(`${what} in: ${line.slice(0, 400)}`)
      }
    }
    return found
  }
  const linkIn = (mail: ReceivedMail) => new URL(/https?:\/\/\S+?\/confirm\?[^\s"<>]+/.exec(mail.text ?? '')?.[0] ?? '')
  const codeIn = (mail: ReceivedMail) => /\b(\d{6})\b/.exec(mail.text ?? '')?.[1]

  it('through register → confirm → sign-in → code sign-in → reset → MFA → email change → sign-out', async () => {
    const client = new Client(server)
    const call = async (method: string, pathname: string, body?: unknown, status = 200) => {
      const response = keepCookies(await client.request(method, pathname, body))
      expect(response.status, `${method} ${pathname}`).toBe(status)
      return response
    }
    const email = uniqueEmail('logged')
    const first = `first ${randomBytes(6).toString('hex')} passphrase`
    const reset = `reset ${randomBytes(6).toString('hex')} passphrase`
    const changed = `changed ${randomBytes(6).toString('hex')} passphrase`
    const wrong = `wrong ${randomBytes(6).toString('hex')} passphrase`
    keep('password', first)
    keep('password after reset', reset)
    keep('password after change', changed)
    keep('mistyped password', wrong)

    await call('POST', '/api/auth/sign-up/email', { name: 'Logged User', email, password: first })
    const verifyToken = linkIn(await mailTo(email, /^Confirm your email address/)).searchParams.get('token')
    keep('email verification token', verifyToken)
    await call('GET', `/api/auth/verify-email?token=${encodeURIComponent(verifyToken ?? '')}`)
    await call('POST', '/api/auth/sign-out', {})

    await call('POST', '/api/auth/sign-in/email', { email, password: wrong }, 401)
    await call('POST', '/api/auth/sign-in/email', { email, password: first })
    await call('POST', '/api/auth/sign-out', {})

    await call('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })
    const otp = codeIn(await mailTo(email, /sign-in code/))
    keep('emailed sign-in code', otp)
    // Its session token is kept from the cookie (no answer carries it: session-tokens.ts).
    await call('POST', '/api/auth/sign-in/email-otp', { email, otp })
    await call('POST', '/api/auth/sign-out', {})

    await call('POST', '/api/auth/request-password-reset', { email, redirectTo: '/confirm' })
    const resetToken = linkIn(await mailTo(email, /^Reset your .* password/)).searchParams.get('token')
    keep('password reset token', resetToken)
    // better-auth's own reset link carries the token in the path; some clients open it.
    await call('GET', `/api/auth/reset-password/${resetToken}?callbackURL=%2Fconfirm`, undefined, 302)
    await call('POST', '/api/auth/reset-password', { token: resetToken, newPassword: reset })
    await call('POST', '/api/auth/sign-in/email', { email, password: reset })

    const enabled = (await (await call('POST', '/api/auth/two-factor/enable', { password: reset })).json()) as {
      totpURI: string
      backupCodes: string[]
    }
    keep('TOTP key URI', enabled.totpURI)
    const totpSecret = new URL(enabled.totpURI).searchParams.get('secret')
    keep('TOTP secret', totpSecret)
    keep('TOTP secret (raw)', new TextDecoder().decode(base32.decode(totpSecret ?? '')))
    for (const code of enabled.backupCodes) keep('backup code', code)
    const enableCode = await authenticatorCode(enabled.totpURI)
    keep('authenticator code', enableCode)
    await call('POST', '/api/auth/two-factor/verify-totp', { code: enableCode })
    await call('POST', '/api/auth/sign-out', {})
    expect(await (await call('POST', '/api/auth/sign-in/email', { email, password: reset })).json()).toMatchObject({
      twoFactorRedirect: true,
    })
    const signInCode = await authenticatorCode(enabled.totpURI)
    keep('authenticator code', signInCode)
    await call('POST', '/api/auth/two-factor/verify-totp', { code: signInCode })
    await call('POST', '/api/auth/sign-out', {})
    await call('POST', '/api/auth/sign-in/email', { email, password: reset })
    await call('POST', '/api/auth/two-factor/verify-backup-code', { code: enabled.backupCodes[0] })

    const newEmail = uniqueEmail('moved')
    await call('POST', '/api/auth/change-email', { newEmail })
    const changeToken = linkIn(await mailTo(newEmail, /^Confirm your email change/)).searchParams.get('token')
    keep('email change token', changeToken)
    await call('GET', `/api/auth/verify-email?token=${encodeURIComponent(changeToken ?? '')}`)
    await call('POST', '/api/auth/change-password', { currentPassword: reset, newPassword: changed })
    await call('POST', '/api/auth/sign-out', {})

    // The journey was logged (every request, every email), so an empty log cannot pass. A request
    // over SLOW_REQUEST_MS (a password hash on a busy machine) is logged as "slow request".
    const requests = server.logs.filter((line) => /"msg":"(slow )?request"/.test(line))
    expect(requests.length).toBeGreaterThanOrEqual(25)
    expect(server.logs.filter((line) => line.includes('"msg":"email sent"'))).toHaveLength(4)

    expect(leaks()).toEqual([])
  })

  it.runIf(target === 'postgres')('nor while the database is unreachable, when failed queries are logged', async () => {
    const client = new Client(server)
    const email = uniqueEmail('outage')
    const secret = `outage ${randomBytes(6).toString('hex')} passphrase`
    keep('password', secret)
    keepCookies(await client.request('POST', '/api/auth/sign-up/email', { name: 'Outage', email, password: secret }))
    const verifyToken = linkIn(await mailTo(email, /^Confirm your email address/)).searchParams.get('token')
    keepCookies(await client.request('GET', `/api/auth/verify-email?token=${encodeURIComponent(verifyToken ?? '')}`))
    expect(await freshUser(client)).toMatchObject({ email })
    expect((await client.request('POST', '/api/auth/request-password-reset', { email })).status).toBe(200)
    const resetToken = linkIn(await mailTo(email, /^Reset your .* password/)).searchParams.get('token')
    keep('password reset token', resetToken)
    const token = client.cookies.get('lingua.session_token') ?? ''
    const logged = server.logs.length

    await server.database!.blockConnections()
    try {
      // The session looked up by its token, a reset by its token, a sign-in: each query fails.
      const tokenOnly = new Client(server)
      tokenOnly.cookies.set('lingua.session_token', token)
      expect((await tokenOnly.request('GET', '/api/me')).status).toBeGreaterThanOrEqual(500)
      expect((await tokenOnly.request('GET', '/api/auth/get-session?disableCookieCache=true')).status).toBeGreaterThanOrEqual(500)
      const resetAttempt = await new Client(server).request('POST', '/api/auth/reset-password', { token: resetToken, newPassword: `${secret} 2` })
      expect(resetAttempt.status).toBeGreaterThanOrEqual(500)
      const signIn = await new Client(server).request('POST', '/api/auth/sign-in/email', { email, password: secret })
      expect(signIn.status).toBeGreaterThanOrEqual(500)
    } finally {
      await server.database!.allowConnections()
    }
    keep('new password tried during the outage', `${secret} 2`)
    // The failures were logged, so a silent log cannot pass.
    expect(server.logs.slice(logged).some((line) => /database unavailable|Failed query/.test(line))).toBe(true)
    // better-auth and better-call print failed queries, parameters included, straight to the console
    // unless auth.ts passes `logger: authLogOptions(logger)` and `onAPIError: { throw: true }`.
    expect(leaks(), 'secrets in the output while the database is down').toEqual([])
  })
})

describe('links that lead to another site', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer()
  })

  // The test servers run with NODE_ENV=test, where better-auth would skip this check by default.
  for (const callbackURL of ['https://evil.example/', '//evil.example', 'http://127.0.0.1.evil.example/']) {
    it(`refuses an emailed link whose callbackURL is ${callbackURL}`, async () => {
      const query = new URLSearchParams({ token: 'x', callbackURL })
      const response = await fetch(`${server.url}/api/auth/verify-email?${query}`, { redirect: 'manual' })
      expect(response.headers.get('location')).toBeNull()
      await expectApiError(response, 403, 'forbidden')
    })
  }
})

describe('session tokens stay out of JavaScript', () => {
  let instance: Awaited<ReturnType<typeof startAccountsServer>>
  beforeAll(async () => {
    instance = await startAccountsServer({})
  })
  afterAll(() => instance.stop())

  /** Every string of a JSON answer, at any depth. */
  const stringsIn = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : typeof value === 'object' && value !== null
        ? Object.values(value).flatMap(stringsIn)
        : []

  it('no answer a page can read holds a session token; sessions are revoked by id, each by its own user only', async () => {
    const { server, dataDir } = instance
    const email = uniqueEmail('tokens')
    const laptop = new Client(server)
    await registerAndVerify(laptop, dataDir, { email, password })
    const phone = new Client(server)
    const answers = [await phone.request('POST', '/api/auth/sign-in/email', { email, password })]
    answers.push(await phone.request('GET', '/api/auth/get-session'))
    answers.push(await phone.request('GET', '/api/auth/get-session?disableCookieCache=true'))
    answers.push(await laptop.request('GET', '/api/auth/list-sessions'))
    await laptop.request('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })
    const [codeMail] = (await readOutbox(dataDir, { to: email, kind: 'sign-in-code' })).slice(-1)
    const byCode = new Client(server)
    answers.push(await byCode.request('POST', '/api/auth/sign-in/email-otp', { email, otp: codeMail?.code }))

    const tokens = [laptop, phone, byCode].map((client) => decodeURIComponent(client.cookies.get('lingua.session_token') ?? '').split('.')[0] ?? '')
    for (const token of tokens) expect(token.length).toBeGreaterThanOrEqual(32)
    const bodies = await Promise.all(answers.map(async (answer) => {
      expect(answer.status).toBe(200)
      return (await answer.json()) as unknown
    }))
    for (const body of bodies) {
      expect(JSON.stringify(body)).not.toMatch(/"token"/)
      for (const token of tokens) expect(stringsIn(body)).not.toContain(token)
    }

    // The phone's session, signed out from the laptop by the id the list gives.
    const sessions = bodies[3] as { id: string; userAgent: string | null }[]
    const phoneId = ((bodies[2] as { session: { id: string } }).session).id
    expect(sessions.map((session) => session.id)).toContain(phoneId)
    // Nobody else's: another account's id is not found, as is one that does not exist.
    const stranger = new Client(server)
    await registerAndVerify(stranger, dataDir, { email: uniqueEmail('stranger'), password })
    await expectApiError(await stranger.request('DELETE', `/api/me/sessions/${phoneId}`), 404, 'not_found')
    await expectApiError(await laptop.request('DELETE', '/api/me/sessions/no-such-session'), 404, 'not_found')
    await expectApiError(await new Client(server).request('DELETE', `/api/me/sessions/${phoneId}`), 401, 'unauthenticated')
    expect(await freshUser(phone)).toMatchObject({ email })

    expect((await laptop.request('DELETE', `/api/me/sessions/${phoneId}`)).status).toBe(204)
    expect(await freshUser(phone)).toBeNull()
    expect(await freshUser(laptop)).toMatchObject({ email })
  })
})
