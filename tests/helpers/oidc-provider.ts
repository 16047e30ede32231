/**
 * A real OpenID provider for the tests of "Sign in with OpenID Connect": panva's oidc-provider on
 * 127.0.0.1 (issuer `http://127.0.0.1:<port>`, discovery at `/.well-known/openid-configuration`),
 * with one confidential client, test users, and the means to misbehave on purpose (a tampered ID
 * token, an outage, a slow answer). Nothing is served under `/api/`.
 *
 * Endpoints (oidc-provider's defaults): authorization `/auth`, token `/token`, JWKS `/jwks`,
 * userinfo `/me`, end session `/session/end`.
 *
 * The pages a browser sees are oidc-provider's own development pages ("devInteractions"):
 *
 * - Login page: `<title>Sign-in</title>`, heading `Sign-in`; a form posting to
 *   `/interaction/<uid>` with a text field `name="login"` (placeholder "Enter any login"), a
 *   password field `name="password"` (placeholder "and password") and a button "Sign-in". Unlike
 *   the stock page, the password IS checked here (see `checkLogin`): a wrong one shows the login
 *   page again, with `<p class="login-error" role="alert">Invalid login or password.</p>`.
 *   Playwright: `page.getByPlaceholder('Enter any login').fill('ada')`,
 *   `page.getByPlaceholder('and password').fill('ada-password')`,
 *   `page.getByRole('button', { name: 'Sign-in' }).click()` (or `locator('input[name=login]')`).
 * - Consent page: `<title>Sign-in</title>`, heading `Authorize`, a list of the scopes and claims
 *   asked for, and a button "Continue" (`getByRole('button', { name: 'Continue' })`).
 * - Both pages have a link "[ Cancel ]" (`getByRole('link', { name: '[ Cancel ]' })`) to
 *   `/interaction/<uid>/abort`: the provider then redirects to the client's redirect URI with
 *   `error=access_denied&error_description=End-User+aborted+interaction&state=…&iss=…`.
 * - Errors the provider cannot send back to the client (an unknown client, a redirect URI that is
 *   not registered) are shown on the provider's own page: heading `Provider error`, then
 *   `error: <code>` and `error_description: <text>` paragraphs.
 *
 * The provider remembers who signed in (its session cookie `op_session` on 127.0.0.1, any port)
 * and what they consented to: a second authorization in the same browser goes straight back to
 * the client with a code, no page shown, as real providers do. `setSingleSignOn(false)` makes it
 * ask every time (login and consent pages again).
 */
import { generateKeyPair, type KeyObject, randomBytes, sign } from 'node:crypto'
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
// @ts-expect-error -- oidc-provider ships no type declarations (and @types/oidc-provider is not installed); the part used here is typed below as `OidcProviderApp`.
import { Provider as UntypedProvider } from 'oidc-provider'

/** A user of the test provider. The ID token's `sub` is `sub` (default: the login). */
export interface OidcTestUser {
  login: string
  password: string
  sub?: string
  /** Absent: the provider has no email for this user, and sends neither `email` nor `email_verified`. */
  email?: string
  /** Sent with `email` (default false). */
  email_verified?: boolean
  name?: string
  picture?: string
}

/** The default users (by their role in the tests). `existing.email` is replaced by `existingEmail`. */
export const oidcTestUsers = {
  verified: {
    login: 'ada',
    password: 'ada-password',
    email: 'ada@provider.test',
    email_verified: true,
    name: 'Ada Lovelace',
  },
  unverified: {
    login: 'ben',
    password: 'ben-password',
    email: 'ben@provider.test',
    email_verified: false,
    name: 'Ben Carter',
  },
  /** Its email is that of a Lingua account the test made first. */
  existing: {
    login: 'cleo',
    password: 'cleo-password',
    email: 'cleo@lingua.test',
    email_verified: true,
    name: 'Cleo Marsh',
  },
  noemail: { login: 'dan', password: 'dan-password', name: 'Dan Reyes' },
} as const satisfies Record<string, OidcTestUser>

