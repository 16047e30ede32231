import { and, eq } from 'drizzle-orm'
import { Hono, type MiddlewareHandler } from 'hono'
import type { Logger } from 'pino'
import { z } from 'zod/mini'
import { deleteConfirmationSchema, peopleQuerySchema, roleChangeSchema, sessionIdSchema, userIdSchema } from '@/shared/people-schemas'
import {
  type AccountState,
  type Actor,
  accountNotFound,
  accountState,
  deleteAccount,
  recordAccountAction,
  setDisabled,
  setRole,
} from '@/server/auth/access'
import type { Auth } from '@/server/auth/auth'
import type { Config } from '@/server/config'
import type { Db } from '@/server/db/client'
import { session } from '@/server/db/schema'
import { jsonBody, pathParams, queryParams } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { ApiError } from '@/server/http/errors'
import { requireAdmin, signedInUser } from '@/server/auth/session'
import { type AccessChange, type MailThrottle, type Mailer, composeMail } from '@/server/mail/index'
import {
  describeDelete,
  describeDisable,
  describeEnable,
  describeGetPerson,
  describeListPeople,
  describeOverview,
  describeResend,
  describeRevokeSession,
  describeSetRole,
  describeSignOut,
} from './docs'
import { overviewCache } from './overview'
import { findPerson, listPeople } from './people'

const userIdParam = pathParams(z.object({ id: userIdSchema }), accountNotFound)
const sessionNotFound = () => new ApiError('not_found', 'Session not found.')
const sessionParams = pathParams(z.object({ id: userIdSchema, sessionId: sessionIdSchema }), sessionNotFound)

/**
 * `/api/admin`: the administrators' view of people — the overview, the people table, one person —
 * and the actions on roles and access. Each action goes through auth/access.ts (the rules, the
 * audit log, the event that ends cached sessions on every instance) and mails the person it
 * affects. better-auth's own admin endpoints stay closed (plugins.ts).
 */
