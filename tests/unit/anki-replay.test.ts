import { describe, expect, it } from 'vitest'
import { fsrs, generatorParameters } from 'ts-fsrs'
import {
  type AnkiCard,
  type LoggedCard,
  difficultyFromEase,
  easeFactorOf,
  replayAnkiCard,
  startOfDay,
  toAnkiCard,
  toAnkiReview,
} from '@/server/api/imports/anki/replay'
import type { AnkiReview } from '@/server/api/imports/anki/types'
import { type StoredCard, defaultFsrsParameters, review } from '@/server/api/practice/scheduler'
import type { PracticeGrade } from '@/shared/practice'
import { dayIn } from '@/shared/practice-days'

const parameters = defaultFsrsParameters()
const now = new Date('2025-05-01T10:00:00Z')
// Midday UTC: the same date (2024-01-01) in Tokyo, UTC and Los Angeles.
const collectionCreated = Date.parse('2024-01-01T12:00:00Z') / 1000
const MINUTE = 60_000
const DAY = 86_400_000

const ankiCard = (fields: Partial<AnkiCard> = {}): AnkiCard => ({
  id: 7,
  type: 2,
  queue: 2,
  due: 500,
  interval: 20,
  factor: 2500,
  reps: 6,
  lapses: 1,
  ...fields,
})

let nextId = 0
const entry = (at: number, ease: number, type: number, fields: Partial<AnkiReview> = {}): AnkiReview => ({
  id: at,
  cardId: 7,
  ease,
  interval: 1,
  lastInterval: 0,
  factor: 2500,
  time: 4000 + nextId++,
  type,
  ...fields,
})

const start = Date.parse('2025-03-01T08:00:00Z')
/** Learn, review, a lapse and relearning: the answers, in time order, with their ratings. */
const answers: [number, PracticeGrade, number][] = [
  [start, 3, 0],
  [start + 10 * MINUTE, 3, 0],
  [start + 3 * DAY, 3, 1],
  [start + 12 * DAY, 1, 1],
  [start + 12 * DAY + 10 * MINUTE, 3, 2],
  [start + 14 * DAY, 4, 1],
]
const history = answers.map(([at, ease, type]) => entry(at, ease, type))
const noise = [
  entry(start + 5 * DAY, 0, 4, { interval: 9 }), // manual: "Set due date"
  entry(start + 6 * DAY, 0, 5, { interval: 7 }), // rescheduled
  entry(start + 7 * DAY, 0, 1), // ease 0: no answer
  entry(start + 8 * DAY, 3, 1, { cardId: 8 }), // another card's
]
// Out of order: newest first, the noise in between.
const shuffled = [...history.slice(3).reverse(), ...noise, ...history.slice(0, 3).reverse()]

/** The same grades through Lingua's own path: the cards after each, and the logs. */
function linguaPath(grades: [number, PracticeGrade][]) {
  let card: StoredCard | null = null
  const steps = grades.map(([at, grade]) => {
    const before: StoredCard | null = card
    const result = review(parameters, card, new Date(at), grade)
    card = result.card
    return { before, ...result, at: new Date(at), grade }
  })
  return { card: card as StoredCard | null, steps }
}

const replay = (card: AnkiCard, reviews: AnkiReview[], timeZone = 'UTC', extra = {}) =>
  replayAnkiCard({ card, reviews, collectionCreated, parameters, timeZone, now, ...extra })

