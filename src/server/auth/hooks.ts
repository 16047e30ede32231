import type { BetterAuthOptions } from 'better-auth'
import { sql } from 'drizzle-orm'
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api'
import type { Logger } from 'pino'
import { NAME_MAX_LENGTH, nameProblem, readableName } from '@/shared/auth'
import { nameSchema } from '@/shared/auth-schemas'
import type { Config } from '@/server/config'
import type { Database } from '@/server/db/client'
import { ApiError } from '@/server/http/errors'
import { user } from '@/server/db/schema'
import { type LiveEvent, publishEvent } from '@/server/events/bus'
import type { MailThrottle } from '@/server/mail/index'
import { KNOWN_DEVICE_COOKIE, type knownDevices } from './known-device'
import { SESSION_LIFETIME_SECONDS } from './lifetimes'
import { SIGN_IN_LOCKOUT, type SignInLockout } from './lockout'
import { isWeakPassword } from './password-strength'
import { isProviderCallback } from './plugins'
import { type AccountState, prepareOwnDeletion, recordOwnDeletion } from './access'
import { grantAdminOnVerification } from './roles'
import type { signInMethodHooks } from './sign-in-methods'

/** Where a new password is chosen. */
const passwordPaths = new Set(['/sign-up/email', '/reset-password', '/change-password', '/set-password'])

/** Where better-auth takes a name (and would take a picture, which `checkProfile` refuses). */
export const profilePaths = new Set(['/sign-up/email', '/update-user'])
/**
 * Endpoints that replace the caller's own session with a new one (better-auth 1.7). While their
 * answer is on its way, the browser still holds the old cookie, and any read of the session it
 * makes is refused and expires the cookies — the new one included: no live event may prompt one.
 */
const replacingPaths = new Set([
  '/change-password',
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/verify-totp',
  '/two-factor/verify-otp',
])

/** Names are 1–100 characters; pictures are not set here. */
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
  // One way to set a picture: uploaded (PUT /api/me/avatar), re-encoded by the server. A link set
  // before uploads existed keeps working until it is replaced or removed there.
  if ('image' in body) {
    throw new APIError('BAD_REQUEST', {
      code: 'INVALID_IMAGE',
      message: 'Upload a picture with PUT /api/me/avatar; it cannot be set here.',
    })
  }
}

/** better-auth's allowed wrong attempts at one emailed code (its default). */
const CODE_ATTEMPTS = 3
/** The answers to a wrong guess at an emailed code; the one that uses the code up is among them. */
const burntCodeErrors = new Set(['INVALID_OTP', 'TOO_MANY_ATTEMPTS'])

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/**
 * What better-auth does not do itself around its endpoints: the email throttle, the sign-in
 * lock-out and known devices, and the checks of passwords, names and avatars.
 */
