import { Hono } from 'hono'
import { requireUser, signedInUser } from '@/server/auth/session'
import type { Db } from '@/server/db/client'
import type { AppEnv } from '@/server/http/context'
import { describeProgress } from './docs'
import { learnerProgress } from './store'

/** `/api/me/progress` (behind `readSession`): the signed-in person's own progress; `now` is the clock (tests move it). */
export function progressRoutes(db: Db, now: () => Date) {
  return new Hono<AppEnv>().get('/', describeProgress, requireUser, async (c) => {
    const progress = await learnerProgress(db, signedInUser(c).id, now())
    return c.json(progress)
  })
}
