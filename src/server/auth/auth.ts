import { redisStorage } from '@better-auth/redis-storage'
import { betterAuth } from 'better-auth'
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { admin, emailOTP, openAPI, twoFactor } from 'better-auth/plugins'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { NAME_MAX_LENGTH, emailFormSchema, isHttpsUrl, nameProblem, nameSchema, readableName } from '@/shared/auth'
import type { Config } from '@/server/config'
import type { Database } from '@/server/db/client'
import * as schema from '@/server/db/schema'
import { type MailKind, type MailThrottle, type Mailer, composeMail, resolveMailLocale } from '@/server/mail/index'
import { authLogOptions } from '@/server/logger'
import { KNOWN_DEVICE_COOKIE, knownDevices } from './known-device'
import { SIGN_IN_LOCKOUT, createMemorySignInLockout, createRedisSignInLockout } from './lockout'
import { isWeakPassword } from './password-strength'
import { hashPassword, verifyPassword } from './password'
import { grantAdminOnVerification } from './roles'
import { loadAuthSecret } from './secret'

/** Sessions last 400 days (the seed's cookie lifetime) and are renewed once a day while used. */
export const SESSION_LIFETIME_SECONDS = 400 * 24 * 60 * 60
export const VERIFY_EMAIL_EXPIRES_SECONDS = 24 * 60 * 60
export const RESET_PASSWORD_EXPIRES_SECONDS = 60 * 60
export const SIGN_IN_CODE_EXPIRES_SECONDS = 10 * 60

/** Where a new password is chosen. */
const passwordPaths = new Set(['/sign-up/email', '/reset-password', '/change-password', '/set-password'])

/** Where a name or an avatar is set. */
const profilePaths = new Set(['/sign-up/email', '/update-user'])

/** Names are 1–100 characters; avatars are HTTPS URLs (the CSP loads no other remote image). */
function checkProfile(body: Record<string, unknown>) {
  if ('name' in body && !nameSchema.safeParse(body.name).success) {
    const problem = typeof body.name === 'string' ? nameProblem(body.name.trim()) : undefined
    throw new APIError('BAD_REQUEST', {
      code: 'INVALID_NAME',
      message:
        problem === 'control'
          ? 'A name cannot contain control characters or text-direction marks.'
          : problem === 'blank'
            ? 'Enter a name with letters or other visible characters.'
            : `Enter a name of 1 to ${NAME_MAX_LENGTH} characters.`,
    })
  }
  if ('image' in body && body.image !== null && !(typeof body.image === 'string' && isHttpsUrl(body.image))) {
    throw new APIError('BAD_REQUEST', {
      code: 'INVALID_IMAGE',
      message: 'The avatar must be an https:// address.',
    })
  }
}

/** better-auth's cookies are `lingua.session_token`, `lingua.session_data`, … (`__Secure-` under https). */
export const COOKIE_PREFIX = 'lingua'

/** The header the app sets to the client's address (see `clientAddress` in app.ts). */
export const CLIENT_IP_HEADER = 'x-lingua-client-ip'

/**
 * Requests per client address per minute on the auth endpoints an attacker would hammer, and on
 * the session reads; every other auth endpoint allows 100.
 */
const rateLimits: Record<string, number> = {
  '/sign-in/email': 10,
  '/sign-up/email': 5,
  '/sign-in/email-otp': 10,
  '/email-otp/send-verification-otp': 5,
  '/send-verification-email': 5,
  '/request-password-reset': 5,
  '/reset-password': 10,
  '/two-factor/verify-totp': 10,
  '/two-factor/verify-backup-code': 10,
  // Reads every page load makes: a school or an office behind one address must not share 100.
  '/get-session': 600,
  '/list-sessions': 600,
}

/** The interface language of the request (the client sends Accept-Language), for emails. */
function localeOf(request: Request | undefined) {
  const header = request?.headers.get('accept-language') ?? ''
  return resolveMailLocale(header.split(',')[0]?.trim() ?? 'en')
}

const minutes = (seconds: number) => Math.ceil(seconds / 60)