export interface OidcProviderOptions {
  /** Default: a free port. A restart (`start()` after `stop()`) listens on the same one. */
  port?: number
  /** The issuer's host name; the provider always listens on 127.0.0.1. Default `127.0.0.1`. */
  issuerHost?: string
  /** Default `lingua-test`. */
  clientId?: string
  clientSecret?: string
  /** The client's registered redirect URIs, e.g. `${APP_URL}/api/auth/callback/oidc`. */
  redirectUris: string[]
  /** For RP-initiated logout (`/session/end`); default none. */
  postLogoutRedirectUris?: string[]
  /** Default: the four `oidcTestUsers`. */
  users?: OidcTestUser[]
  /** The email of `oidcTestUsers.existing` (default `cleo@lingua.test`). */
  existingEmail?: string
  /** See the top of this file; default true. */
  singleSignOn?: boolean
}

/** The parameters of one request, first value of each. */
type Params = Record<string, string>

export interface RecordedAuthorizationRequest {
  /** ISO time of arrival. */
  at: string
  /** The query: `client_id`, `redirect_uri`, `response_type`, `scope`, `state`, `nonce`, `code_challenge`, `code_challenge_method`, … */
  params: Params
}

export interface RecordedTokenRequest {
  at: string
  /** The form body: `grant_type`, `code`, `redirect_uri`, `code_verifier` (and `client_id`, `client_secret` with client_secret_post). */
  params: Params
  /** How the client authenticated: `Authorization: Basic` or a secret in the body. */
  clientAuth: 'client_secret_basic' | 'client_secret_post' | 'client_assertion' | 'none'
  status: number
  /** The OAuth error code of a refused request (`invalid_grant`, `invalid_client`, …). */
  error?: string
}

export type IdTokenClaims = Record<string, unknown>

export interface OidcProviderHandle {
  /** `http://127.0.0.1:<port>` */
  readonly issuer: string
  readonly discoveryUrl: string
  readonly port: number
  readonly clientId: string
  readonly clientSecret: string
  readonly redirectUris: readonly string[]
  /** False between `stop()` and `start()`. */
  readonly running: boolean
  /** Every authorization request (`GET /auth` with a query) and token request, in arrival order. */
  readonly requests: {
    readonly authorization: RecordedAuthorizationRequest[]
    readonly token: RecordedTokenRequest[]
  }
  clearRequests(): void
  /** Adds the user, or replaces the one with the same login. */
  addUser(user: OidcTestUser): void
  user(login: string): OidcTestUser | undefined
  users(): OidcTestUser[]
  /**
   * The next successful token response carries an ID token with `change(claims)` as its claims,
   * re-signed with the provider's key (same `kid` and `alg`): valid signature, wrong claim. With
   * `foreignKey`, signed by another key under the same `kid` instead: a bad signature.
   */
  tamperNextIdToken(change: (claims: IdTokenClaims) => IdTokenClaims, options?: { foreignKey?: boolean }): void
  /** Drops a tampering that has not happened yet. */
  cancelTamper(): void
  /** Every answer of the provider waits this long first (0: none, and the waiting ones go on). */
  setSlow(ms: number): void
  setSingleSignOn(enabled: boolean): void
  /** Stops listening and cuts open connections: connections are refused until `start()`. */
  stop(): Promise<void>
  /** Listens again on the same port, with the same keys, client, users and sessions. */
  start(): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// The part of oidc-provider (a Koa application) used here.

interface ProviderContext {
  method: string
  readonly path: string
  readonly querystring: string
  status: number
  body: unknown
  readonly req: IncomingMessage
  readonly res: ServerResponse
  /** Set by oidc-provider on its own routes; `body` once the request body is parsed. */
  readonly oidc?: { readonly body?: Record<string, string | string[] | undefined> }
  get(field: string): string
  set(field: string, value: string): void
  is(type: string): string | false | null
  redirect(url: string): void
}

type Middleware = (ctx: ProviderContext, next: () => Promise<void>) => Promise<void>

interface InteractionDetails {
  uid: string
  prompt: { name: string }
}

interface OidcProviderApp {
  callback(): (req: IncomingMessage, res: ServerResponse) => void
  use(middleware: Middleware): void
  on(event: 'server_error', listener: (ctx: ProviderContext, error: Error) => void): void
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
  interactionResult(
    req: IncomingMessage,
    res: ServerResponse,
    result: { login: { accountId: string } },
    options: { mergeWithLastSubmission: boolean },
  ): Promise<string>
}

type ProviderConstructor = new (issuer: string, configuration: Record<string, unknown>) => OidcProviderApp
const Provider = UntypedProvider as ProviderConstructor

// ---------------------------------------------------------------------------------------------

const AUTHORIZATION_PATH = '/auth'
const TOKEN_PATH = '/token'
const COOKIE_NAMES = { session: 'op_session', interaction: 'op_interaction', resume: 'op_interaction_resume' }
const generateRsaKeyPair = promisify(generateKeyPair)

/** An RS256 signing key under `kid`: the private JWK for oidc-provider, the key object to re-sign. */
async function signingKey(kid: string) {
  const { privateKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 })
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }
  return { jwk, privateKey }
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url')

