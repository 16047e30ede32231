import { Hono } from 'hono'
import type { AppEnv } from '../http/context.js'
import { requireUser, signedInUser } from '../http/session.js'

/** `/api/me`: the signed-in user's own data (the learning profile joins it with the levels). */
export function meRoutes() {
  return new Hono<AppEnv>().get('/', requireUser, (c) => {
    c.header('Cache-Control', 'no-store')
    return c.json({ user: signedInUser(c) })
  })
}