describe('replaying an Anki card', () => {
  it('keeps a new card new: no practice card, nothing to replay', () => {
    const replayed = replay(ankiCard({ type: 0, queue: 0, due: 12, interval: 0, factor: 0, reps: 0, lapses: 0 }), [])
    expect(replayed).toEqual({ card: null, version: 1, suspended: false, reviews: [] })
  })

  it('gives a review card the memory of its answers replayed as Lingua grades them, due on Anki’s day', () => {
    const replayed = replay(ankiCard(), shuffled)
    const lingua = linguaPath(answers.map(([at, grade]) => [at, grade]))
    const expected = lingua.card as StoredCard
    expect(replayed.card).toMatchObject({
      stability: expected.stability,
      difficulty: expected.difficulty,
      elapsedDays: expected.elapsedDays,
      reps: 6,
      lapses: 1,
      state: 2,
      lastReview: new Date(start + 14 * DAY),
      scheduledDays: 20,
      learningSteps: 0,
    })
    // 2024-01-01 + 500 days, at the learner's midnight.
    expect(replayed.card?.due).toEqual(new Date('2025-05-15T00:00:00Z'))
    expect(replayed.suspended).toBe(false)
    expect(replayed.version).toBe(6)
  })

  it('dates the due day at the learner’s start of that day in their time zone', () => {
    const dueIn = (timeZone: string) => replay(ankiCard(), shuffled, timeZone).card?.due.toISOString()
    expect(dueIn('UTC')).toBe('2025-05-15T00:00:00.000Z')
    expect(dueIn('Asia/Tokyo')).toBe('2025-05-14T15:00:00.000Z')
    // Summer time in Los Angeles: UTC−7.
    expect(dueIn('America/Los_Angeles')).toBe('2025-05-15T07:00:00.000Z')
    expect(startOfDay('America/Los_Angeles', '2025-01-15').toISOString()).toBe('2025-01-15T08:00:00.000Z')
  })

  it('stores every answer as the learner’s review, oldest first, as review_log rows of Lingua’s own grades', () => {
    const { reviews } = replay(ankiCard(), shuffled)
    const lingua = linguaPath(answers.map(([at, grade]) => [at, grade]))
    expect(reviews.map((r) => r.review.getTime())).toEqual(answers.map(([at]) => at))
    expect(reviews.map((r) => r.rating)).toEqual([3, 3, 3, 1, 3, 4])
    expect(reviews.map((r) => r.clientId)).toEqual(answers.map(([at]) => `anki:7:${at}`))
    reviews.forEach((row, index) => {
      const step = lingua.steps[index]!
      expect(row).toMatchObject({
        state: step.log.state,
        due: step.log.due,
        stability: step.log.stability,
        difficulty: step.log.difficulty,
        elapsedDays: step.log.elapsed_days,
        lastElapsedDays: step.log.last_elapsed_days,
        scheduledDays: step.log.scheduled_days,
        learningSteps: step.log.learning_steps,
      })
      // As grades.ts logs them: the first answer's card before is null (the word was new).
      expect(row.cardBefore === null).toBe(step.before === null)
      expect(row.cardAfter).toEqual({
        ...step.card,
        due: step.card.due.toISOString(),
        lastReview: step.card.lastReview?.toISOString() ?? null,
        version: index + 1,
      })
      if (row.cardBefore) expect(row.cardBefore.version).toBe(index)
    })
  })

  it('drops manual, rescheduled and ease-0 entries; counts filtered-deck answers', () => {
    const { reviews } = replay(ankiCard(), [...shuffled, entry(start + 20 * DAY, 2, 3)])
    expect(reviews).toHaveLength(7)
    expect(reviews.at(-1)).toMatchObject({ rating: 2, state: 2 })
    expect(reviews.some((r) => r.review.getTime() >= start + 5 * DAY && r.review.getTime() <= start + 8 * DAY)).toBe(false)
  })

  it('stamps each review with the learner’s date in their time zone', () => {
    const evening = Date.parse('2025-03-01T20:00:00Z')
    const early = Date.parse('2025-03-01T05:00:00Z')
    const days = (timeZone: string) => replay(ankiCard(), [entry(early, 3, 0), entry(evening, 3, 0)], timeZone).reviews.map((r) => r.day)
    expect(days('UTC')).toEqual(['2025-03-01', '2025-03-01'])
    expect(days('Asia/Tokyo')).toEqual(['2025-03-01', '2025-03-02'])
    expect(days('America/Los_Angeles')).toEqual(['2025-02-28', '2025-03-01'])
  })

  it('keeps a learning card due at its epoch second, and one learning across days on its day', () => {
    const at = Date.parse('2025-04-30T09:00:00Z')
    const dueSecond = Math.floor((at + 10 * MINUTE) / 1000)
    const learning = replay(ankiCard({ type: 1, queue: 1, due: dueSecond, interval: 0, factor: 0, reps: 1, lapses: 0 }), [entry(at, 3, 0)])
    expect(learning.card).toMatchObject({ state: 1, due: new Date(dueSecond * 1000), reps: 1, learningSteps: 1 })
    const acrossDays = replay(ankiCard({ type: 1, queue: 3, due: 486, interval: 0, factor: 0 }), [entry(at, 3, 0)], 'Asia/Tokyo')
    expect(acrossDays.card?.due.toISOString()).toBe('2025-04-30T15:00:00.000Z')
    // Suspended while learning: the queue no longer says which; a due that large is epoch seconds.
    const suspended = replay(ankiCard({ type: 1, queue: -1, due: dueSecond }), [entry(at, 3, 0)])
    expect(suspended).toMatchObject({ suspended: true, card: { state: 1, due: new Date(dueSecond * 1000) } })
  })

  it('flags suspended cards; buried ones are ordinary', () => {
    const suspended = replay(ankiCard({ queue: -1 }), shuffled)
    expect(suspended.suspended).toBe(true)
    expect(suspended.card?.due).toEqual(new Date('2025-05-15T00:00:00Z'))
    for (const queue of [-2, -3]) {
      const buried = replay(ankiCard({ queue }), shuffled)
      expect(buried).toEqual(replay(ankiCard(), shuffled))
    }
    expect(replay(ankiCard({ type: 0, queue: -1, due: 3 }), []).suspended).toBe(true)
  })

  it('keeps Anki’s state when its learning steps graduated a card that Lingua’s would still be teaching', () => {
    // One "Good" in Anki with a single 10-minute step graduates; ts-fsrs's two steps would not.
    const replayed = replay(ankiCard({ due: 490, interval: 1, reps: 1, lapses: 0 }), [entry(start, 3, 0)])
    expect(replayed.reviews[0]?.cardAfter.state).toBe(1)
    expect(replayed.card).toMatchObject({ state: 2, scheduledDays: 1, learningSteps: 0, reps: 1 })
  })

  it('gives a review card without history a memory from its interval and ease', () => {
    const card = replay(ankiCard({ interval: 20, factor: 2500 }), []).card
    expect(card).toMatchObject({ state: 2, stability: 20, scheduledDays: 20, reps: 6, lapses: 1 })
    expect(card?.lastReview).toEqual(new Date('2025-04-25T00:00:00Z'))
    expect(card?.difficulty).toBeGreaterThanOrEqual(1)
    expect(card?.difficulty).toBeLessThanOrEqual(10)
    // A lower ease is a harder card; the ease comes back from the difficulty.
    const hard = replay(ankiCard({ interval: 20, factor: 1300 }), []).card
    expect(hard?.difficulty).toBeGreaterThan(card?.difficulty ?? 10)
    const scheduler = fsrs(parameters)
    expect(easeFactorOf(scheduler, difficultyFromEase(scheduler, 2.1, 20), 20)).toBe(2100)
    // Learning without history: ts-fsrs's first "Good".
    const learning = replay(ankiCard({ type: 1, queue: 1, due: now.getTime() / 1000, interval: 0, factor: 0 }), []).card
    expect(learning).toMatchObject({ state: 1, stability: scheduler.init_stability(3), difficulty: scheduler.init_difficulty(3), lastReview: null })
  })

  it('starts the memory afresh at an Anki reset (Forget), keeping the answers before it', () => {
    const reset = entry(start + 20 * DAY, 0, 4, { interval: 0 })
    const after: [number, PracticeGrade][] = [
      [start + 21 * DAY, 3],
      [start + 21 * DAY + 10 * MINUTE, 3],
    ]
    const replayed = replay(ankiCard(), [...history, reset, ...after.map(([at, grade]) => entry(at, grade, 0))])
    const fresh = linguaPath(after).card as StoredCard
    expect(replayed.reviews).toHaveLength(8)
    expect(replayed.reviews[6]?.cardBefore).toBeNull()
    expect(replayed.card).toMatchObject({ stability: fresh.stability, difficulty: fresh.difficulty, reps: 2, lapses: 0 })
  })

  it('reads Anki’s v1 scheduler’s three learning buttons as Again, Good, Easy', () => {
    const v1 = replay(ankiCard(), [entry(start, 2, 0), entry(start + DAY, 2, 1)], 'UTC', { schedulerVersion: 1 })
    expect(v1.reviews.map((r) => r.rating)).toEqual([3, 2])
  })
})