export function authHooks({ devices, lockout, mailThrottle, claimThrottleSlot, signInMethods, logger }: {
  devices: ReturnType<typeof knownDevices>
  signInMethods: ReturnType<typeof signInMethodHooks>
  lockout: SignInLockout
  mailThrottle: MailThrottle
  /** 429 while the address's email slot is held (`authEmails` in emails.ts). */
  claimThrottleSlot: (path: string, body: Record<string, unknown>, request: Request | undefined) => Promise<void>
  logger: Logger
}) {
  return {
    // What better-auth does not check itself, before its endpoint runs.
    before: createAuthMiddleware(async (ctx) => {
      // A JSON body that is not an object is refused before (apiBodyGuard); safe on its own too.
      const sent: unknown = ctx.body
      const body = (typeof sent === 'object' && sent !== null && !Array.isArray(sent) ? sent : {}) as Record<string, unknown>
      await claimThrottleSlot(ctx.path, body, ctx.request)
      await signInMethods.before(ctx)
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
      await signInMethods.after(ctx)
      // A passkey sign-in is both factors only with user verification: ask the browser for it.
      if (ctx.path === '/passkey/generate-authenticate-options' && isRecord(returned) && !isAPIError(returned)) {
        return ctx.json({ ...returned, userVerification: 'required' })
      }
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
  }
}

/** What happens as better-auth writes a user: names made readable, the admin role granted. */
export function userDatabaseHooks({ config, database, signInMethods, logger }: {
  config: Config
  database: Database
  signInMethods: ReturnType<typeof signInMethodHooks>
  logger: Logger
}) {
  // A user update's before hook sees what it sets, its after hook whom it changed: the endpoint
  // context they share pairs the two.
  const verifyingUpdates = new WeakSet<object>()
  /** After the change committed: a failure to announce it does not fail the change. */
  const announce = (event: LiveEvent) =>
    publishEvent(database.db, event).catch((error: unknown) => logger.error({ err: error }, 'could not announce an account change'))
  return {
    user: {
      // Every way an account is made: a sign-up's name was checked before (400 when unreadable);
      // a name that comes from elsewhere (an identity provider) is made readable here.
      create: {
        before: (data, ctx) => {
          // A provider that has not verified the address makes no account with it: whoever controls
          // that identity need not own the mailbox (docs/security.md, "Provider sign-in").
          if (isProviderCallback(ctx?.path) && data.emailVerified !== true) {
            throw new APIError('FORBIDDEN', {
              code: 'email_not_verified_by_provider',
              message: 'The provider has not verified this email address.',
            })
          }
          return Promise.resolve({
            data: { ...data, name: readableName(String(data.name ?? '')) ?? String(data.email).split('@')[0] },
          })
        },
        // An account made by a provider sign-in arrives verified: the roles apply at once.
        after: async (created) => {
          if (!created.emailVerified) return
          const role = typeof created.role === 'string' ? created.role : null
          await grantAdminOnVerification(database.db, logger, config.adminEmails, { ...created, role })
        },
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
          // Not while the caller's session is being replaced (see `replacingPaths`): its tab tells
          // its other tabs itself once the new cookie is set.
          if (!(ctx && replacingPaths.has(ctx.path))) {
            await announce({ type: 'account', userId: updated.id, data: { reason: 'profile' } })
          }
          if (!ctx || !verifyingUpdates.delete(ctx) || !updated.emailVerified) return
          const role = typeof updated.role === 'string' ? updated.role : null
          await grantAdminOnVerification(database.db, logger, config.adminEmails, { ...updated, role })
        },
      },
    },
    account: {
      create: {
        after: (created, ctx) => signInMethods.onProviderLinked(created, ctx?.request),
      },
    },
    // When each account last signed in and was last active, for the administrators' people table
    // and overview. Written in SQL: drizzle's update would also move the profile's `updated_at`.
    session: {
      create: {
        after: async (created) => {
          await database.db.execute(
            sql`update ${user} set last_sign_in_at = ${created.createdAt}, last_active_at = ${created.createdAt} where ${user.id} = ${created.userId}`,
          )
        },
      },
      // better-auth renews a used session once a day (`updateAge`).
      update: {
        after: async (updated) => {
          const userId: unknown = (updated as { userId?: unknown }).userId
          if (typeof userId !== 'string') return
          await database.db.execute(sql`update ${user} set last_active_at = now() where ${user.id} = ${userId}`)
        },
      },
      // Every way a session ends (signing out, revoked here or elsewhere, a password change,
      // disabled by an administrator): its open streams end, its tabs sign out.
      delete: {
        after: async (deleted, ctx) => {
          // Replaced, not ended: the session making the request, whose answer sets its successor's
          // cookie. Its tab reading the session before that answer lands would be signed out.
          const own = (ctx?.context as { session?: { session?: { id?: string } } } | undefined)?.session?.session?.id
          if (ctx && replacingPaths.has(ctx.path) && own === deleted.id) return
          await announce({ type: 'account', userId: deleted.userId, data: { reason: 'session', sessionId: deleted.id } })
        },
      },
    },
  } satisfies BetterAuthOptions['databaseHooks']
}

/**
 * `user.deleteUser` of better-auth (`POST /api/auth/delete-user`): the same rule as every other way
 * of losing an administrator — the last one who is not disabled keeps the role (409, the message of
 * a demotion) — and the deletion in the audit log once it is done, as the admin API records its own.
 */
export function ownDeletionHooks(database: Database) {
  const deleting = new Map<string, AccountState>()
  return {
    beforeDelete: async (account: { id: string }) => {
      try {
        deleting.set(account.id, await prepareOwnDeletion(database.db, account.id))
      } catch (error) {
        if (error instanceof ApiError && error.code === 'conflict') {
          throw new APIError('CONFLICT', { code: 'LAST_ADMINISTRATOR', message: error.message })
        }
        throw error
      }
    },
    afterDelete: async (account: { id: string }) => {
      const state = deleting.get(account.id)
      deleting.delete(account.id)
      if (state) await recordOwnDeletion(database.db, state)
    },
  }
}
