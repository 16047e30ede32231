import { z } from 'zod/mini'
import {
  DAILY_GOAL_MAX,
  DESIRED_RETENTION_MAX,
  DESIRED_RETENTION_MIN,
  NEW_WORDS_PER_DAY_MAX,
  QUEUE_SIZE_DEFAULT,
  QUEUE_SIZE_MAX,
  grades,
  practiceWays,
} from './practice'
import { isTimeZone } from './practice-days'
import { positiveIntParam, rowNumber } from './query'
import { INT32_MAX } from './query'

/** `GET /api/me/practice/queue?limit=N`: how many cards (more to practise offline). */
export const practiceQueueQuerySchema = z.object({
  limit: z._default(positiveIntParam(QUEUE_SIZE_MAX), QUEUE_SIZE_DEFAULT),
  /** One of the learner's decks, practised on its own (its due and new cards only). */
  deck: z.optional(positiveIntParam(INT32_MAX)),
})

/**
 * `POST /api/me/practice/reviews`: one grade. `clientId` is made by the client once per answer
 * (a UUID): sent again, it answers the first result and counts once. `version` is the card's as
 * read (0 for a new word). `reviewedAt`: when the learner answered, by the client's clock.
 */
export const gradeInputSchema = z.object({
  clientId: z.uuid(),
  wordId: rowNumber(),
  grade: z.literal(grades),
  version: z.number().check(z.int(), z.minimum(0), z.maximum(INT32_MAX)),
  reviewedAt: z.optional(z.iso.datetime({ offset: true })),
})
export type GradeInput = z.output<typeof gradeInputSchema>

/** `POST /api/me/practice/undo`: the grade to undo, which must be the person's latest. */
export const undoInputSchema = z.object({ clientId: z.uuid() })

const timeZone = z.string().check(
  z.minLength(1),
  z.maxLength(64),
  z.refine(isTimeZone, { message: 'Must be an IANA time zone, e.g. Europe/Berlin.' }),
)

/** `PUT /api/me/practice/settings`. */
export const practiceSettingsInputSchema = z.object({
  newWordsPerDay: z.number().check(z.int(), z.minimum(0), z.maximum(NEW_WORDS_PER_DAY_MAX)),
  dailyGoal: z.number().check(z.int(), z.minimum(1), z.maximum(DAILY_GOAL_MAX)),
  timeZone,
  // Those left out keep their saved values.
  ways: z.optional(
    z.array(z.enum(practiceWays)).check(
      z.minLength(1, 'Choose at least one way to practise.'),
      z.refine((ways) => new Set(ways).size === ways.length, { message: 'Each way once.' }),
    ),
  ),
  reminderEnabled: z.optional(z.boolean()),
  reminderHour: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(23))),
  desiredRetention: z.optional(z.number().check(z.minimum(DESIRED_RETENTION_MIN), z.maximum(DESIRED_RETENTION_MAX))),
})
export type PracticeSettingsInput = z.output<typeof practiceSettingsInputSchema>