/** `token` with its claims changed and signed again by `key`, keeping its header (alg, kid). */
function resign(token: string, change: (claims: IdTokenClaims) => IdTokenClaims, key: KeyObject): string {
  const [header, payload] = token.split('.')
  if (!header || !payload) throw new Error('not a JWS in compact form')
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as IdTokenClaims
  const signingInput = `${header}.${base64url(JSON.stringify(change(claims)))}`
  // RS256 = RSASSA-PKCS1-v1_5 with SHA-256, node's default padding for an RSA key.
  return `${signingInput}.${sign('sha256', Buffer.from(signingInput), key).toString('base64url')}`
}

function firstValues(params: Record<string, string | string[] | undefined> | URLSearchParams): Params {
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params)
  const result: Params = {}
  for (const [name, value] of entries) {
    const first = Array.isArray(value) ? value[0] : value
    if (first !== undefined && !(name in result)) result[name] = first
  }
  return result
}

async function readBody(request: IncomingMessage, limit = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw new Error('request body too large')
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/**
 * Runs `make` without oidc-provider's warnings about its in-memory store and development pages,
 * which it prints for every provider made: both are what this test provider is for. (Its warning
 * about Node 20, printed once when it is imported, stays.)
 */
function quietly<T>(make: () => T): T {
  const warn = console.warn
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('oidc-provider WARNING: a quick start development-only')) return
    warn(...args)
  }
  try {
    return make()
  } finally {
    console.warn = warn
  }
}

/** The claims of `user`, all of them: oidc-provider keeps those of the granted scopes. */
function claimsOf(user: OidcTestUser, sub: string): IdTokenClaims {
  return {
    sub,
    ...(user.email === undefined ? {} : { email: user.email, email_verified: user.email_verified ?? false }),
    ...(user.name === undefined ? {} : { name: user.name }),
    ...(user.picture === undefined ? {} : { picture: user.picture }),
  }
}

