import { z } from 'zod/mini'
import { FORECAST_DAYS, PROGRESS_REVIEW_DAYS, type Progress, RETENTION_DAYS } from '@/shared/progress'
import { describe, json } from '@/server/openapi/describe'
import { answer, count, isoDate } from '@/server/openapi/schemas'

const daySchema = z.object({ date: isoDate, count })

const progressSchema = answer<Progress>(
  'Progress',
  "The learner's progress in their time zone: reviews a day, true retention, the forecast and their cards by state.",
)(
  z.object({
    day: isoDate,
    timeZone: z.string(),
    reviews: z.array(daySchema),
    retention: z.object({ reviews: count, passed: count, rate: z.nullable(z.number().check(z.minimum(0), z.maximum(1))) }),
    forecast: z.array(daySchema),
    states: z.object({ new: count, learning: count, review: count, relearning: count, suspended: count }),
  }),
)

export const describeProgress = describe({
  operationId: 'getProgress',
  summary: 'Your progress',
  description: `In the person's time zone: \`reviews\`, the grades counted (not undone) on each of the last ${PROGRESS_REVIEW_DAYS} days, oldest first, today last (each on the date it was given); \`retention\`, over the last ${RETENTION_DAYS} days, the reviews of cards in review state and how many of them were not answered Again (\`rate\`, null with none); \`forecast\`, the cards due on each of the next ${FORECAST_DAYS} days, today first, cards overdue counted on today (suspended cards never); \`states\`, the person's cards by state: \`new\` is their decks' cards never answered and the words of their current level not started yet, a suspended card counts only as \`suspended\`. Reading writes nothing.`,
  tags: ['Practice'],
  access: 'user',
  responses: { 200: json(progressSchema, 'The progress.') },
  errors: [503],
})
