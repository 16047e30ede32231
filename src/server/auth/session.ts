import { eq } from 'drizzle-orm'
import { isAPIError } from 'better-auth/api'
import { createMiddleware } from 'hono/factory'
import { roleOf } from '@/shared/roles'
import type { Db } from '@/server/db/client'
import { user } from '@/server/db/schema'
import type { AppEnv, SessionUser } from '@/server/http/context'
import { ApiError, defaultMessages } from '@/server/http/errors'
import type { Auth } from './auth'
import { ExpiringLru, type SessionCookieNames, cacheCookieExpiry, readSessionCookies } from './session-memo'

/**
 * At most this many sessions are remembered per process (a few hundred bytes each); beyond that
 * the least recently used one is forgotten, and its next request asks better-auth again.
 */
const SESSION_MEMO_MAX_ENTRIES = 10_000

/** The names of the session token and cache cookies, as better-auth was configured (read once). */
export function sessionCookieNames(auth: Auth): () => Promise<SessionCookieNames> {
  let names: Promise<SessionCookieNames> | undefined
  return () =>
    (names ??= auth.$context.then(({ authCookies }) => ({
      token: authCookies.sessionToken.name,
      cache: authCookies.sessionData.name,
    })))
}

/**
 * The cache cookie's lifetime as better-auth was configured with it (SESSION_CACHE_SECONDS): no
 * memo outlives the bound within which a revoked session is refused.
 */
export const cacheCookieMs = (auth: Auth) => (auth.options.session?.cookieCache?.maxAge ?? 60) * 1000

/**
 * Reads the session of the request (better-auth's cookie, served from its signed cache cookie for
 * up to SESSION_CACHE_SECONDS, 60 s by default) and keeps the user in `c.var.user`; `null` for a
 * visitor. Put before the routes that use `requireUser` or `requireAdmin`.
 *
 * What better-auth answered from a valid cache cookie is remembered for the same two cookie
 * values, until that cookie expires (see session-memo.ts): the same answer without its half
 * millisecond of CPU. A request without a cache cookie, or with one better-auth refused, is
 * answered by better-auth (from the database) every time.
 */
export function readSession(auth: Auth) {
  const memo = new ExpiringLru<SessionUser>({ maxEntries: SESSION_MEMO_MAX_ENTRIES })
  const cookieNames = sessionCookieNames(auth)
  let names: SessionCookieNames | undefined
  const cacheMs = cacheCookieMs(auth)

  /** The user, and the cookies better-auth set while finding them (to pass on to the browser). */
  const sessionUser = async (headers: Headers): Promise<{ user: SessionUser | null; setCookies: string[] }> => {
    names ??= await cookieNames()
    const cookies = readSessionCookies(headers.get('cookie'), names)
    const remembered = cookies && memo.get(cookies.key)
    if (remembered) return { user: remembered, setCookies: [] }

    const { headers: answerHeaders, response: session } = await auth.api
      .getSession({ headers, returnHeaders: true })
      .catch((error: unknown) => {
        throw storeUnavailable(error)
      })
    const setCookies = answerHeaders?.getSetCookie() ?? []
    if (!session) return { user: null, setCookies }
    const found: SessionUser = Object.freeze({
      id: session.user.id,
      name: session.user.name,
      email: session.user.email,
      role: roleOf(session.user.role),
      emailVerified: session.user.emailVerified,
    })
    // better-auth sets a cookie whenever it does not answer from the cache cookie as sent: it
    // expires a forged, stale or foreign one, or issues a new one after reading the database.
    // Only an answer given from the cookie itself, with nothing set, is remembered.
    if (cookies && setCookies.length === 0) {
      const expiresAt = cacheCookieExpiry(cookies.cache, session)
      // Never longer than a cache cookie lives, whatever this one says.
      const bound = Date.now() + cacheMs
      if (expiresAt !== undefined) memo.set(cookies.key, found, Math.min(expiresAt, bound))
    }
    return { user: found, setCookies }
  }

  return createMiddleware<AppEnv>(async (c, next) => {
    const { user: found, setCookies } = await sessionUser(c.req.raw.headers)
    c.set('user', found)
    // As better-auth's own get-session does: a renewed cache cookie (the session is used, so it
    // is renewed), or the removal of a refused one.
    for (const cookie of setCookies) c.header('Set-Cookie', cookie, { append: true })
    await next()
  })
}

/**
 * better-auth answers a failure of what it reads sessions from (the database, Redis) with its own
 * 500 FAILED_TO_GET_SESSION, without the cause (which it logs). Nothing else in a session lookup
 * can fail that way: it means the session cannot be read now, which is a 503 for the client to
 * retry, as any other route answers while the database is unreachable; not a 500.
 */
export function storeUnavailable(error: unknown): unknown {
  if (!isAPIError(error) || error.statusCode < 500) return error
  return new ApiError('service_unavailable', defaultMessages.service_unavailable, undefined, { 'Retry-After': '5' })
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
