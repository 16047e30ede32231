import { z } from 'zod/mini'
import {
  CLIENT_TIME_TRUST_MS,
  type CardSchedule,
  type GradeResult,
  type NewWordsSource,
  type NextInterval,
  type PracticeCard,
  type PracticeQueue,
  type PracticeSettings,
  type PracticeToday,
  QUEUE_SIZE_MAX,
  UNDO_WINDOW_MS,
  type UndoResult,
  cardStates,
  grades,
  newWordsStatuses,
  practiceWays,
  MEMORY_MODEL_MIN_REVIEWS,
} from '@/shared/practice'
import { type MemoryModelState, memoryModelStatuses } from '@/shared/memory-model'
import { describe, json } from '@/server/openapi/describe'
import { answer, count, isoDate, isoDateTime, positiveInt } from '@/server/openapi/schemas'
import { wordShape } from '@/server/api/words/docs'

const tags = ['Practice']

const grade = z.literal(grades)

const cardScheduleSchema = answer<CardSchedule>(
  'CardSchedule',
  "A card's schedule; `version` 0 and state `new` for a word not graded yet. Send `version` back with a grade.",
)(
  z.object({
    state: z.enum(cardStates),
    due: isoDateTime,
    reps: count,
    lapses: count,
    lastReview: z.nullable(isoDateTime),
    version: count,
  }),
)

const nextIntervalSchema = answer<NextInterval>('NextInterval', 'What a grade would do: the next due time, in seconds from now and as a label ("10 min").')(
  z.object({
    grade,
    due: isoDateTime,
    seconds: count,
    label: z.object({ value: z.number().check(z.minimum(0)), unit: z.enum(['minute', 'hour', 'day', 'month', 'year']) }),
  }),
)

const practiceCardSchema = answer<PracticeCard>('PracticeCard', 'A card of the queue: the word, its schedule and each grade’s next interval.')(
  z.object({
    wordId: positiveInt,
    ...wordShape,
    html: z.nullable(z.object({ front: z.string(), back: z.string() })),
    choices: z.nullable(z.array(z.string()).check(z.length(4))),
    kind: z.enum(['due', 'new']),
    schedule: cardScheduleSchema,
    next: z.array(nextIntervalSchema),
  }),
)

const newWordsSourceSchema = answer<NewWordsSource>(
  'NewWordsSource',
  'Why new words are offered today, or not: `available`, `dailyLimitReached`, `noLevel` (no current level), `noWords` (none at the current level in the language learnt), `levelLearned` (all of them started); with the current level\'s code and the language learnt.',
)(z.object({ status: z.enum(newWordsStatuses), levelCode: z.nullable(z.string()), language: z.nullable(z.string()) }))

const practiceQueueSchema = answer<PracticeQueue>('PracticeQueue', 'Due cards first, then new words of the current level.')(
  z.object({
    cards: z.array(practiceCardSchema),
    dueNow: count,
    newLeft: count,
    newWords: newWordsSourceSchema,
    laterToday: z.object({ count, next: z.nullable(isoDateTime) }),
    ways: z.array(z.enum(practiceWays)),
    at: isoDateTime,
  }),
)

const gradeResultSchema = answer<GradeResult>('GradeResult', 'A grade as counted (the same again for its `clientId`).')(
  z.object({
    clientId: z.string(),
    wordId: positiveInt,
    grade,
    reviewedAt: isoDateTime,
    day: isoDate,
    schedule: cardScheduleSchema,
    undone: z.boolean(),
  }),
)

const undoResultSchema = answer<UndoResult>('UndoResult', 'The card as it was before the grade undone.')(
  z.object({ clientId: z.string(), wordId: positiveInt, schedule: cardScheduleSchema }),
)

const practiceSettingsSchema = answer<PracticeSettings>('PracticeSettings', "The learner's practice settings (defaults until saved).")(
  z.object({
    newWordsPerDay: count,
    dailyGoal: positiveInt,
    timeZone: z.string(),
    ways: z.array(z.enum(practiceWays)),
    reminderEnabled: z.boolean(),
    reminderHour: count,
    desiredRetention: z.number(),
  }),
)

const practiceTodaySchema = answer<PracticeToday>('PracticeToday', "Today's practice, the streak and the 12-week calendar, in the learner's time zone.")(
  z.object({
    day: isoDate,
    timeZone: z.string(),
    dueToday: count,
    dueNow: count,
    newToday: count,
    newWords: newWordsSourceSchema,
    done: count,
    goal: positiveInt,
    goalMet: z.boolean(),
    streak: count,
    longest: count,
    calendar: z.array(z.object({ date: isoDate, reviews: count, goalMet: z.boolean() })),
  }),
)

export const describeQueue = describe({
  operationId: 'getPracticeQueue',
  summary: 'The cards to practise now',
  description: `The signed-in person's cards due now (due time at or before the server's clock), oldest first, of the course and of the decks they practise every day (suspended cards never), then new words up to what the one daily number still allows: those of their current level (and language) first, then their decks' new cards. \`deck\` practises one of their decks alone (404 for a deck that is not theirs). \`limit\` (at most ${QUEUE_SIZE_MAX}) fetches ahead for practice offline. Each card carries the next interval of each grade, and \`choices\` for "Choose the answer": while that way is on (\`ways\`, the settings'), four texts — the card's own and three of the same level (in its language) or deck, of its part of speech where there are enough, never one twice — in the order to show them, the same for one review; null for a card that is not a plain, short word or phrase, or whose level or deck has too few other words. Reading writes nothing.`,
  tags,
  access: 'user',
  responses: { 200: json(practiceQueueSchema, 'The queue.') },
  errors: [404, 503],
})

