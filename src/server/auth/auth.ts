import { redisStorage } from '@better-auth/redis-storage'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@/shared/auth'
import type { Config } from '@/server/config'
import type { Database } from '@/server/db/client'
import * as schema from '@/server/db/schema'
import type { MailThrottle, Mailer } from '@/server/mail/index'
import { authLogOptions } from '@/server/logger'
import { authEmails } from './emails'
import { authHooks, ownDeletionHooks, userDatabaseHooks } from './hooks'
import { knownDevices } from './known-device'
import { RESET_PASSWORD_EXPIRES_SECONDS, SESSION_LIFETIME_SECONDS, VERIFY_EMAIL_EXPIRES_SECONDS } from './lifetimes'
import { createMemorySignInLockout, createRedisSignInLockout } from './lockout'
import { hashPassword, verifyPassword } from './password'
import { authPlugins } from './plugins'
import { signInProviders } from './providers'
import { authRateLimit } from './rate-limits'
import { loadAuthSecret } from './secret'
import { signInMethodHooks } from './sign-in-methods'

/** better-auth's cookies are `lingua.session_token`, `lingua.session_data`, … (`__Secure-` under https). */
export const COOKIE_PREFIX = 'lingua'

/** The header the app sets to the client's address (see `clientAddress` in app.ts). */
export const CLIENT_IP_HEADER = 'x-lingua-client-ip'

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
  const lockout = redis
    ? createRedisSignInLockout(redis, `${config.redisKeyPrefix}sign-in-failures:`)
    : createMemorySignInLockout()
  const emails = authEmails({ config, mailer, mailThrottle })
  const signInMethods = signInMethodHooks({ config, db: database.db, mailer, logger })
  const hooks = authHooks({
    devices: knownDevices(secret),
    lockout,
    mailThrottle,
    claimThrottleSlot: emails.claimThrottleSlot,
    signInMethods,
    logger,
  })
  const plugins = authPlugins({
    appName: config.appName,
    appUrl: config.appUrl,
    sendSignInCode: emails.sendSignInCode,
    onPasskeySignIn: (credentialId) => signInMethods.touchPasskey(credentialId),
  })
  const providers = signInProviders(config.providers)

  return betterAuth({
    // better-auth's own messages go to the app's log, through its redaction (a failed query it
    // prints holds the token it looked up); errors other than its API answers are thrown to the
    // app's error handler, which logs them redacted and answers 503 when the database is down.
    logger: authLogOptions(logger),
    // A provider sign-in that fails comes back to the sign-in page with `?error=<code>`, which it
    // explains (a page that asked for another landing, e.g. linking on /account, says so).
    onAPIError: { throw: true, errorURL: `${config.appUrl}/login` },
    // Also closed: the emailed-code password reset's deprecated path, which prints a plain-text
    // warning to stderr when called (the app resets passwords by link).
    disabledPaths: [...plugins.closedPaths, '/forget-password/email-otp'],
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
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
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
      sendResetPassword: emails.sendResetPassword,
      // The owner who just chose a new password may sign in with it at once.
      onPasswordReset: ({ user }) => lockout.clear(user.email),
      onExistingUserSignUp: emails.sendAccountExists,
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: VERIFY_EMAIL_EXPIRES_SECONDS,
      sendVerificationEmail: emails.sendVerificationEmail,
    },
    socialProviders: providers.socialProviders,
    account: {
      accountLinking: {
        enabled: true,
        // No provider is trusted by name: a sign-in links to an existing account only when the
        // provider says it verified the email (and the account's own email is confirmed).
        trustedProviders: [],
        requireLocalEmailVerified: true,
        // The last way to sign in is kept by the app's own rule, which counts passkeys too
        // (sign-in-methods.ts); better-auth's counts provider accounts only.
        allowUnlinkingAll: true,
      },
    },
    user: {
      // A new address is used once its owner opens the link sent to it (docs/product.md §3, /account).
      changeEmail: { enabled: true },
      // Deleting an account takes its password (checked in the before hook, hooks.ts); the last
      // administrator cannot (409), and every deletion is audited.
      deleteUser: { enabled: true, ...ownDeletionHooks(database) },
    },
    databaseHooks: userDatabaseHooks({ config, database, signInMethods, logger }),
    hooks,
    rateLimit: authRateLimit(config, redis !== undefined),
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
      plugins.emailOtp,
      plugins.twoFactor,
      plugins.passkey,
      plugins.admin,
      plugins.openApi,
      ...providers.plugins,
    ],
  })
}

export type Auth = Awaited<ReturnType<typeof createAuth>>
