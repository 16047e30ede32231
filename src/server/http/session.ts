import { eq } from 'drizzle-orm'
import { createMiddleware } from 'hono/factory'
import type { Auth } from '../auth/auth.js'
import type { Db } from '../db/client.js'
import { user } from '../db/schema.js'
import type { AppEnv, SessionUser } from './context.js'
import { ApiError } from './errors.js'

/**
 * Reads the session of the request (better-auth's cookie, served from its signed cache cookie for
 * up to 60 s) and keeps the user in `c.var.user`; `null` for a visitor. Put before the routes that
 * use `requireUser` or `requireAdmin`.
 */
export function readSession(auth: Auth) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const session = await auth.api.getSession({ headers: c.req.raw.headers })
    const user = session?.user
    c.set(
      'user',
      user
        ? {
            id: user.id,
            name: user.name,
            email: user.email,
            role: user.role === 'admin' ? 'admin' : 'user',
            emailVerified: user.emailVerified,
          }
        : null,
    )
    await next()
  })
}

const signInFirst = () => new ApiError('unauthenticated', 'Sign in first.')

/** The signed-in user of a route behind `requireUser`/`requireAdmin`. */
export function signedInUser(c: { var: AppEnv['Variables'] }): SessionUser {
  const { user } = c.var
  if (!user) throw signInFirst()
  return user
}

/** 401 for a visitor. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  signedInUser(c)
  await next()
})

/**
 * 401 for a visitor, 403 for a signed-in user who is not an administrator. The role is read from
 * the database, not from the session's cached copy, which can be 60 s old: a user who has just
 * become admin (verified an ADMIN_EMAILS address) would be refused, and one whose role was just
 * revoked would go on. One primary-key read per administrative request, which are rare. The email
 * is refreshed with it, as the audit log records it.
 */
export function requireAdmin(db: Db) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const cached = signedInUser(c)
    const [current] = await db
      .select({ email: user.email, name: user.name, role: user.role })
      .from(user)
      .where(eq(user.id, cached.id))
    // The account was deleted; its session's cached copy outlived it.
    if (!current) throw signInFirst()
    if (current.role !== 'admin') throw new ApiError('forbidden', 'Administrators only.')
    c.set('user', { ...cached, ...current, role: 'admin' })
    await next()
  })
}
