import { Hono, type MiddlewareHandler } from 'hono'
import { gradeInputSchema, practiceQueueQuerySchema, practiceSettingsInputSchema, undoInputSchema } from '@/shared/practice-schemas'
import { localeOf } from '@/server/auth/emails'
import { MEMORY_MODEL_MIN_REVIEWS } from '@/shared/practice'
import { requireUser, signedInUser } from '@/server/auth/session'
import type { Db } from '@/server/db/client'
import type { InstanceEvents } from '@/server/events/bus'
import { jsonBody, queryParams } from '@/server/http/body'
import { ApiError } from '@/server/http/errors'
import type { AppEnv } from '@/server/http/context'
import { describeGetSettings, describeGrade, describeMemoryModel, describePersonalise, describePutSettings, describeQueue, describeToday, describeUndo } from './docs'
import { gradeCard, undoGrade } from './grades'
import { countedReviews, requestFit } from './memory-model-job'
import { memoryModelState } from './memory-model-state'
import { LevelWordPools } from './choices'
import { deckNotFound, ownsDeck, practiceQueue } from './queue'
import { readPracticeSettings, savePracticeSettings } from './settings'
import { practiceToday } from './today'

/** Writes per learner: a brisk session is a grade every second or two; more is a script. */
export const PRACTICE_WRITES = { points: 120, seconds: 60 }

/**
 * `/api/me/practice` (behind `readSession`): the signed-in person's own practice, nobody else's.
 * `now` is the clock (the server's; tests move it); `limit` counts writes per account; `events`,
 * the instance's, tell when the words kept for the choices change; `fitQueued` tells this
 * instance's worker of learners' jobs that a fit was queued.
 */
export function practiceRoutes(db: Db, limit: MiddlewareHandler<AppEnv>, now: () => Date, events: InstanceEvents, fitQueued: () => void = () => {}) {
  const pools = new LevelWordPools()
  events.add(pools)
  return new Hono<AppEnv>()
    .get('/queue', describeQueue, requireUser, queryParams(practiceQueueQuerySchema), async (c) => {
      const { limit: size, deck } = c.req.valid('query')
      const userId = signedInUser(c).id
      if (deck !== undefined && !(await ownsDeck(db, userId, deck))) throw deckNotFound()
      const queue = await practiceQueue(db, pools, userId, now(), size, deck === undefined ? {} : { deckId: deck })
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
      // The interface language of the save is the daily reminder's (the client sends Accept-Language).
      const settings = await savePracticeSettings(db, signedInUser(c).id, c.req.valid('json'), now(), localeOf(c.req.raw))
      return c.json(settings)
    })
    .get('/memory-model', describeMemoryModel, requireUser, async (c) => c.json(await memoryModelState(db, signedInUser(c).id)))
    .post('/memory-model', describePersonalise, requireUser, limit, async (c) => {
      const userId = signedInUser(c).id
      const reviews = await countedReviews(db, userId, MEMORY_MODEL_MIN_REVIEWS)
      if (reviews < MEMORY_MODEL_MIN_REVIEWS) {
        throw new ApiError('conflict', `A memory model of your own needs at least ${MEMORY_MODEL_MIN_REVIEWS} reviews: you have ${reviews}.`)
      }
      await requestFit(db, userId)
      fitQueued()
      return c.json(await memoryModelState(db, userId), 202)
    })
}
