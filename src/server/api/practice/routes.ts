import { Hono, type MiddlewareHandler } from 'hono'
import { gradeInputSchema, practiceQueueQuerySchema, practiceSettingsInputSchema, undoInputSchema } from '@/shared/practice-schemas'
import { requireUser, signedInUser } from '@/server/auth/session'
import type { Db } from '@/server/db/client'
import { jsonBody, queryParams } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { describeGetSettings, describeGrade, describePutSettings, describeQueue, describeToday, describeUndo } from './docs'
import { gradeCard, undoGrade } from './grades'
import { deckNotFound, ownsDeck, practiceQueue } from './queue'
import { readPracticeSettings, savePracticeSettings } from './settings'
import { practiceToday } from './today'

/** Writes per learner: a brisk session is a grade every second or two; more is a script. */
export const PRACTICE_WRITES = { points: 120, seconds: 60 }

/**
 * `/api/me/practice` (behind `readSession`): the signed-in person's own practice, nobody else's.
 * `now` is the clock (the server's; tests move it); `limit` counts writes per account.
 */
export function practiceRoutes(db: Db, limit: MiddlewareHandler<AppEnv>, now: () => Date) {
  return new Hono<AppEnv>()
    .get('/queue', describeQueue, requireUser, queryParams(practiceQueueQuerySchema), async (c) => {
      const { limit: size, deck } = c.req.valid('query')
      const userId = signedInUser(c).id
      if (deck !== undefined && !(await ownsDeck(db, userId, deck))) throw deckNotFound()
      const queue = await practiceQueue(db, userId, now(), size, deck === undefined ? {} : { deckId: deck })
      return c.json(queue)
    })
    .post('/reviews', describeGrade, requireUser, limit, jsonBody(gradeInputSchema), async (c) => {
      const { result, replayed } = await gradeCard(db, signedInUser(c).id, c.req.valid('json'), now())
      return c.json(result, replayed ? 200 : 201)
    })
    .post('/undo', describeUndo, requireUser, limit, jsonBody(undoInputSchema), async (c) => {
      const result = await undoGrade(db, signedInUser(c).id, c.req.valid('json').clientId, now())
      return c.json(result)
    })
    .get('/today', describeToday, requireUser, async (c) => {
      const today = await practiceToday(db, signedInUser(c).id, now())
      return c.json(today)
    })
    .get('/settings', describeGetSettings, requireUser, async (c) => {
      const settings = await readPracticeSettings(db, signedInUser(c).id)
      return c.json(settings)
    })
    .put('/settings', describePutSettings, requireUser, limit, jsonBody(practiceSettingsInputSchema), async (c) => {
      const settings = await savePracticeSettings(db, signedInUser(c).id, c.req.valid('json'), now())
      return c.json(settings)
    })
}
