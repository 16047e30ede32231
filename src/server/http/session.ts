import { createMiddleware } from 'hono/factory'
import type { Auth } from '../auth/auth.js'
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

/** The signed-in user of a route behind `requireUser`/`requireAdmin`. */
export function signedInUser(c: { var: AppEnv['Variables'] }): SessionUser {
  const { user } = c.var
  if (!user) throw new ApiError('unauthenticated', 'Sign in first.')
  return user
}

/** 401 for a visitor. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  signedInUser(c)
  await next()
})

/** 401 for a visitor, 403 for a signed-in user who is not an administrator. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (signedInUser(c).role !== 'admin') throw new ApiError('forbidden', 'Administrators only.')
  await next()
})
