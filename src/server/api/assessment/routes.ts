import { Hono, type MiddlewareHandler } from 'hono'
import { answerInputSchema } from '@/shared/can-do-schemas'
import type { Db } from '@/server/db/client'
import type { InstanceEvents } from '@/server/events/bus'
import { jsonBody } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { requireUser, signedInUser } from '@/server/auth/session'
import { describeAnswer, describeReset, describeStart, describeState } from './docs'
import { PlacementData, answerStatement, assessmentState, resetAssessment, startAssessment } from './store'

/** Writes of one's own assessment per account: every statement of five skills, and some going back. */
export const ASSESSMENT_WRITES = { points: 600, seconds: 600 }

/**
 * `/api/me/assessment` (behind `readSession`): the signed-in learner's own self-assessment, and
 * nobody else's (the account is the session's: no id in the path). `limit` counts writes per account;
 * `events`, the instance's, tell when the levels and statements kept for the rule change.
 */
export function assessmentRoutes(db: Db, limit: MiddlewareHandler<AppEnv>, events: InstanceEvents) {
  const placement = new PlacementData()
  events.add(placement)
  return new Hono<AppEnv>()
    .get('/', describeState, requireUser, async (c) => {
      return c.json(await assessmentState(db, placement, signedInUser(c).id))
    })
    .post('/', describeStart, requireUser, limit, async (c) => {
      const { progress, created } = await startAssessment(db, placement, signedInUser(c).id)
      return c.json(progress, created ? 201 : 200)
    })
    .delete('/', describeReset, requireUser, limit, async (c) => {
      await resetAssessment(db, signedInUser(c).id)
      return c.body(null, 204)
    })
    .post('/answers', describeAnswer, requireUser, limit, jsonBody(answerInputSchema), async (c) => {
      const progress = await answerStatement(db, placement, signedInUser(c).id, c.req.valid('json'))
      return c.json(progress)
    })
}