/** Starts the provider on 127.0.0.1 (see the top of this file). */
export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcProviderHandle> {
  const clientId = options.clientId ?? 'lingua-test'
  const clientSecret = options.clientSecret ?? 'lingua-test-client-secret-0123456789-abcdefghijklmnopqrstuvwxyz'
  const redirectUris = [...options.redirectUris]
  let singleSignOn = options.singleSignOn ?? true

  const users = new Map<string, OidcTestUser>()
  const defaults = Object.values(oidcTestUsers).map((user): OidcTestUser =>
    user.login === oidcTestUsers.existing.login && options.existingEmail
      ? { ...user, email: options.existingEmail }
      : { ...user },
  )
  for (const user of options.users ?? defaults) users.set(user.login, { ...user })
  const findBySub = (sub: string) => [...users.values()].find((user) => (user.sub ?? user.login) === sub)

  const requests = { authorization: [] as RecordedAuthorizationRequest[], token: [] as RecordedTokenRequest[] }
  let tamper: { change: (claims: IdTokenClaims) => IdTokenClaims; foreignKey: boolean } | undefined
  let foreignKey: KeyObject | undefined

  const kid = `test-${randomBytes(6).toString('hex')}`
  const key = await signingKey(kid)

  // Listen first: the issuer names the port, which may be a free one chosen now.
  /** oidc-provider's request handler, once it is made (it needs the issuer, so the port). */
  let serve = (_request: IncomingMessage, response: ServerResponse) => {
    response.statusCode = 503
    response.end()
  }
  let slowMs = 0
  const waiting = new Set<(go: boolean) => void>()
  /** Waits `slowMs` (or until `setSlow(0)`); false if the provider stopped meanwhile. */
  const hold = () =>
    new Promise<boolean>((resolve) => {
      const finish = (go: boolean) => {
        clearTimeout(timer)
        waiting.delete(finish)
        resolve(go)
      }
      const timer = setTimeout(() => finish(true), slowMs)
      waiting.add(finish)
    })
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    if (slowMs <= 0) {
      serve(request, response)
      return
    }
    void hold().then((go) => (go ? serve(request, response) : response.destroy()))
  }

  let server: Server | undefined
  let port = options.port ?? 0
  const listen = async () => {
    const next = createServer(handler)
    next.listen(port, '127.0.0.1')
    await once(next, 'listening')
    server = next
    port = (next.address() as AddressInfo).port
  }
  await listen()

  const issuer = `http://${options.issuerHost ?? '127.0.0.1'}:${port}`
  const provider = quietly(() => new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        // What better-auth sends when it has a client secret (and no `authentication: 'basic'`).
        // oidc-provider takes client_secret_basic from such a client as well (and the other way
        // round): both work, and `requests.token[].clientAuth` tells which one was used.
        token_endpoint_auth_method: 'client_secret_post',
        id_token_signed_response_alg: 'RS256',
      },
    ],
    jwks: { keys: [key.jwk] },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    // The scope's claims go in the ID token too, not only to the userinfo endpoint: better-auth
    // reads the profile from the ID token when it has `sub` and `email`.
    conformIdTokenClaims: false,
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    routes: { authorization: AUTHORIZATION_PATH, token: TOKEN_PATH },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: [randomBytes(32).toString('base64url')], names: COOKIE_NAMES },
    // Short lives, set explicitly (the defaults log a notice each).
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    clientBasedCORS: () => false,
    findAccount: (_ctx: unknown, sub: string) => {
      const user = findBySub(sub)
      return user ? { accountId: sub, claims: () => claimsOf(user, sub) } : undefined
    },
    renderError: (ctx: ProviderContext, out: Record<string, string | undefined>) => {
      ctx.set('Content-Type', 'text/html; charset=utf-8')
      const lines = Object.entries(out)
        .filter((entry): entry is [string, string] => entry[1] !== undefined)
        .map(([name, value]) => `<p>${escapeHtml(name)}: ${escapeHtml(value)}</p>`)
      ctx.body = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Provider error</title></head><body><h1>Provider error</h1>${lines.join('')}</body></html>`
    },
  }))
  provider.on('server_error', (_ctx, error) => console.error('oidc test provider: server error', error))

  /** Recording, and the tampering of the token response (after the provider has answered). */
  const recordAndTamper: Middleware = async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === AUTHORIZATION_PATH && ctx.querystring) {
      requests.authorization.push({
        at: new Date().toISOString(),
        params: firstValues(new URLSearchParams(ctx.querystring)),
      })
    }
    await next()
    if (ctx.method !== 'POST' || ctx.path !== TOKEN_PATH) return
    const params = firstValues(ctx.oidc?.body ?? {})
    const answer = (ctx.body ?? {}) as { error?: unknown; id_token?: unknown }
    const authorization = ctx.get('authorization')
    requests.token.push({
      at: new Date().toISOString(),
      params,
      clientAuth: /^basic /i.test(authorization)
        ? 'client_secret_basic'
        : params.client_secret
          ? 'client_secret_post'
          : params.client_assertion
            ? 'client_assertion'
            : 'none',
      status: ctx.status,
      ...(typeof answer.error === 'string' ? { error: answer.error } : {}),
    })
    if (ctx.status !== 200 || typeof answer.id_token !== 'string' || !tamper) return
    const { change, foreignKey: foreign } = tamper
    tamper = undefined
    const signer = foreign ? (foreignKey ??= (await signingKey(kid)).privateKey) : key.privateKey
    ctx.body = { ...answer, id_token: resign(answer.id_token, change, signer) }
  }

  /**
   * The dev login page takes any login and password; this checks them against the test users
   * before oidc-provider's own handler sees the form. Wrong: the login page again, with a message.
   */
  const checkLogin: Middleware = async (ctx, next) => {
    const uid = /^\/interaction\/([^/]+)$/.exec(ctx.path)?.[1]
    if (ctx.method !== 'POST' || !uid || !ctx.is('application/x-www-form-urlencoded')) return next()
    const details = await provider.interactionDetails(ctx.req, ctx.res).catch(() => undefined)
    // The consent form, or no interaction at all: oidc-provider's handler answers.
    if (details?.uid !== uid || details.prompt.name !== 'login') return next()
    const form = new URLSearchParams(await readBody(ctx.req))
    const user = users.get(form.get('login') ?? '')
    if (!user || user.password !== form.get('password')) {
      // Render the login page again, as oidc-provider's GET of this interaction does.
      ctx.method = 'GET'
      await next()
      if (typeof ctx.body === 'string') {
        ctx.body = ctx.body.replace(
          '<form',
          '<p class="login-error" role="alert">Invalid login or password.</p>\n<form',
        )
      }
      return
    }
    const returnTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { accountId: user.sub ?? user.login } },
      { mergeWithLastSubmission: false },
    )
    ctx.set('Cache-Control', 'no-store')
    ctx.status = 303
    ctx.redirect(returnTo)
  }

  /** Without single sign-on, an authorization request does not show the provider its session. */
  const forgetSession: Middleware = async (ctx, next) => {
    const cookie = ctx.req.headers.cookie
    if (!singleSignOn && ctx.path === AUTHORIZATION_PATH && cookie) {
      ctx.req.headers.cookie = cookie
        .split(/;\s*/)
        .filter((pair) => {
          const name = pair.slice(0, pair.indexOf('='))
          return name !== COOKIE_NAMES.session && name !== `${COOKIE_NAMES.session}.sig`
        })
        .join('; ')
    }
    await next()
  }

  /**
   * oidc-provider's pages load a web font from fonts.googleapis.com, which the test machine cannot
   * reach: the browser would log a console error on every page (and the browser tests fail on
   * console errors). The pages keep their look otherwise. Nor is the browser's request for a
   * favicon answered 404, which it would log as well.
   */
  const offlinePages: Middleware = async (ctx, next) => {
    if (ctx.path === '/favicon.ico') {
      ctx.status = 204
      return
    }
    await next()
    if (typeof ctx.body === 'string') ctx.body = ctx.body.replace(/@import url\(https:\/\/fonts\.googleapis\.com[^)]*\);?/g, '')
  }

  provider.use(offlinePages)
  provider.use(recordAndTamper)
  provider.use(checkLogin)
  provider.use(forgetSession)
  serve = provider.callback()

  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    get port() {
      return port
    },
    clientId,
    clientSecret,
    redirectUris,
    get running() {
      return server !== undefined
    },
    requests,
    clearRequests() {
      requests.authorization.splice(0)
      requests.token.splice(0)
    },
    addUser(user) {
      users.set(user.login, { ...user })
    },
    user(login) {
      const user = users.get(login)
      return user && { ...user }
    },
    users: () => [...users.values()].map((user) => ({ ...user })),
    tamperNextIdToken(change, tamperOptions) {
      tamper = { change, foreignKey: tamperOptions?.foreignKey ?? false }
    },
    cancelTamper() {
      tamper = undefined
    },
    setSlow(ms) {
      slowMs = Math.max(0, ms)
      if (slowMs === 0) for (const finish of [...waiting]) finish(true)
    },
    setSingleSignOn(enabled) {
      singleSignOn = enabled
    },
    async stop() {
      const stopping = server
      if (!stopping) return
      server = undefined
      for (const finish of [...waiting]) finish(false)
      const closed = new Promise<void>((resolve) => stopping.close(() => resolve()))
      stopping.closeAllConnections()
      await closed
    },
    async start() {
      if (!server) await listen()
    },
  }
}

// ---------------------------------------------------------------------------------------------

export interface OidcControlServer {
  /** `http://127.0.0.1:<port>` */
  url: string
  port: number
  stop(): Promise<void>
}