export function adminRoutes(deps: {
  config: Config
  db: Db
  auth: Auth
  mailer: Mailer
  mailThrottle: MailThrottle
  logger: Logger
  session: MiddlewareHandler<AppEnv>
}) {
  const { config, db, auth, mailer, mailThrottle, logger } = deps
  const overview = overviewCache(db)
  const actorOf = (c: { var: AppEnv['Variables'] }): Actor => {
    const { id, email } = signedInUser(c)
    return { id, email }
  }

  /**
   * Nobody ends their own sessions here, as nobody demotes, disables or deletes themselves here
   * (docs/product.md §2): one's own sessions are ended on the account page (`/api/me/sessions`,
   * better-auth's sign-out), which does not sign out the tab making the request unasked.
   */
  const notOneself = (c: { var: AppEnv['Variables'] }, target: AccountState) => {
    if (signedInUser(c).id === target.id) {
      throw new ApiError('forbidden', 'You cannot end your own sessions here: use your account page.')
    }
  }

  /** Ends every session of the account, in the database and in Redis (better-auth's own way). */
  const endSessions = async (userId: string) => {
    const { internalAdapter } = await auth.$context
    await internalAdapter.deleteUserSessions(userId)
  }

  /**
   * Tells the person what changed. The account's own language is not kept: English. A failure to
   * mail is logged; the change stands.
   */
  const notify = async (target: AccountState, change: AccessChange) => {
    const link = change === 'deleted' ? config.appUrl : `${config.appUrl}/login`
    const mail = composeMail(target.email, { kind: 'account-access-changed', appName: config.appName, locale: 'en', link, change })
    await mailer.send(mail, { claimed: true }).catch((error: unknown) => {
      logger.error({ err: error, userId: target.id, change }, 'could not mail the access change')
    })
  }

  /** After a change: the figures are computed again, the person is answered as they are now. */
  const changed = async (id: string) => {
    overview.invalidate()
    return findPerson(db, config.providers, id)
  }

  return new Hono<AppEnv>()
    .use('*', deps.session, requireAdmin(db))
    .get('/overview', describeOverview, async (c) => {
      return c.json(await overview.get())
    })
    .get('/users', describeListPeople, queryParams(peopleQuerySchema), async (c) => {
      return c.json(await listPeople(db, c.req.valid('query')))
    })
    .get('/users/:id', describeGetPerson, userIdParam, async (c) => {
      return c.json(await findPerson(db, config.providers, c.req.valid('param').id))
    })
    .put('/users/:id/role', describeSetRole, userIdParam, jsonBody(roleChangeSchema), async (c) => {
      const { role } = c.req.valid('json')
      const result = await setRole(db, actorOf(c), c.req.valid('param').id, role)
      if (result.changed) await notify(result.account, role === 'admin' ? 'admin-granted' : 'admin-revoked')
      return c.json(await changed(result.account.id))
    })
    .post('/users/:id/disable', describeDisable, userIdParam, async (c) => {
      const result = await setDisabled(db, actorOf(c), c.req.valid('param').id, true)
      // After the commit: from then on no new session can be made, and those there are end now.
      await endSessions(result.account.id)
      if (result.changed) await notify(result.account, 'disabled')
      return c.json(await changed(result.account.id))
    })
    .post('/users/:id/enable', describeEnable, userIdParam, async (c) => {
      const result = await setDisabled(db, actorOf(c), c.req.valid('param').id, false)
      if (result.changed) await notify(result.account, 'enabled')
      return c.json(await changed(result.account.id))
    })
    .post('/users/:id/sign-out', describeSignOut, userIdParam, async (c) => {
      const target = await accountState(db, c.req.valid('param').id)
      notOneself(c, target)
      await endSessions(target.id)
      await recordAccountAction(db, actorOf(c), 'user.sign-out', target)
      await notify(target, 'signed-out')
      overview.invalidate()
      return c.body(null, 204)
    })
    .delete('/users/:id/sessions/:sessionId', describeRevokeSession, sessionParams, async (c) => {
      const { id, sessionId } = c.req.valid('param')
      const target = await accountState(db, id)
      notOneself(c, target)
      const [found] = await db
        .select({ token: session.token })
        .from(session)
        .where(and(eq(session.id, sessionId), eq(session.userId, target.id)))
      if (!found) throw sessionNotFound()
      const { internalAdapter } = await auth.$context
      await internalAdapter.deleteSession(found.token)
      await recordAccountAction(db, actorOf(c), 'user.session-revoke', target, { sessionId })
      await notify(target, 'session-revoked')
      return c.body(null, 204)
    })
    .post('/users/:id/resend-confirmation', describeResend, userIdParam, async (c) => {
      const target = await accountState(db, c.req.valid('param').id)
      if (target.emailVerified) throw new ApiError('conflict', 'This email is already confirmed.')
      const waitMs = await mailThrottle.retryAfterMs('verify-email', target.email)
      if (waitMs > 0) {
        const seconds = Math.max(1, Math.ceil(waitMs / 1000))
        throw new ApiError(
          'email_recently_sent',
          `An email was sent to this address moments ago. Wait ${seconds} s before asking again.`,
          undefined,
          { 'Retry-After': String(seconds) },
        )
      }
      // better-auth makes the link and sends it through the app's mailer (auth/emails.ts).
      await auth.api.sendVerificationEmail({ body: { email: target.email }, headers: new Headers() })
      await recordAccountAction(db, actorOf(c), 'user.confirmation-resend', target)
      return c.body(null, 204)
    })
    .delete('/users/:id', describeDelete, userIdParam, jsonBody(deleteConfirmationSchema), async (c) => {
      const target = await deleteAccount(db, actorOf(c), c.req.valid('param').id, c.req.valid('json').email)
      // The database's sessions went with the account; their copies in Redis go now.
      await endSessions(target.id)
      await notify(target, 'deleted')
      overview.invalidate()
      return c.body(null, 204)
    })
}
