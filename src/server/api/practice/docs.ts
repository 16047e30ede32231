import { CLIENT_TIME_TRUST_MS, QUEUE_SIZE_MAX, UNDO_WINDOW_MS } from '@/shared/practice'
import { describe, json } from '@/server/openapi/describe'
import {
  gradeResultSchema,
  practiceQueueSchema,
  practiceSettingsSchema,
  practiceTodaySchema,
  undoResultSchema,
} from '@/server/openapi/schemas'

const tags = ['Practice']

export const describeQueue = describe({
  operationId: 'getPracticeQueue',
  summary: 'The cards to practise now',
  description: `The signed-in person's cards due now (due time at or before the server's clock), oldest first, then new words of their current level (and language) up to what the daily number still allows. \`limit\` (at most ${QUEUE_SIZE_MAX}) fetches ahead for practice offline. Each card carries the next interval of each grade. Reading writes nothing.`,
  tags,
  access: 'user',
  responses: { 200: json(practiceQueueSchema, 'The queue.') },
  errors: [503],
})

export const describeGrade = describe({
  operationId: 'gradePracticeCard',
  summary: 'Grade a card',
  description: `One review: \`grade\` 1–4 (Again, Hard, Good, Easy) of \`wordId\`, with the card's \`version\` as read (0 for a new word) and a \`clientId\` (UUID) made once per answer. The same \`clientId\` again answers the first result with 200 and counts nothing more (404 once the word has been deleted). A word that does not exist: 404. A card graded since it was read (another tab): 409. \`reviewedAt\`, the client's time of the answer, is believed when it is within the last ${CLIENT_TIME_TRUST_MS / 3_600_000} hours and not ahead of the server (answers queued offline); otherwise the server's time counts. The person's other tabs hear \`practice\` on the live stream.`,
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
  description: 'New words per day (0–100), daily goal (1–1000 reviews) and the IANA time zone from the browser, kept and answered by its canonical name (`us/eastern` is `America/New_York`). A change of zone never costs the streak: see docs/decisions/0019-practice.md.',
  tags,
  access: 'user',
  responses: { 200: json(practiceSettingsSchema, 'The saved settings.') },
  errors: [429, 503],
})