/** A JSON object of claims to set; a `null` value removes the claim. */
function applyClaims(claims: IdTokenClaims, changes: Record<string, unknown>): IdTokenClaims {
  const result = { ...claims }
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete result[name]
    else result[name] = value
  }
  return result
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function asUser(value: unknown): OidcTestUser | undefined {
  if (!isRecord(value) || typeof value.login !== 'string' || typeof value.password !== 'string') return undefined
  const optional = (name: string, type: 'string' | 'boolean') =>
    value[name] === undefined || typeof value[name] === type
  if (!optional('sub', 'string') || !optional('email', 'string') || !optional('name', 'string')) return undefined
  if (!optional('picture', 'string') || !optional('email_verified', 'boolean')) return undefined
  return value as unknown as OidcTestUser
}

/**
 * The provider's remote control, for tests in another process (the browser tests):
 * - `GET /health` → `ok`; `GET /info` → issuer, discovery URL, client, running
 * - `GET /requests` → `{ authorization: [...], token: [...] }` (see `RecordedAuthorizationRequest`,
 *   `RecordedTokenRequest`); `DELETE /requests` clears them
 * - `GET /users`; `POST /users` with a user as JSON (`{ login, password, email?, email_verified?,
 *   name?, picture?, sub? }`) adds or replaces it → 201
 * - `POST /tamper` with claims as JSON (`{ "aud": "someone-else" }`; `null` removes a claim) →
 *   the next ID token carries them, validly re-signed; `POST /tamper?key=foreign`: signed by
 *   another key under the same `kid`. `DELETE /tamper` cancels.
 * - `POST /stop`, `POST /start`: the provider's port refuses connections / listens again
 * - `POST /slow` with `{ "ms": 15000 }`: every provider answer waits that long; `{ "ms": 0 }` ends it
 * - `POST /sso` with `{ "enabled": false }`: every authorization shows the login and consent pages
 * Success without a body is 204; a bad body is 400.
 */