/**
 * The endpoints that email a link or a code on request, and the kind of email each sends. A
 * request within the throttle window of the last one to the same address is told to wait (429,
 * Retry-After) instead of being answered as if an email had gone: for every address, with an
 * account or not, so that the answer tells nothing about which addresses have one.
 */
const emailRequests: Record<string, (body: Record<string, unknown>) => MailKind | undefined> = {
  '/email-otp/send-verification-otp': (body) => (body.type === 'sign-in' ? 'sign-in-code' : undefined),
  '/request-password-reset': () => 'reset-password',
  '/send-verification-email': () => 'verify-email',
}

/** better-auth's allowed wrong attempts at one emailed code (its default). */
const CODE_ATTEMPTS = 3
/** The answers to a wrong guess at an emailed code; the one that uses the code up is among them. */
const burntCodeErrors = new Set(['INVALID_OTP', 'TOO_MANY_ATTEMPTS'])

/**
 * better-auth's email tokens are JWTs; one that moves an account to a new address carries
 * `updateTo`. Read without checking the signature: it only picks the email's wording, and
 * `/verify-email` checks the token when the link is opened.
 */
export function isEmailChangeToken(token: string): boolean {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())
    return typeof payload === 'object' && payload !== null && 'updateTo' in payload && Boolean(payload.updateTo)
  } catch {
    return false
  }
}

/**
 * Two-factor authentication. better-auth asks for the second factor after a password sign-in
 * only; an emailed code is no second factor, so the code sign-in gets the same challenge: the
 * plugin's own hook (drop the new session, set the two-factor cookie, answer
 * `twoFactorRedirect`) also runs after `/sign-in/email-otp`.
 */
function twoFactorOnEverySignIn(issuer: string) {
  const plugin = twoFactor({ issuer })
  const challenge = plugin.hooks.after[0]
  if (!challenge) throw new Error('better-auth twoFactor no longer has its sign-in hook')
  plugin.hooks.after.push({
    matcher: (context) => context.path === '/sign-in/email-otp',
    handler: challenge.handler,
  })
  return plugin
}

