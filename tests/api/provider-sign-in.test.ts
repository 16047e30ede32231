import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SignInMethods } from '@/shared/sign-in-methods'
import { readOutbox } from '@/server/mail/index'
import { startAppServer } from '../helpers/app-server'
import { Client, freshUser, registerAndVerify } from '../helpers/auth-client'
import { CookieJar, signInAtProvider } from '../helpers/oidc-browser'
import { type OidcProviderHandle, oidcTestUsers, startOidcProvider } from '../helpers/oidc-provider'
import { type TestServer, expectApiError, expectJson } from '../helpers/server'
import { closedPort } from '../helpers/smtp'

/**
 * Sign-in with an OpenID Connect provider (docs/decisions/0009), against a real provider (panva's
 * oidc-provider, tests/helpers/oidc-provider.ts) and a real server on PostgreSQL when there is one:
 * PKCE, state, nonce and the ID token's checks, the linking rules, MFA after the provider, and every
 * failure landing on /login with its code and nothing changed.
 */

const password = 'correct horse battery'
const hasPostgres = Boolean(process.env.TEST_DATABASE_URL)

describe.skipIf(!hasPostgres)('sign-in with an OpenID Connect provider', () => {
  let provider: OidcProviderHandle
  let server: TestServer
  let callback: string
  let dataDir: string
  const adminEmail = oidcTestUsers.verified.email

  beforeAll(async () => {
    const port = await closedPort()
    const appUrl = `http://127.0.0.1:${port}`
    callback = `${appUrl}/api/auth/callback/oidc`
    provider = await startOidcProvider({ redirectUris: [callback], singleSignOn: false })
    // The mail outbox (no SMTP here).
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-oidc-'))
    server = await startAppServer({
      database: 'postgres',
      env: {
        DATA_DIR: dataDir,
        PORT: String(port),
        APP_URL: appUrl,
        AUTH_RATE_LIMIT_SCALE: '100',
        ADMIN_EMAILS: adminEmail,
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        OIDC_NAME: 'Acme',
        OIDC_TIMEOUT_MS: '2000',
      },
    })
  })
  afterAll(async () => {
    await server.stop()
    await provider.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  const db = () => {
    if (!server.database) throw new Error('the server runs on PostgreSQL')
    return server.database
  }
  const usersWithEmail = async (email: string) =>
    db().query<{ id: string; email_verified: boolean; role: string | null }>(
      'select id, email_verified, role from "user" where email = $1',
      [email],
    )

  /** Starts a provider sign-in as the login page does; the client holds the state cookie. */
  async function start(client: Client, redirect = '/dashboard'): Promise<string> {
    const landing = `/login?redirect=${encodeURIComponent(redirect)}`
    const started = await client.request('POST', '/api/auth/sign-in/social', {
      provider: 'oidc',
      callbackURL: landing,
      errorCallbackURL: landing,
    })
    const { url } = await expectJson<{ url: string; redirect: boolean }>(started)
    return url
  }

  /** The whole journey; returns where the app sends the browser after the callback. */
  async function journey(client: Client, user: { login: string; password: string }, options: { cancel?: boolean } = {}) {
    const back = await signInAtProvider(new CookieJar(), await start(client), callback, user, options)
    const answered = await client.request('GET', `${back.pathname}${back.search}`)
    expect(answered.status).toBe(302)
    return { back, to: new URL(answered.headers.get('location') ?? '', server.url) }
  }

  const errorOf = (to: URL) => {
    expect(to.pathname).toBe('/login')
    return to.searchParams.get('error')
  }

  it('lists the provider in /config.json', async () => {
    const config = await expectJson<{ providers: unknown[] }>(await fetch(`${server.url}/config.json`))
    expect(config.providers).toEqual([{ id: 'oidc', name: 'Acme' }])
  })

  it('makes a confirmed account for a verified identity, with PKCE S256, state and nonce, and the roles applied', async () => {
    provider.clearRequests()
    const client = new Client(server)
    const { to } = await journey(client, oidcTestUsers.verified)
    expect(`${to.pathname}${to.search}`).toBe('/login?redirect=%2Fdashboard')
    expect(await freshUser(client)).toMatchObject({ email: adminEmail, role: 'admin' })
    const [created] = await usersWithEmail(adminEmail)
    expect(created?.email_verified).toBe(true)

    // From the provider's side: the authorization request and the token request.
    const [authorization] = provider.requests.authorization
    const [token] = provider.requests.token
    expect(authorization?.params).toMatchObject({ response_type: 'code', code_challenge_method: 'S256' })
    expect(authorization?.params.state).toMatch(/.{16,}/)
    expect(authorization?.params.nonce).toMatch(/.{16,}/)
    expect(authorization?.params.scope?.split(' ').sort()).toEqual(['email', 'openid', 'profile'])
    expect(token?.params.grant_type).toBe('authorization_code')
    const verifier = token?.params.code_verifier ?? ''
    expect(verifier).toMatch(/^[\w-]{43,128}$/)
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(authorization?.params.code_challenge)
    expect(token?.status).toBe(200)
  })

  it('signs the same identity in again, to the same account', async () => {
    const client = new Client(server)
    await journey(client, oidcTestUsers.verified)
    expect(await freshUser(client)).toMatchObject({ email: adminEmail })
    expect(await usersWithEmail(adminEmail)).toHaveLength(1)
  })

  it('makes no account for an identity whose email the provider has not verified', async () => {
    const client = new Client(server)
    const { to } = await journey(client, oidcTestUsers.unverified)
    expect(errorOf(to)).toBe('email_not_verified_by_provider')
    expect(await freshUser(client)).toBeNull()
    expect(await usersWithEmail(oidcTestUsers.unverified.email)).toEqual([])
  })

  it('links to an existing confirmed account only on a verified email, audited and mailed', async () => {
    const email = 'linked@lingua.test'
    const owner = new Client(server)
    await registerAndVerify(owner, dataDir, { email, password })
    // The same address, unverified at the provider: refused, nothing linked.
    provider.addUser({ login: 'eve', password: 'eve-password', email, email_verified: false })
    const stranger = new Client(server)
    expect(errorOf((await journey(stranger, { login: 'eve', password: 'eve-password' })).to)).toBe('account_not_linked')
    expect(await freshUser(stranger)).toBeNull()
    expect(await db().query('select 1 from account where provider_id = $1 and account_id = $2', ['oidc', 'eve'])).toEqual([])

    // Verified at the provider: linked, and signed in to the existing account.
    provider.addUser({ login: 'fay', password: 'fay-password', email, email_verified: true })
    const client = new Client(server)
    await journey(client, { login: 'fay', password: 'fay-password' })
    expect(await freshUser(client)).toMatchObject({ email })
    const audit = await db().query<{ action: string; after: unknown }>(
      "select action, after from audit_log where target_id = $1 and action like 'sign-in-method.%'",
      [email],
    )
    expect(audit).toEqual([{ action: 'sign-in-method.link', after: { provider: 'oidc' } }])
    const mails = await readOutbox(dataDir, { to: email, kind: 'sign-in-methods-changed' })
    expect(mails.map((mail) => mail.subject)).toEqual(['Your Lingua sign-in methods changed'])

    // Listed on the account page, and unlinked (the password stays): audited and mailed too.
    const methods = await expectJson<SignInMethods>(await client.request('GET', '/api/me/sign-in-methods'))
    expect(methods).toMatchObject({ password: true, count: 2, providers: [{ id: 'oidc', linked: [{ accountId: 'fay' }] }] })
    const linked = methods.providers[0]?.linked[0]?.id
    await expectJson(await client.request('POST', '/api/auth/unlink-account', { accountId: linked }))
    expect((await expectJson<SignInMethods>(await client.request('GET', '/api/me/sign-in-methods'))).count).toBe(1)
    expect(await readOutbox(dataDir, { to: email, kind: 'sign-in-methods-changed' })).toHaveLength(2)
  })

  it('never removes the last way to sign in', async () => {
    const client = new Client(server)
    await journey(client, oidcTestUsers.verified)
    const methods = await expectJson<SignInMethods>(await client.request('GET', '/api/me/sign-in-methods'))
    expect(methods).toMatchObject({ password: false, count: 1 })
    await expectApiError(
      await client.request('POST', '/api/auth/unlink-account', { accountId: methods.providers[0]?.linked[0]?.id }),
      409,
      'conflict',
    )
    expect(await freshUser(client)).toMatchObject({ email: adminEmail })
  })

  it('refuses a disabled account, and says why', async () => {
    const email = 'disabled-provider@lingua.test'
    await registerAndVerify(new Client(server), dataDir, { email, password })
    provider.addUser({ login: 'hal', password: 'hal-password', email, email_verified: true })
    await db().query('update "user" set banned = true where email = $1', [email])
    const client = new Client(server)
    expect(errorOf((await journey(client, { login: 'hal', password: 'hal-password' })).to)).toBe('account_disabled')
    expect(await freshUser(client)).toBeNull()
  })

  it('asks for the second factor after the provider when the account has it on', async () => {
    const email = 'mfa-provider@lingua.test'
    const owner = new Client(server)
    await registerAndVerify(owner, dataDir, { email, password })
    const enabled = await expectJson<{ totpURI: string }>(await owner.request('POST', '/api/auth/two-factor/enable', { password }))
    const code = () => {
      const secret = new URL(enabled.totpURI).searchParams.get('secret') ?? ''
      return createOTP(new TextDecoder().decode(base32.decode(secret))).totp()
    }
    await expectJson(await owner.request('POST', '/api/auth/two-factor/verify-totp', { code: await code() }))
    provider.addUser({ login: 'gus', password: 'gus-password', email, email_verified: true })

    const client = new Client(server)
    const { to } = await journey(client, { login: 'gus', password: 'gus-password' })
    expect(to.pathname).toBe('/login')
    expect(Object.fromEntries(to.searchParams)).toEqual({ redirect: '/dashboard', step: 'second-factor' })
    expect(client.cookies.has('lingua.session_token')).toBe(false)
    expect(await freshUser(client)).toBeNull()
    await expectJson(await client.request('POST', '/api/auth/two-factor/verify-totp', { code: await code() }))
    expect(await freshUser(client)).toMatchObject({ email })
  })

  it('comes back to /login with the reason when the person cancels at the provider', async () => {
    const client = new Client(server)
    const { to } = await journey(client, oidcTestUsers.verified, { cancel: true })
    expect(errorOf(to)).toBe('access_denied')
    expect(await freshUser(client)).toBeNull()
  })

  it('refuses a tampered state and a replayed callback', async () => {
    const client = new Client(server)
    const back = await signInAtProvider(new CookieJar(), await start(client), callback, oidcTestUsers.verified)
    const tampered = new URL(back)
    tampered.searchParams.set('state', `${back.searchParams.get('state') ?? ''}x`)
    const refused = await client.request('GET', `${tampered.pathname}${tampered.search}`)
    expect(refused.status).toBe(302)
    expect(errorOf(new URL(refused.headers.get('location') ?? '', server.url))).toMatch(/^state_/)
    expect(await freshUser(client)).toBeNull()

    // The genuine callback once (signs in), then again from another browser: refused.
    const first = await client.request('GET', `${back.pathname}${back.search}`)
    expect(new URL(first.headers.get('location') ?? '', server.url).searchParams.get('error')).toBeNull()
    const replay = new Client(server)
    for (const [name, value] of client.cookies) if (!name.includes('session')) replay.cookies.set(name, value)
    const replayed = await replay.request('GET', `${back.pathname}${back.search}`)
    expect(replayed.status).toBe(302)
    expect(errorOf(new URL(replayed.headers.get('location') ?? '', server.url))).not.toBeNull()
    expect(await freshUser(replay)).toBeNull()
  })

  it.each([
    ['a wrong audience', { aud: 'someone-else' }],
    ['a wrong issuer', { iss: 'https://evil.example' }],
    ['a wrong nonce', { nonce: 'not-the-one' }],
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 3600 }],
  ])('refuses an ID token with %s', async (_, claims) => {
    provider.tamperNextIdToken((original) => ({ ...original, ...claims }))
    const client = new Client(server)
    const { to } = await journey(client, oidcTestUsers.verified)
    expect(errorOf(to)).toBe('unable_to_get_user_info')
    expect(await freshUser(client)).toBeNull()
  })

  it('refuses an identity without an email', async () => {
    const client = new Client(server)
    const { to } = await journey(client, oidcTestUsers.noemail)
    expect(errorOf(to)).toBe('email_not_found')
    expect(await freshUser(client)).toBeNull()
  })

  /** What "Continue with Acme" posts: an HTML form, with the client's cookies. */
  const postForm = (client: Client, fields: Record<string, string>) =>
    client.request('POST', '/api/sign-in/provider', undefined, {
      headers: {
        Origin: client.origin,
        'Content-Type': 'application/x-www-form-urlencoded',
        ...(client.cookies.size > 0 ? { Cookie: client.cookieHeader() } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    })

  it('starts from the HTML form of "Continue with Acme": 303 to the provider with PKCE and state, back to the page asked for', async () => {
    const client = new Client(server)
    const started = await postForm(client, { provider: 'oidc', redirect: '/account' })
    expect(started.status).toBe(303)
    const authorization = new URL(started.headers.get('location') ?? '')
    expect(authorization.origin).toBe(new URL(provider.issuer).origin)
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorization.searchParams.get('state')).toBeTruthy()
    expect(authorization.searchParams.get('redirect_uri')).toBe(callback)
    expect([...client.cookies.keys()].some((name) => name.includes('state'))).toBe(true)

    const back = await signInAtProvider(new CookieJar(), authorization.href, callback, oidcTestUsers.verified)
    const landed = await client.request('GET', `${back.pathname}${back.search}`)
    const to = new URL(landed.headers.get('location') ?? '', server.url)
    expect(errorOf(to)).toBeNull()
    expect(`${to.pathname}${to.search}`).toBe('/login?redirect=%2Faccount')
    expect(await freshUser(client)).toMatchObject({ email: oidcTestUsers.verified.email })
  })

  it('sends the form back to /login with a code when it cannot start, keeping only a path of the app', async () => {
    const client = new Client(server)
    const unknown = await postForm(client, { provider: 'nobody', redirect: '/account' })
    expect(unknown.status).toBe(303)
    expect(unknown.headers.get('location')).toBe(`${server.url}/login?redirect=%2Faccount&error=provider_not_found`)
    const elsewhere = await postForm(client, { provider: 'nobody', redirect: 'https://evil.example/' })
    expect(elsewhere.headers.get('location')).toBe(`${server.url}/login?error=provider_not_found`)
    // From another site: refused as every cross-site write is, nothing started.
    const stranger = new Client(server, 'https://evil.example')
    await expectApiError(await postForm(stranger, { provider: 'oidc' }), 403, 'forbidden')
    expect(stranger.cookies.size).toBe(0)
    // Not a form.
    await expectApiError(await client.request('POST', '/api/sign-in/provider', { provider: 'oidc' }), 415, 'unsupported_media_type')
  })

  it('tells the person when the provider is stopped or too slow, within the bounded wait', async () => {
    const client = new Client(server)
    const back = await signInAtProvider(new CookieJar(), await start(client), callback, oidcTestUsers.verified)
    await provider.stop()
    try {
      const refused = await client.request('GET', `${back.pathname}${back.search}`)
      expect(errorOf(new URL(refused.headers.get('location') ?? '', server.url))).toBe('invalid_code')
    } finally {
      await provider.start()
    }

    const slow = new Client(server)
    const later = await signInAtProvider(new CookieJar(), await start(slow), callback, oidcTestUsers.verified)
    provider.setSlow(15_000)
    try {
      const timedOut = await slow.request('GET', `${later.pathname}${later.search}`)
      expect(errorOf(new URL(timedOut.headers.get('location') ?? '', server.url))).toBe('provider_timeout')
      expect(await freshUser(slow)).toBeNull()
    } finally {
      provider.setSlow(0)
    }
  })
})

describe('with no provider configured', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer()
  })
  afterAll(() => server.stop())

  it('offers none and answers 404 on the provider endpoints', async () => {
    expect(await expectJson<{ providers: unknown[] }>(await fetch(`${server.url}/config.json`))).toMatchObject({ providers: [] })
    const client = new Client(server)
    await expectApiError(await client.request('POST', '/api/auth/sign-in/social', { provider: 'oidc', callbackURL: '/' }), 404, 'not_found')
    await expectApiError(await client.request('POST', '/api/auth/link-social', { provider: 'oidc' }), 404, 'not_found')
    await expectApiError(await client.request('GET', '/api/auth/callback/oidc?code=x&state=y'), 404, 'not_found')
  })
})