export async function startOidcControlServer(
  provider: OidcProviderHandle,
  options: { port?: number } = {},
): Promise<OidcControlServer> {
  const send = (response: ServerResponse, status: number, body?: unknown) => {
    response.statusCode = status
    if (body === undefined) {
      response.end()
      return
    }
    response.setHeader('Content-Type', 'application/json')
    response.end(JSON.stringify(body))
  }

  const route = async (request: IncomingMessage, response: ServerResponse) => {
    const { pathname, searchParams } = new URL(request.url ?? '/', 'http://control')
    const method = request.method ?? 'GET'
    const json = async (): Promise<unknown> => {
      try {
        return JSON.parse(await readBody(request)) as unknown
      } catch {
        return undefined
      }
    }
    switch (`${method} ${pathname}`) {
      case 'GET /health':
        response.end('ok')
        return
      case 'GET /info':
        return send(response, 200, {
          issuer: provider.issuer,
          discoveryUrl: provider.discoveryUrl,
          clientId: provider.clientId,
          clientSecret: provider.clientSecret,
          redirectUris: provider.redirectUris,
          running: provider.running,
        })
      case 'GET /requests':
        return send(response, 200, provider.requests)
      case 'DELETE /requests':
        provider.clearRequests()
        return send(response, 204)
      case 'GET /users':
        return send(response, 200, provider.users())
      case 'POST /users': {
        const user = asUser(await json())
        if (!user) return send(response, 400, { error: 'expected { login, password, email?, email_verified?, name?, picture?, sub? }' })
        provider.addUser(user)
        return send(response, 201, user)
      }
      case 'POST /tamper': {
        const changes = await json()
        if (!isRecord(changes)) return send(response, 400, { error: 'expected a JSON object of claims' })
        provider.tamperNextIdToken((claims) => applyClaims(claims, changes), {
          foreignKey: searchParams.get('key') === 'foreign',
        })
        return send(response, 204)
      }
      case 'DELETE /tamper':
        provider.cancelTamper()
        return send(response, 204)
      case 'POST /stop':
        await provider.stop()
        return send(response, 204)
      case 'POST /start':
        await provider.start()
        return send(response, 204)
      case 'POST /slow': {
        const body = await json()
        if (!isRecord(body) || typeof body.ms !== 'number' || !(body.ms >= 0)) {
          return send(response, 400, { error: 'expected { "ms": <milliseconds> }' })
        }
        provider.setSlow(body.ms)
        return send(response, 204)
      }
      case 'POST /sso': {
        const body = await json()
        if (!isRecord(body) || typeof body.enabled !== 'boolean') {
          return send(response, 400, { error: 'expected { "enabled": <boolean> }' })
        }
        provider.setSingleSignOn(body.enabled)
        return send(response, 204)
      }
      default:
        return send(response, 404)
    }
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      console.error('oidc test provider control:', error)
      send(response, 500, { error: String(error) })
    })
  })
  server.listen(options.port ?? 0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