export async function createAuth(deps: {
  config: Config
  database: Database
  mailer: Mailer
  /** The mailer's throttle: requests for an email are told to wait while it holds their slot. */
  mailThrottle: MailThrottle
  logger: Logger
  /**
   * With several instances: sessions cached, rate limits and sign-in failures counted in Redis,
   * shared by all.
   */
  redis?: Redis
}) {
  const { config, database, mailer, mailThrottle, logger, redis } = deps
  const secret = await loadAuthSecret(database.db, config.authSecret)
  const devices = knownDevices(secret)
  /** Requests whose email already holds its throttle slot (claimed in the before hook). */
  const claimed = new WeakSet<Request>()
  const sendMail = (message: Parameters<Mailer['send']>[0], request: Request | undefined) =>
    mailer.send(message, { claimed: request !== undefined && claimed.has(request) })
  const lockout = redis
    ? createRedisSignInLockout(redis, `${config.redisKeyPrefix}sign-in-failures:`)
    : createMemorySignInLockout()
  // A user update's before hook sees what it sets, its after hook whom it changed: the endpoint
  // context they share pairs the two (see `databaseHooks` below).
  const verifyingUpdates = new WeakSet<object>()
  const confirmLink = (type: string, token: string) =>
    `${config.appUrl}/confirm?${new URLSearchParams({ type, token }).toString()}`
  /** An email with a link, in the language of the request that caused it. */
  const sendLink = (
    kind: 'verify-email' | 'reset-password' | 'change-email',
    to: string,
    link: string,
    expiresInSeconds: number,
    request: Request | undefined,
  ) =>
    sendMail(
      composeMail(to, {
        kind,
        appName: config.appName,
        locale: localeOf(request),
        link,
        expiresInMinutes: minutes(expiresInSeconds),
        ...(kind === 'change-email' ? { newEmail: to } : {}),
      }),
      request,
    )

  // The admin plugin keeps the `role` field on users. Its HTTP endpoints (list, ban, impersonate,
  // set role…) stay closed: roles change through ADMIN_EMAILS and the CLI, which the audit log
  // records, and the product has no user administration.
  const adminPlugin = admin()
  const adminPaths = Object.values(adminPlugin.endpoints).map((endpoint) => endpoint.path)
  // Describes the endpoints for the app's one OpenAPI document (/api/openapi.json, which calls
  // `auth.api.generateOpenAPISchema()`). Its own HTTP endpoints stay closed: its document would be a
  // second one, in better-auth's error shape, and its page loads Scalar from a CDN (our CSP and an
  // offline machine refuse it); the app serves its own reference page at /api/docs.
  const openApiPlugin = openAPI({ disableDefaultReference: true })
  const openApiPaths = Object.values(openApiPlugin.endpoints).map((endpoint) => endpoint.path)

  return betterAuth({
    // better-auth's own messages go to the app's log, through its redaction (a failed query it
    // prints holds the token it looked up); errors other than its API answers are thrown to the
    // app's error handler, which logs them redacted and answers 503 when the database is down.
    logger: authLogOptions(logger),
    onAPIError: { throw: true },
    // Also closed: the emailed-code password reset's deprecated path, which prints a plain-text
    // warning to stderr when called (the app resets passwords by link).
    disabledPaths: [...adminPaths, ...openApiPaths, '/forget-password/email-otp'],
    appName: config.appName,
    baseURL: config.appUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [config.appUrl],
    database: drizzleAdapter(database.db, { provider: 'pg', schema }),
    ...(redis
      ? { secondaryStorage: redisStorage({ client: redis, keyPrefix: `${config.redisKeyPrefix}auth:` }) }
      : {}),
    telemetry: { enabled: false },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: false,
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: RESET_PASSWORD_EXPIRES_SECONDS,
      revokeSessionsOnPasswordReset: true,
      // Registering a taken email answers like a new one (no enumeration): the stand-in must carry
      // every field the plugins add to a real user, with a real user's defaults.
      customSyntheticUser: ({ coreFields, additionalFields, id }) => ({
        ...coreFields,
        role: 'user',
        banned: false,
        banReason: null,
        banExpires: null,
        twoFactorEnabled: false,
        ...additionalFields,
        id,
      }),
      sendResetPassword: ({ user, token }, request) =>
        sendLink('reset-password', user.email, confirmLink('recovery', token), RESET_PASSWORD_EXPIRES_SECONDS, request),
      // The owner who just chose a new password may sign in with it at once.
      onPasswordReset: ({ user }) => lockout.clear(user.email),
      // Only the mailbox learns that the address is taken; the answer is the stand-in's above.
      onExistingUserSignUp: ({ user }, request) =>
        mailer.send(
          composeMail(user.email, {
            kind: 'account-exists',
            appName: config.appName,
            locale: localeOf(request),
            link: `${config.appUrl}/login`,
          }),
        ),
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: VERIFY_EMAIL_EXPIRES_SECONDS,
      // The same token confirms a new account and a new address; its claims tell them apart.
      sendVerificationEmail: ({ user, token }, request) =>
        isEmailChangeToken(token)
          ? sendLink('change-email', user.email, confirmLink('email_change', token), VERIFY_EMAIL_EXPIRES_SECONDS, request)
          : sendLink('verify-email', user.email, confirmLink('signup', token), VERIFY_EMAIL_EXPIRES_SECONDS, request),
    },
    user: {
      // A new address is used once its owner opens the link sent to it (PRODUCT §3 /account).
      changeEmail: { enabled: true },
      // Deleting an account takes its password (checked in the before hook below).
      deleteUser: { enabled: true },
    },
    databaseHooks: {
      user: {
        // Every way an account is made: a sign-up's name was checked before (400 when unreadable);
        // a name that comes from elsewhere (an identity provider) is made readable here.
        create: {
          before: (data) =>
            Promise.resolve({
              data: { ...data, name: readableName(String(data.name ?? '')) ?? String(data.email).split('@')[0] },
            }),
        },
        // The role is granted on every update that marks an email verified: the link, the code
        // sign-in of an unconfirmed account, an email change. better-auth's
        // `afterEmailVerification` misses the code sign-in (and the code password reset).
        update: {
          before: (data, ctx) => {
            if (data.emailVerified === true && ctx) verifyingUpdates.add(ctx)
            if (typeof data.name !== 'string') return Promise.resolve()
            // An unreadable new name from elsewhere leaves the name as it was.
            const { name, ...rest } = data
            const readable = readableName(name)
            return Promise.resolve({ data: readable ? { ...rest, name: readable } : rest })
          },
          after: async (updated, ctx) => {
            if (!ctx || !verifyingUpdates.delete(ctx) || !updated.emailVerified) return
            const role = typeof updated.role === 'string' ? updated.role : null
            await grantAdminOnVerification(database.db, logger, config.adminEmails, { ...updated, role })
          },
        },
      },
    },
    hooks: {
      // What better-auth does not check itself, before its endpoint runs.
      before: createAuthMiddleware(async (ctx) => {
        // A JSON body that is not an object is refused before (apiBodyGuard); safe on its own too.
        const sent: unknown = ctx.body
        const body = (typeof sent === 'object' && sent !== null && !Array.isArray(sent) ? sent : {}) as Record<string, unknown>
        const emailKind = emailRequests[ctx.path]?.(body)
        // Only for an address an email could go to: better-auth refuses the others (400).
        if (emailKind && emailFormSchema.safeParse(body).success && typeof body.email === 'string' && ctx.request) {
          if (!(await mailThrottle.allow(emailKind, body.email))) {
            const seconds = Math.max(1, Math.ceil((await mailThrottle.retryAfterMs(emailKind, body.email)) / 1000))
            throw new APIError(
              'TOO_MANY_REQUESTS',
              {
                code: 'EMAIL_RECENTLY_SENT',
                message: `An email was sent to this address less than a minute ago. Wait ${seconds} s before asking again.`,
              },
              { 'Retry-After': String(seconds) },
            )
          }
          claimed.add(ctx.request)
        }
        // The owner's own browser is not held back by failures strangers caused (known-device.ts).
        if (
          ctx.path === '/sign-in/email' &&
          typeof body.email === 'string' &&
          !devices.knows(ctx.getCookie(ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE).name), body.email)
        ) {
          // The same answer for every email, with or without an account.
          const seconds = await lockout.lockedFor(body.email)
          if (seconds > 0) {
            throw new APIError(
              'TOO_MANY_REQUESTS',
              {
                code: 'SIGN_IN_LOCKED',
                message:
                  'Too many failed sign-in attempts for this email. Try again later, sign in with a code, or reset your password.',
              },
              { 'Retry-After': String(seconds) },
            )
          }
        }
        if (ctx.path === '/delete-user' && (typeof body.password !== 'string' || body.password === '')) {
          throw new APIError('BAD_REQUEST', {
            code: 'PASSWORD_REQUIRED',
            message: 'Enter your password to delete the account.',
          })
        }
        if (profilePaths.has(ctx.path)) checkProfile(body)
        // Every way of choosing a password refuses a weak one.
        const password = body.password ?? body.newPassword
        if (passwordPaths.has(ctx.path) && typeof password === 'string') {
          const session = ctx.context.session as { user?: { email?: string; name?: string } } | null
          if (isWeakPassword(password, [body.email, body.name, session?.user?.email, session?.user?.name])) {
            throw new APIError('BAD_REQUEST', {
              code: 'PASSWORD_TOO_WEAK',
              message: 'This password is too common or too easy to guess.',
            })
          }
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        const returned = ctx.context.returned
        const deviceCookie = ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE, { maxAge: SESSION_LIFETIME_SECONDS })
        // Signed in (a second factor, when there is one, passed): this browser knows the account.
        const signedIn = ctx.context.newSession?.user.email
        if (signedIn && !isAPIError(returned) && !(isRecord(returned) && 'twoFactorRedirect' in returned)) {
          const known = devices.remember(ctx.getCookie(deviceCookie.name), signedIn)
          ctx.setCookie(deviceCookie.name, known, deviceCookie.attributes)
        }
        const { email } = (ctx.body ?? {}) as Record<string, unknown>
        if (typeof email !== 'string') return
        // An emailed code its wrong attempts have used up is replaced by the next request, at once:
        // whoever burnt it does not also hold the owner's next email back for the throttle window.
        if (ctx.path === '/sign-in/email-otp' && isAPIError(returned) && burntCodeErrors.has(String(returned.body?.code))) {
          const record = await ctx.context.internalAdapter.findVerificationValue(`sign-in-otp-${email.toLowerCase()}`)
          const attempts = Number(record?.value.split(':').at(-1) ?? CODE_ATTEMPTS)
          if (attempts >= CODE_ATTEMPTS) await mailThrottle.release?.('sign-in-code', email)
        }
        if (ctx.path !== '/sign-in/email') return
        const owner = devices.knows(ctx.getCookie(deviceCookie.name), email)
        // The right password clears the count (even when a second factor is still to come) — but
        // not on the owner's known browser, which is past the lock anyway: there, clearing it
        // would give a stranger who is guessing five more tries.
        if (!isAPIError(returned)) {
          if (!owner) await lockout.clear(email)
        } else if (
          returned.body?.code === 'INVALID_EMAIL_OR_PASSWORD' &&
          !owner &&
          (await lockout.recordFailure(email))
        ) {
          logger.warn(
            { email, failures: SIGN_IN_LOCKOUT.maxFailures, lockSeconds: SIGN_IN_LOCKOUT.lockSeconds },
            'password sign-in locked for this email after repeated failures',
          )
        }
      }),
    },
    rateLimit: {
      // In every environment, not only in production.
      enabled: true,
      storage: redis ? 'secondary-storage' : 'memory',
      window: 60,
      max: Math.ceil(100 * config.authRateLimitScale),
      customRules: Object.fromEntries(
        Object.entries(rateLimits).map(([path, max]) => [
          path,
          { window: 60, max: Math.ceil(max * config.authRateLimitScale) },
        ]),
      ),
    },
    session: {
      expiresIn: SESSION_LIFETIME_SECONDS,
      updateAge: 24 * 60 * 60,
      // Redis is a cache in front of the database, which stays the record of every session.
      storeSessionInDatabase: true,
      // Session lookups are served from a signed cookie for at most this long: a revoked session
      // can still be used on an instance for up to SESSION_CACHE_SECONDS (60 s by default, the
      // documented bound).
      cookieCache: { enabled: true, maxAge: config.sessionCacheSeconds },
    },
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: config.appUrl.startsWith('https:'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // Check callbackURL/redirectTo against APP_URL in every environment: better-auth skips it
      // when NODE_ENV=test, so the tests would not run what production runs.
      disableOriginCheck: false,
    },
    plugins: [
      emailOTP({
        otpLength: 6,
        expiresIn: SIGN_IN_CODE_EXPIRES_SECONDS,
        // Asking again re-sends the same code (stored encrypted): a second request within the
        // mail throttle's 60 s would otherwise replace the code the user already received.
        storeOTP: 'encrypted',
        resendStrategy: 'reuse',
        // Codes sign in existing accounts only: creating one needs a name and a password.
        disableSignUp: true,
        sendVerificationOTP: async ({ email, otp, type }, ctx) => {
          if (type !== 'sign-in') return
          await sendMail(
            composeMail(email, {
              kind: 'sign-in-code',
              appName: config.appName,
              locale: localeOf(ctx?.request),
              code: otp,
              expiresInMinutes: minutes(SIGN_IN_CODE_EXPIRES_SECONDS),
            }),
            ctx?.request,
          )
        },
      }),
      twoFactorOnEverySignIn(config.appName),
      adminPlugin,
      openApiPlugin,
    ],
  })
}

export type Auth = Awaited<ReturnType<typeof createAuth>>

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null
