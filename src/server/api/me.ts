import { and, eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { z } from 'zod/mini'
import type { SignInMethods } from '@/shared/sign-in-methods'
import type { Auth } from '@/server/auth/auth'
import { listSignInMethods } from '@/server/auth/sign-in-methods'
import type { Config } from '@/server/config'
import type { Db } from '@/server/db/client'
import { session } from '@/server/db/schema'
import { pathParams } from '@/server/http/body'
import type { AppEnv, SessionUser } from '@/server/http/context'
import { ApiError } from '@/server/http/errors'
import { requireUser, signedInUser } from '@/server/auth/session'
import { describe, json } from '@/server/openapi/describe'
import { answer, count, isoDateTime } from '@/server/openapi/schemas'

const sessionUserSchema = answer<{ user: SessionUser }>('Me', 'The signed-in user.')(
  z.object({
    user: z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      role: z.enum(['user', 'admin']),
      emailVerified: z.boolean(),
    }),
  }),
)

const signInMethodsSchema = answer<SignInMethods>(
  'SignInMethods',
  'The ways the account signs in. The last one cannot be removed (409); the emailed code is open to every confirmed account and is not listed.',
)(
  z.object({
    password: z.boolean(),
    providers: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        linked: z.array(z.object({ id: z.string(), accountId: z.string(), linkedAt: isoDateTime })),
      }),
    ),
    passkeys: z.array(
      z.object({
        id: z.string(),
        name: z.nullable(z.string()),
        createdAt: z.nullable(isoDateTime),
        lastUsedAt: z.nullable(isoDateTime),
        deviceType: z.string(),
        backedUp: z.boolean(),
      }),
    ),
    count: count,
  }),
)

const describeMe = describe({
  operationId: 'getMe',
  summary: 'The signed-in user',
  tags: ['Account'],
  access: 'user',
  responses: { 200: json(sessionUserSchema, 'Who is signed in.') },
  errors: [503],
})

const describeRevokeSession = describe({
  operationId: 'revokeMySession',
  summary: 'Sign out one of your sessions',
  description:
    'By the `id` that `GET /api/auth/list-sessions` gives: the page never sees session tokens. Ends the session on every instance (within SESSION_CACHE_SECONDS where it is cached). 404 for an id that is not one of your sessions.',
  tags: ['Account'],
  access: 'user',
  responses: { 204: { description: 'Signed out.' } },
  errors: [404, 503],
})

const describeSignInMethods = describe({
  operationId: 'getMySignInMethods',
  summary: 'Your ways of signing in',
  description:
    'Password, each configured provider with the identities linked to you, and your passkeys (created, last used). Change them with better-auth’s endpoints: `POST /api/auth/link-social`, `/api/auth/unlink-account`, `/api/auth/passkey/*`; removing the last one answers 409.',
  tags: ['Account'],
  access: 'user',
  responses: { 200: json(signInMethodsSchema, 'The sign-in methods.') },
  errors: [503],
})

const sessionNotFound = () => new ApiError('not_found', 'Session not found.')

/** better-auth's session ids: 32 letters and digits. */
const sessionIdParam = pathParams(z.object({ id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)) }), sessionNotFound)

/** `/api/me`: the signed-in user's own data (the learning profile joins it with the levels). */
export function meRoutes(db: Db, auth: Auth, providers: Config['providers']) {
  return new Hono<AppEnv>()
    .get('/', describeMe, requireUser, (c) => {
      return c.json({ user: signedInUser(c) })
    })
    .get('/sign-in-methods', describeSignInMethods, requireUser, async (c) => {
      return c.json(await listSignInMethods(db, providers, signedInUser(c).id))
    })
    .delete('/sessions/:id', describeRevokeSession, requireUser, sessionIdParam, async (c) => {
      const [found] = await db
        .select({ token: session.token })
        .from(session)
        .where(and(eq(session.id, c.req.valid('param').id), eq(session.userId, signedInUser(c).id)))
      if (!found) throw sessionNotFound()
      // better-auth's own revocation: the database row and its copy in Redis go together.
      await auth.api.revokeSession({ body: { token: found.token }, headers: c.req.raw.headers })
      return c.body(null, 204)
    })
}