describe('exporting to Anki and importing back', () => {
  const timeZone = 'Asia/Tokyo'

  /** Lingua's grades of one word, as review_log rows (grades.ts's card before and after). */
  function linguaRows(grades: [number, PracticeGrade][]) {
    const { card, steps } = linguaPath(grades)
    const logged = (stored: StoredCard, version: number): LoggedCard => ({
      ...stored,
      due: stored.due.toISOString(),
      lastReview: stored.lastReview?.toISOString() ?? null,
      version,
    })
    const rows = steps.map((step, index) => ({
      rating: step.grade,
      state: step.log.state,
      review: step.at,
      cardBefore: step.before ? logged(step.before, index) : null,
      cardAfter: logged(step.card, index + 1),
    }))
    return { card: card as StoredCard, rows }
  }

  function roundTrip(grades: [number, PracticeGrade][], suspended = false) {
    const { card, rows } = linguaRows(grades)
    const exported = toAnkiCard(card, { collectionCreated, now, position: 4, timeZone, suspended, parameters })
    const revlog = rows.map((row) => toAnkiReview(row, 99, parameters))
    const imported = replayAnkiCard({
      card: { id: 99, ...exported },
      reviews: [...revlog].reverse(),
      collectionCreated,
      parameters,
      timeZone,
      now,
    })
    return { card, rows, exported, revlog, imported }
  }

  it('gives back a review card’s state, memory, due day and history', () => {
    const { card, rows, exported, revlog, imported } = roundTrip(answers.map(([at, grade]) => [at, grade]))
    expect(exported).toMatchObject({ type: 2, queue: 2, reps: 6, lapses: 1, left: 0 })
    expect(exported.factor).toBeGreaterThanOrEqual(1300)
    expect(revlog.map((r) => r.type)).toEqual([0, 0, 1, 1, 2, 1])
    expect(revlog[0]).toMatchObject({ id: start, cardId: 99, ease: 3, lastInterval: 0 })
    expect(revlog[1]?.interval).toBeGreaterThan(0)
    expect(revlog[3]?.interval).toBeLessThan(0)
    const { due, ...memory } = card
    expect(imported.card).toMatchObject(memory)
    expect(dayIn(timeZone, imported.card!.due)).toBe(dayIn(timeZone, due))
    expect(imported.reviews.map(({ rating, state, review: at, cardBefore, cardAfter }) => ({ rating, state, review: at, cardBefore, cardAfter }))).toEqual(rows)
  })

  it('gives back a card relearning within the day to the second, suspended', () => {
    const grades: [number, PracticeGrade][] = answers.slice(0, 4).map(([at, grade]) => [at, grade])
    const { card, exported, imported } = roundTrip(grades, true)
    expect(exported).toMatchObject({ type: 3, queue: -1, left: 1001, due: Math.floor(card.due.getTime() / 1000) })
    expect(imported.suspended).toBe(true)
    expect(imported.card).toEqual({ ...card, due: new Date(Math.floor(card.due.getTime() / 1000) * 1000) })
  })

  it('keeps a word never graded new, at its position', () => {
    const exported = toAnkiCard(null, { collectionCreated, now, position: 4, timeZone })
    expect(exported).toEqual({ type: 0, queue: 0, due: 4, interval: 0, factor: 0, reps: 0, lapses: 0, left: 0 })
    expect(replayAnkiCard({ card: { id: 1, ...exported }, reviews: [], collectionCreated, parameters, timeZone, now }).card).toBeNull()
  })

  it('exports a card without parameters given with ts-fsrs’s defaults', () => {
    const { card } = linguaRows(answers.map(([at, grade]) => [at, grade]))
    const withDefaults = toAnkiCard(card, { collectionCreated, now, position: 0, timeZone })
    expect(withDefaults).toEqual(toAnkiCard(card, { collectionCreated, now, position: 0, timeZone, parameters: generatorParameters() }))
  })
})
