import { Hono } from 'hono'
import type { AppEnv } from '../http/context.js'
import { requireUser, signedInUser } from '../http/session.js'
import { describe, json } from '../openapi/describe.js'
import { sessionUserSchema } from '../openapi/schemas.js'

const describeMe = describe({
  operationId: 'getMe',
  summary: 'The signed-in user',
  tags: ['Account'],
  access: 'user',
  responses: { 200: json(sessionUserSchema, 'Who is signed in.') },
  errors: [503],
})

/** `/api/me`: the signed-in user's own data (the learning profile joins it with the levels). */
export function meRoutes() {
  return new Hono<AppEnv>().get('/', describeMe, requireUser, (c) => {
    c.header('Cache-Control', 'no-store')
    return c.json({ user: signedInUser(c) })
  })
}
