import { createHash, createPublicKey, type JsonWebKey, randomBytes, verify } from 'node:crypto'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type IdTokenClaims,
  type OidcControlServer,
  type OidcProviderHandle,
  oidcTestUsers,
  type RecordedAuthorizationRequest,
  type RecordedTokenRequest,
  startOidcControlServer,
  startOidcProvider,
} from '../helpers/oidc-provider'
import { CookieJar, browse, location, signInAtProvider } from '../helpers/oidc-browser'

/**
 * The browser tests' OpenID provider (tests/helpers/oidc-provider.ts), driven with plain fetch the
 * way a browser and better-auth would: its pages, its tokens, its recording and its misbehaviour.
 */

const redirectUri = 'http://127.0.0.1:4173/api/auth/callback/oidc'

interface Authorization {
  verifier: string
  state: string
  nonce: string
  url: string
}

function authorizationRequest(provider: OidcProviderHandle, extra: Record<string, string> = {}): Authorization {
  const verifier = randomBytes(32).toString('base64url')
  const state = randomBytes(16).toString('base64url')
  const nonce = randomBytes(16).toString('base64url')
  const query = new URLSearchParams({
    client_id: provider.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...extra,
  })
  return { verifier, state, nonce, url: `${provider.issuer}/auth?${query}` }
}