export const describeGrade = describe({
  operationId: 'gradePracticeCard',
  summary: 'Grade a card',
  description: `One review: \`grade\` 1–4 (Again, Hard, Good, Easy) of \`wordId\`, with the card's \`version\` as read (0 for a new word) and a \`clientId\` (UUID) made once per answer. The same \`clientId\` again answers the first result with 200 and counts nothing more (404 once the word has been deleted). A word that does not exist: 404. A card graded since it was read (another tab): 409 \`conflict\`. A new word the queue would not offer (past the day's number of new words, counted for the day the answer was given; not of the current level and language; no current level): 409 \`new_word_not_allowed\`, its reason in \`message\` (a client sending answers queued offline drops it, as it drops a \`conflict\`). \`reviewedAt\`, the client's time of the answer, is believed when it is within the last ${CLIENT_TIME_TRUST_MS / 3_600_000} hours and not ahead of the server (answers queued offline); otherwise the server's time counts. The person's other tabs hear \`practice\` on the live stream.`,
  tags,
  access: 'user',
  responses: {
    201: json(gradeResultSchema, 'Counted.'),
    200: json(gradeResultSchema, 'This `clientId` was counted before: its first result.'),
  },
  errors: [404, 409, 429, 503],
})

export const describeUndo = describe({
  operationId: 'undoPracticeGrade',
  summary: 'Undo the latest grade',
  description: `Only the person's latest grade, named by its \`clientId\`, within ${UNDO_WINDOW_MS / 60_000} minutes of its arrival: the card is restored from the log (a new word is new again) and the grade no longer counts. Otherwise 409.`,
  tags,
  access: 'user',
  responses: { 200: json(undoResultSchema, 'Undone.') },
  errors: [409, 429, 503],
})

export const describeToday = describe({
  operationId: 'getPracticeToday',
  summary: "Today's practice, streak and calendar",
  description: "In the person's time zone: cards due today and now, new words left, reviews done of today's goal (the daily goal; a date that comes again after a move west keeps the one it had), the current and longest streak, and the last 84 days. Each day is judged by the goal in force when it ended: a goal changed during a day counts for it, one changed on a later day never.",
  tags,
  access: 'user',
  responses: { 200: json(practiceTodaySchema, 'Today.') },
  errors: [503],
})

export const describeGetSettings = describe({
  operationId: 'getPracticeSettings',
  summary: 'Practice settings',
  tags,
  access: 'user',
  responses: { 200: json(practiceSettingsSchema, 'The settings (defaults until saved: 10 new words a day, a goal of 20 reviews, UTC).') },
  errors: [503],
})

export const describePutSettings = describe({
  operationId: 'putPracticeSettings',
  summary: 'Save the practice settings',
  description:
    'New words per day (0–100), daily goal (1–1000 reviews) and the IANA time zone from the browser, kept and answered by its canonical name (`us/eastern` is `America/New_York`). A change of zone never costs the streak: see docs/decisions/0019-practice.md. Optional, kept when left out: the ways to practise that are on (at least one), the daily reminder by email and its hour of the learner\'s day (0–23), and the desired retention (0.80–0.97).',
  tags,
  access: 'user',
  responses: { 200: json(practiceSettingsSchema, 'The saved settings.') },
  errors: [429, 503],
})

const memoryModelStateSchema = answer<MemoryModelState>(
  'MemoryModelState',
  "The learner's memory model: `default` (FSRS's parameters), `queued` or `running` (a fit), `personalised` (their own, which predict their reviews better); their counted reviews, the latest fit (its reviews, the log loss of the default and of the fitted parameters, when), the desired retention, and the reviews a day each retention would cost.",
)(
  z.object({
    status: z.enum(memoryModelStatuses),
    reviews: count,
    minReviews: positiveInt,
    model: z.nullable(z.object({ reviews: count, logLossBefore: z.number(), logLossAfter: z.number(), fittedAt: isoDateTime })),
    desiredRetention: z.number(),
    estimates: z.array(z.object({ retention: z.number(), reviewsPerDay: z.number().check(z.minimum(0)) })),
  }),
)

const estimatesText =
  '`estimates`: for 0.80, 0.85, 0.90, 0.95, 0.97 and the current desired retention, the sum over the learner\'s cards in review of 1 / the interval FSRS gives the card\'s stability at that retention with their parameters (the steady load of the cards learnt so far; see docs/decisions/0037-memory-model.md).'

export const describeMemoryModel = describe({
  operationId: 'getMemoryModel',
  summary: 'The memory model and what a desired retention costs',
  description: `FSRS parameters of the learner's own are fitted to their counted reviews (imported ones included) once they have at least ${MEMORY_MODEL_MIN_REVIEWS}, in the background: when they first reach that many, weekly while they review, and on request. ${estimatesText}`,
  tags,
  access: 'user',
  responses: { 200: json(memoryModelStateSchema, 'The memory model.') },
  errors: [503],
})

export const describePersonalise = describe({
  operationId: 'personaliseMemoryModel',
  summary: 'Personalise now',
  description: `Queues a fit of the learner's memory model now, run once across instances in the background (the live stream's \`practice\` event, reason \`model\`, tells when it ends). Fewer than ${MEMORY_MODEL_MIN_REVIEWS} counted reviews: 409 \`conflict\`, with how many there are in \`message\`.`,
  tags,
  access: 'user',
  responses: { 202: json(memoryModelStateSchema, 'Queued (or running already).') },
  errors: [409, 429, 503],
})
