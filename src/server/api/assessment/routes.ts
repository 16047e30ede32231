import { Hono, type MiddlewareHandler } from 'hono'
import { answerInputSchema } from '@/shared/can-do-schemas'
import type { Db } from '@/server/db/client'
import { jsonBody } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { requireUser, signedInUser } from '@/server/auth/session'
import { describe, json } from '@/server/openapi/describe'
import { assessmentProgressSchema, assessmentStateSchema } from '@/server/openapi/schemas'
import { answerStatement, assessmentState, resetAssessment, startAssessment } from './store'

/** Writes of one's own assessment per account: every statement of five skills, and some going back. */
export const ASSESSMENT_WRITES = { points: 600, seconds: 600 }

const tags = ['Self-assessment']

const describeState = describe({
  operationId: 'getMyAssessment',
  summary: 'Your self-assessment: the one in progress and the latest result',
  description: 'Each null when there is none. The one in progress is placed by the rule (docs/product.md §10) on the levels and statements as they are now.',
  tags,
  access: 'user',
  responses: { 200: json(assessmentStateSchema, 'The assessment in progress and the latest result.') },
  errors: [503],
})

const describeStart = describe({
  operationId: 'startMyAssessment',
  summary: 'Start the self-assessment',
  description: 'A new one (201), or the one in progress with its answers (200): leaving mid-way keeps them. 429 past 600 writes of the assessment in 10 minutes.',
  tags,
  access: 'user',
  responses: {
    200: json(assessmentProgressSchema, 'The assessment already in progress.'),
    201: json(assessmentProgressSchema, 'A new assessment.'),
  },
  errors: [429, 503],
})

const describeAnswer = describe({
  operationId: 'answerMyAssessment',
  summary: 'Answer a statement',
  description: 'A statement of the skill asked now, at the level asked or a lower one (answering again changes the answer). 400 on `statementId` for a statement that does not exist or is not asked yet; 409 for one of a finished skill, or when no assessment is in progress. The answer says what is asked next, and holds the result once the last skill is finished.',
  tags,
  access: 'user',
  responses: { 200: json(assessmentProgressSchema, 'The assessment after the answer.') },
  errors: [409, 429, 503],
})

const describeReset = describe({
  operationId: 'resetMyAssessment',
  summary: 'Start again: delete the assessment in progress',
  description: 'Its answers are deleted; finished results stay. 204 also when none was in progress.',
  tags,
  access: 'user',
  responses: { 204: { description: 'Deleted.' } },
  errors: [429, 503],
})

/**
 * `/api/me/assessment` (behind `readSession`): the signed-in learner's own self-assessment, and
 * nobody else's (the account is the session's: no id in the path). `limit` counts writes per account.
 */
export function assessmentRoutes(db: Db, limit: MiddlewareHandler<AppEnv>) {
  return new Hono<AppEnv>()
    .get('/', describeState, requireUser, async (c) => {
      return c.json(await assessmentState(db, signedInUser(c).id))
    })
    .post('/', describeStart, requireUser, limit, async (c) => {
      const { progress, created } = await startAssessment(db, signedInUser(c).id)
      return c.json(progress, created ? 201 : 200)
    })
    .delete('/', describeReset, requireUser, limit, async (c) => {
      await resetAssessment(db, signedInUser(c).id)
      return c.body(null, 204)
    })
    .post('/answers', describeAnswer, requireUser, limit, jsonBody(answerInputSchema), async (c) => {
      const progress = await answerStatement(db, signedInUser(c).id, c.req.valid('json'))
      return c.json(progress)
    })
}