async function exchange(provider: OidcProviderHandle, code: string, verifier: string) {
  const response = await fetch(`${provider.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: provider.clientId,
      client_secret: provider.clientSecret,
    }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** The ID token's claims, after checking its signature against the provider's JWKS. */
async function verifiedClaims(provider: OidcProviderHandle, idToken: unknown): Promise<IdTokenClaims> {
  expect(typeof idToken).toBe('string')
  const [header = '', payload = '', signature = ''] = String(idToken).split('.')
  const { alg, kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string; kid: string }
  expect(alg).toBe('RS256')
  const jwks = (await (await fetch(`${provider.issuer}/jwks`)).json()) as { keys: JsonWebKey[] }
  const jwk = jwks.keys.find((candidate) => candidate.kid === kid)
  expect(jwk, `a key ${kid} in the JWKS`).toBeDefined()
  expect(jwk).not.toHaveProperty('d')
  const key = createPublicKey({ key: jwk!, format: 'jwk' })
  const valid = verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'))
  expect(valid, 'the ID token signature').toBe(true)
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as IdTokenClaims
}

/** A whole sign-in in a fresh browser: the ID token's verified claims. */
async function idTokenFor(provider: OidcProviderHandle, user: { login: string; password: string }) {
  const request = authorizationRequest(provider)
  const callback = await signInAtProvider(new CookieJar(), request.url, redirectUri, user)
  const { status, body } = await exchange(provider, callback.searchParams.get('code') ?? '', request.verifier)
  expect(status).toBe(200)
  return { request, idToken: String(body.id_token) }
}

/** How a TCP connection to `port` ends: `ECONNREFUSED` when nothing listens. */
function connect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve('connected')
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

describe('the test OpenID provider', () => {
  let provider: OidcProviderHandle

  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUris: [redirectUri], existingEmail: 'cleo-run@lingua.test' })
  })
  afterAll(() => provider.stop())

  it('publishes a discovery document for the authorization code flow with PKCE S256', async () => {
    expect(provider.issuer).toBe(`http://127.0.0.1:${provider.port}`)
    const response = await fetch(provider.discoveryUrl)
    expect(response.status).toBe(200)
    const discovery = (await response.json()) as Record<string, unknown>
    expect(discovery).toMatchObject({
      issuer: provider.issuer,
      authorization_endpoint: `${provider.issuer}/auth`,
      token_endpoint: `${provider.issuer}/token`,
      jwks_uri: `${provider.issuer}/jwks`,
      userinfo_endpoint: `${provider.issuer}/me`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['RS256'],
    })
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile']))
    expect(discovery.claims_supported).toEqual(
      expect.arrayContaining(['sub', 'email', 'email_verified', 'name', 'picture']),
    )
    expect(discovery.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_basic', 'client_secret_post']),
    )
    for (const value of Object.values(discovery)) {
      if (typeof value === 'string' && value.startsWith(provider.issuer)) {
        expect(new URL(value).pathname.startsWith('/api/')).toBe(false)
      }
    }
  })

  it('signs a user in through its login and consent pages, and issues a signed ID token for the code', async () => {
    provider.clearRequests()
    const jar = new CookieJar()
    const request = authorizationRequest(provider)

    const toLogin = location(await browse(jar, request.url), request.url)
    const loginResponse = await browse(jar, toLogin)
    expect(loginResponse.status).toBe(200)
    const loginPage = await loginResponse.text()
    expect(loginPage).toContain('<title>Sign-in</title>')
    expect(loginPage).toContain('name="login" placeholder="Enter any login"')
    expect(loginPage).toContain('name="password" placeholder="and password"')
    expect(loginPage).toContain('>Sign-in</button>')
    expect(loginPage).toContain('>[ Cancel ]</a>')
    expect(loginPage).not.toContain('login-error')
    // Nothing from other hosts (a web font the browser could not load would log a console error).
    expect(loginPage).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/)

    // A wrong password: the login page again, with a message, and no way on.
    const wrong = await browse(jar, toLogin, { prompt: 'login', login: 'ada', password: 'not-her-password' })
    expect(wrong.status).toBe(200)
    const again = await wrong.text()
    expect(again).toContain('Invalid login or password.')
    expect(again).toContain('name="password"')

    const { login, password } = oidcTestUsers.verified
    const toResume = location(await browse(jar, toLogin, { prompt: 'login', login, password }), toLogin)
    const toConsent = location(await browse(jar, toResume), toResume)
    const consentResponse = await browse(jar, toConsent)
    expect(consentResponse.status).toBe(200)
    const consentPage = await consentResponse.text()
    expect(consentPage).toContain('<h1>Authorize</h1>')
    expect(consentPage).toContain('>Continue</button>')
    expect(consentPage).toContain('>[ Cancel ]</a>')

    const toCallback = location(await browse(jar, toConsent, { prompt: 'consent' }), toConsent)
    const callback = new URL(location(await browse(jar, toCallback), toCallback))
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri)
    expect(callback.searchParams.get('state')).toBe(request.state)
    expect(callback.searchParams.get('iss')).toBe(provider.issuer)
    const code = callback.searchParams.get('code')
    expect(code).toBeTruthy()

    const { status, body } = await exchange(provider, code!, request.verifier)
    expect(status).toBe(200)
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'openid email profile' })
    const claims = await verifiedClaims(provider, body.id_token)
    expect(claims).toMatchObject({
      iss: provider.issuer,
      aud: provider.clientId,
      sub: 'ada',
      nonce: request.nonce,
      email: 'ada@provider.test',
      email_verified: true,
      name: 'Ada Lovelace',
    })
    expect(Number(claims.exp)).toBeGreaterThan(Date.now() / 1000)

    // The same profile from the userinfo endpoint, for the access token.
    const userinfo = await fetch(`${provider.issuer}/me`, {
      headers: { authorization: `Bearer ${String(body.access_token)}` },
    })
    expect(await userinfo.json()).toEqual({
      sub: 'ada',
      email: 'ada@provider.test',
      email_verified: true,
      name: 'Ada Lovelace',
    })

    // What the client sent, as recorded.
    expect(provider.requests.authorization).toHaveLength(1)
    const authorization = provider.requests.authorization[0]!.params
    expect(authorization).toMatchObject({
      client_id: provider.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state: request.state,
      nonce: request.nonce,
      code_challenge_method: 'S256',
    })
    expect(provider.requests.token).toHaveLength(1)
    const token = provider.requests.token[0]!
    expect(token).toMatchObject({ status: 200, clientAuth: 'client_secret_post' })
    expect(token.params).toMatchObject({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: request.verifier,
    })
    const challenge = createHash('sha256').update(token.params.code_verifier!).digest('base64url')
    expect(challenge).toBe(authorization.code_challenge)
  })

  it('gives each default user their claims', async () => {
    const unverified = await verifiedClaims(provider, (await idTokenFor(provider, oidcTestUsers.unverified)).idToken)
    expect(unverified).toMatchObject({ email: 'ben@provider.test', email_verified: false })

    const existing = await verifiedClaims(provider, (await idTokenFor(provider, oidcTestUsers.existing)).idToken)
    expect(existing).toMatchObject({ sub: 'cleo', email: 'cleo-run@lingua.test', email_verified: true })

    const noemail = await verifiedClaims(provider, (await idTokenFor(provider, oidcTestUsers.noemail)).idToken)
    expect(noemail.sub).toBe('dan')
    expect(noemail).not.toHaveProperty('email')
    expect(noemail).not.toHaveProperty('email_verified')

    provider.addUser({ login: 'eve', password: 'eve-password', email: 'eve-1@provider.test', email_verified: true })
    const added = await verifiedClaims(provider, (await idTokenFor(provider, { login: 'eve', password: 'eve-password' })).idToken)
    expect(added).toMatchObject({ sub: 'eve', email: 'eve-1@provider.test' })
  })

  it('refuses what breaks the protocol: no PKCE, a wrong code verifier, the other client authentication', async () => {
    const withoutPkce = authorizationRequest(provider)
    const url = new URL(withoutPkce.url)
    url.searchParams.delete('code_challenge')
    url.searchParams.delete('code_challenge_method')
    const refused = new URL(location(await browse(new CookieJar(), url.href), url.href))
    expect(refused.searchParams.get('error')).toBe('invalid_request')
    expect(refused.searchParams.get('state')).toBe(withoutPkce.state)

    const request = authorizationRequest(provider)
    const callback = await signInAtProvider(new CookieJar(), request.url, redirectUri, oidcTestUsers.verified)
    const code = callback.searchParams.get('code')!
    const wrongVerifier = await exchange(provider, code, randomBytes(32).toString('base64url'))
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
    expect(provider.requests.token.at(-1)).toMatchObject({ status: 400, error: 'invalid_grant' })

    // The client is registered for client_secret_post; oidc-provider takes Basic as well.
    const again = authorizationRequest(provider)
    const secondCode = (await signInAtProvider(new CookieJar(), again.url, redirectUri, oidcTestUsers.verified)).searchParams.get('code')!
    const basic = (secret: string) =>
      fetch(`${provider.issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${provider.clientId}:${secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: secondCode,
          redirect_uri: redirectUri,
          code_verifier: again.verifier,
        }),
      })
    expect((await basic('not-the-secret')).status).toBe(401)
    expect(provider.requests.token.at(-1)).toMatchObject({ clientAuth: 'client_secret_basic', error: 'invalid_client' })
    expect((await basic(provider.clientSecret)).status).toBe(200)
    expect(provider.requests.token.at(-1)).toMatchObject({ clientAuth: 'client_secret_basic', status: 200 })
  })

  it('sends the user back with access_denied when they cancel', async () => {
    const jar = new CookieJar()
    const request = authorizationRequest(provider)
    const toLogin = location(await browse(jar, request.url), request.url)
    const page = await (await browse(jar, toLogin)).text()
    const abort = /href="([^"]+)">\[ Cancel \]<\/a>/.exec(page)?.[1]
    expect(abort).toBe(`${toLogin}/abort`)
    const toCallback = location(await browse(jar, abort!), abort!)
    const callback = new URL(location(await browse(jar, toCallback), toCallback))
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri)
    expect(Object.fromEntries(callback.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'End-User aborted interaction',
      state: request.state,
      iss: provider.issuer,
    })
  })

  it('remembers who signed in, unless single sign-on is off', async () => {
    const jar = new CookieJar()
    await signInAtProvider(jar, authorizationRequest(provider).url, redirectUri, oidcTestUsers.verified)
    // No pages this time: `signIn` has no user to type in.
    const silent = await signInAtProvider(jar, authorizationRequest(provider).url, redirectUri)
    expect(silent.searchParams.get('code')).toBeTruthy()

    provider.setSingleSignOn(false)
    try {
      await expect(signInAtProvider(jar, authorizationRequest(provider).url, redirectUri)).rejects.toThrow('the login page')
    } finally {
      provider.setSingleSignOn(true)
    }
  })

  it('tampers with the next ID token: the claim changed, the signature still valid', async () => {
    provider.tamperNextIdToken((claims) => ({ ...claims, aud: 'someone-else' }))
    const { idToken, request } = await idTokenFor(provider, oidcTestUsers.verified)
    const claims = await verifiedClaims(provider, idToken)
    expect(claims).toMatchObject({ aud: 'someone-else', iss: provider.issuer, nonce: request.nonce })

    // Only the next one.
    const next = await verifiedClaims(provider, (await idTokenFor(provider, oidcTestUsers.verified)).idToken)
    expect(next.aud).toBe(provider.clientId)

    // Signed by another key under the same kid: the signature does not hold.
    provider.tamperNextIdToken((claims) => claims, { foreignKey: true })
    const forged = (await idTokenFor(provider, oidcTestUsers.verified)).idToken
    await expect(verifiedClaims(provider, forged)).rejects.toThrow('the ID token signature')
  })

  it('goes down and comes back on the same port, with the same keys', async () => {
    const jwks = await (await fetch(`${provider.issuer}/jwks`)).text()
    await provider.stop()
    expect(provider.running).toBe(false)
    // A kept-alive connection was cut (UND_ERR_SOCKET) or a new one refused (ECONNREFUSED).
    await expect(fetch(provider.discoveryUrl)).rejects.toThrow('fetch failed')
    expect(await connect(provider.port)).toBe('ECONNREFUSED')
    await provider.start()
    expect(provider.running).toBe(true)
    expect(await (await fetch(`${provider.issuer}/jwks`)).text()).toBe(jwks)
    await idTokenFor(provider, oidcTestUsers.verified)
  })

  it('answers slowly on demand', async () => {
    provider.setSlow(60_000)
    try {
      const late = await fetch(provider.discoveryUrl, { signal: AbortSignal.timeout(300) }).catch(
        (error: Error) => error.name,
      )
      expect(late).toBe('TimeoutError')
      const waiting = fetch(provider.discoveryUrl)
      provider.setSlow(0)
      expect((await waiting).status).toBe(200)
    } finally {
      provider.setSlow(0)
    }
  })
})

describe('the control server of the test OpenID provider', () => {
  let provider: OidcProviderHandle
  let control: OidcControlServer

  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUris: [redirectUri] })
    control = await startOidcControlServer(provider)
  })
  afterAll(async () => {
    await control.stop()
    await provider.stop()
  })

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${control.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })

  it('reports health and the provider', async () => {
    expect(await (await call('GET', '/health')).text()).toBe('ok')
    expect(await (await call('GET', '/info')).json()).toMatchObject({
      issuer: provider.issuer,
      discoveryUrl: provider.discoveryUrl,
      clientId: 'lingua-test',
      running: true,
    })
  })

  it('adds users, records requests and tampers over HTTP', async () => {
    const email = `fresh-${randomBytes(4).toString('hex')}@provider.test`
    const user = { login: 'fresh', password: 'fresh-password', email, email_verified: true, name: 'Fresh' }
    expect((await call('POST', '/users', user)).status).toBe(201)
    expect((await call('POST', '/users', { login: 'no-password' })).status).toBe(400)
    expect((await call('DELETE', '/requests')).status).toBe(204)

    expect((await call('POST', '/tamper', { nonce: 'not-the-nonce', email_verified: null })).status).toBe(204)
    const { idToken, request } = await idTokenFor(provider, user)
    const claims = await verifiedClaims(provider, idToken)
    expect(claims).toMatchObject({ email, nonce: 'not-the-nonce' })
    expect(claims).not.toHaveProperty('email_verified')

    const recorded = (await (await call('GET', '/requests')).json()) as {
      authorization: RecordedAuthorizationRequest[]
      token: RecordedTokenRequest[]
    }
    expect(recorded.authorization.map((entry) => entry.params.state)).toEqual([request.state])
    expect(recorded.token.map((entry) => entry.params.code_verifier)).toEqual([request.verifier])
    expect((await call('DELETE', '/requests')).status).toBe(204)
    expect(await (await call('GET', '/requests')).json()).toEqual({ authorization: [], token: [] })
  })

  it('stops, starts and slows the provider', async () => {
    expect((await call('POST', '/stop')).status).toBe(204)
    expect(await connect(provider.port)).toBe('ECONNREFUSED')
    expect((await call('POST', '/start')).status).toBe(204)
    expect((await fetch(provider.discoveryUrl)).status).toBe(200)

    expect((await call('POST', '/slow', { ms: 'long' })).status).toBe(400)
    expect((await call('POST', '/slow', { ms: 60_000 })).status).toBe(204)
    const waiting = fetch(provider.discoveryUrl)
    expect((await call('POST', '/slow', { ms: 0 })).status).toBe(204)
    expect((await waiting).status).toBe(200)
  })
})
