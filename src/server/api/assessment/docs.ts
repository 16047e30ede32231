import { z } from 'zod/mini'
import { ANSWERS, type AssessmentProgress, type AssessmentResult, type AssessmentState } from '@/shared/can-do'
import { describe, json } from '@/server/openapi/describe'
import { answer, isoDateTime, positiveInt, skill } from '@/server/openapi/schemas'

const tags = ['Self-assessment']

export const skillResults = z.array(z.object({ skill, levelCode: z.nullable(z.string()) }))

export const assessmentResultSchema = answer<AssessmentResult>(
  'AssessmentResult',
  'A finished self-assessment: each skill’s level and the overall level as level codes (null: below the first level, `firstLevelCode`).',
)(
  z.object({
    id: positiveInt,
    startedAt: isoDateTime,
    takenAt: isoDateTime,
    skills: skillResults,
    overall: z.nullable(z.string()),
    firstLevelCode: z.nullable(z.string()),
  }),
)

const assessmentProgressSchema = answer<AssessmentProgress>(
  'AssessmentProgress',
  'A self-assessment being taken: where each skill stands, what is asked now, every answer; with the result once finished.',
)(
  z.object({
    id: positiveInt,
    startedAt: isoDateTime,
    finishedAt: z.nullable(isoDateTime),
    skills: z.array(
      z.object({ skill, finished: z.boolean(), levelId: z.nullable(positiveInt), levelCode: z.nullable(z.string()) }),
    ),
    asking: z.nullable(z.object({ skill, levelId: positiveInt, statementIds: z.array(positiveInt) })),
    answers: z.array(z.object({ statementId: positiveInt, answer: z.enum(ANSWERS), answeredAt: isoDateTime })),
    result: z.nullable(assessmentResultSchema),
  }),
)

const assessmentStateSchema = answer<AssessmentState>(
  'AssessmentState',
  'The self-assessment in progress and the latest result, each null when there is none.',
)(z.object({ inProgress: z.nullable(assessmentProgressSchema), latest: z.nullable(assessmentResultSchema) }))

export const describeState = describe({
  operationId: 'getMyAssessment',
  summary: 'Your self-assessment: the one in progress and the latest result',
  description: 'Each null when there is none. The one in progress is placed by the rule (docs/product.md §10) on the levels and statements as they are now.',
  tags,
  access: 'user',
  responses: { 200: json(assessmentStateSchema, 'The assessment in progress and the latest result.') },
  errors: [503],
})

export const describeStart = describe({
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

export const describeAnswer = describe({
  operationId: 'answerMyAssessment',
  summary: 'Answer a statement',
  description: 'A statement of the skill asked now, at the level asked or a lower one (answering again changes the answer). 400 on `statementId` for a statement that does not exist or is not asked yet; 409 for one of a finished skill, or when no assessment is in progress. The answer says what is asked next, and holds the result once the last skill is finished.',
  tags,
  access: 'user',
  responses: { 200: json(assessmentProgressSchema, 'The assessment after the answer.') },
  errors: [409, 429, 503],
})

export const describeReset = describe({
  operationId: 'resetMyAssessment',
  summary: 'Start again: delete the assessment in progress',
  description: 'Its answers are deleted; finished results stay. 204 also when none was in progress.',
  tags,
  access: 'user',
  responses: { 204: { description: 'Deleted.' } },
  errors: [429, 503],
})
