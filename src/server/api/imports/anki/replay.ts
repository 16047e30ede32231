import {
  type Card,
  type FSRS,
  type FSRSHistory,
  type FSRSParameters,
  type Grade,
  Rating,
  State,
  createEmptyCard,
  fsrs,
  generatorParameters,
} from 'ts-fsrs'
import type { StoredCard } from '@/server/api/practice/scheduler'
import { LruCache } from '@/shared/lru'
import { addDays, dayIn, endOfDay } from '@/shared/practice-days'
import type { AnkiCard as PackageCard, AnkiReview } from './types'

/**
 * An Anki card and its review log (`revlog`) as Lingua's practice card and review rows, and back
 * (the export). Pure: the time is given, never read. The rules:
 * - An answer is a revlog entry with ease 1–4 whose type is learn (0), review (1), relearn (2) or
 *   filtered (3: a review in a filtered deck is a real recall, so it counts). Manual (4) and
 *   rescheduled (5) entries and ease 0 are no answers: not stored. One with interval 0 is Anki's
 *   "Forget"/"Reset": the replay starts afresh there (ts-fsrs's manual rating to New), as Anki does.
 * - The memory state (stability, difficulty, reps, lapses, last review) is ts-fsrs's replay of the
 *   answers in time order (`FSRS.reschedule`), from an empty card at the first answer: what
 *   Lingua's own grades would have made of them. The due time and the state are Anki's: the card
 *   is due when Anki had it due, and a card Anki calls review is reviewed as one (Anki's learning
 *   steps may differ from the learner's, which would leave the replay in learning).
 * - A card without answers (a package without its revlog) gets its memory from Anki's schedule:
 *   stability its interval (FSRS's stability is the interval at 90% recall, which SM-2 aims for),
 *   difficulty the one whose FSRS growth on "Good" is Anki's ease (`factor`).
 * - A new card is new: no practice card (`card: null`), as a Lingua word never graded.
 */

/** Anki's card, as the package reader gives it (types.ts): the fields read here. */
export type AnkiCard = Pick<PackageCard, 'id' | 'type' | 'queue' | 'due' | 'interval' | 'factor' | 'reps' | 'lapses'>

/** A card as review_log keeps it (card_before, card_after): grades.ts's LoggedCard. */
export type LoggedCard = Omit<StoredCard, 'due' | 'lastReview'> & { due: string; lastReview: string | null; version: number }

/** review_log's columns that the history sets (the importer adds the person, word, goal, received time). */
export interface ReplayedReview {
  /** `anki:{card id}:{revlog id}`: the same package imported again adds no review twice. */
  clientId: string
  rating: Grade
  state: number
  due: Date
  stability: number
  difficulty: number
  elapsedDays: number
  lastElapsedDays: number
  scheduledDays: number
  learningSteps: number
  review: Date
  /** The learner's date of `review` in their time zone (never after today's). */
  day: string
  /** Null when the card was new (its first answer, or the first after a reset). */
  cardBefore: LoggedCard | null
  cardAfter: LoggedCard
}

export interface ReplayedCard {
  /** practice_card's schedule columns; null: the card is new (no row, as a word never graded). */
  card: StoredCard | null
  /** practice_card's version: that of the last review's card after (1 without reviews). */
  version: number
  suspended: boolean
  /** Oldest first. */
  reviews: ReplayedReview[]
}

export interface ReplayInput {
  card: AnkiCard
  /** The card's revlog, in any order (entries of other cards are ignored). */
  reviews: readonly AnkiReview[]
  /** The collection's `crt`: epoch seconds. */
  collectionCreated: number
  /** The learner's. */
  parameters: FSRSParameters
  timeZone: string
  now: Date
  /**
   * The collection's scheduler (`schedVer`): Anki's v1 had three buttons in learning (1 Again,
   * 2 Good, 3 Easy), so its learn and relearn eases 2 and 3 are Good and Easy. 2 by default.
   */
  schedulerVersion?: 1 | 2
}

const DAY_MS = 86_400_000
/** ts-fsrs's states as the columns hold them (numbers, not its enum). */
const NEW: number = State.New
const LEARNING: number = State.Learning
const REVIEW: number = State.Review
const RELEARNING: number = State.Relearning
/** Anki's dues above this are epoch seconds, below it days (what Anki itself tells them by). */
const EPOCH_SECONDS_FROM = 1_000_000_000
/** The recall at which SM-2's intervals are taken to be FSRS's stability. */
const SM2_RETENTION = 0.9

const schedulers = new LruCache<string, FSRS>(16)
const schedulerOf = (parameters: FSRSParameters): FSRS => schedulers.get(JSON.stringify(parameters), () => fsrs(parameters))

/** ts-fsrs's Card as the columns keep it (scheduler.ts's StoredCard). */
const toStored = ({ elapsed_days, scheduled_days, learning_steps, last_review, ...card }: Card): StoredCard => ({
  ...card,
  elapsedDays: elapsed_days,
  scheduledDays: scheduled_days,
  learningSteps: learning_steps,
  lastReview: last_review ?? null,
})

const toLogged = (card: StoredCard, version: number): LoggedCard => ({
  ...card,
  due: card.due.toISOString(),
  lastReview: card.lastReview?.toISOString() ?? null,
  version,
})

const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)

/** Days' starts found, by zone and date: an import's cards fall due on the same few hundred days. */
const dayStarts = new LruCache<string, number>(4096)

/** The instant `date` begins in `timeZone` (its first minute, daylight saving included). */
export function startOfDay(timeZone: string, date: string): Date {
  const start = dayStarts.get(`${timeZone} ${date}`, () => {
    // 15 hours before its UTC midnight it is an earlier date in every zone (offsets −12…+14).
    let found = endOfDay(timeZone, new Date(Date.parse(`${date}T00:00:00Z`) - 15 * 3_600_000))
    while (dayIn(timeZone, found) < date) found = endOfDay(timeZone, found)
    return found.getTime()
  })
  return new Date(start)
}

/** Anki's day `days` after the collection's creation, as the learner's start of that day. */
const ankiDay = (collectionCreated: number, days: number, timeZone: string): Date =>
  startOfDay(timeZone, addDays(dayIn(timeZone, new Date(collectionCreated * 1000)), days))

/** When Anki has a card that is not new due. */
function ankiDue(card: AnkiCard, collectionCreated: number, timeZone: string): Date {
  const inSeconds = card.queue === 1 || (card.queue !== 2 && card.queue !== 3 && card.type !== REVIEW && card.due > EPOCH_SECONDS_FROM)
  return inSeconds ? new Date(card.due * 1000) : ankiDay(collectionCreated, card.due, timeZone)
}

const isAnswer = (review: AnkiReview) => review.ease >= 1 && review.ease <= 4 && review.type >= 0 && review.type <= 3
const isReset = (review: AnkiReview) => (review.type === 4 || review.type === 5) && review.ease === 0 && review.interval === 0

function ratingOf(review: AnkiReview, schedulerVersion: 1 | 2): Grade {
  const threeButtons = schedulerVersion === 1 && (review.type === 0 || review.type === 2) && review.ease >= 2
  return threeButtons ? Math.min(review.ease + 1, 4) : review.ease
}

/**
 * The difficulty whose stability growth on "Good" at SM2_RETENTION is `ease` for `stability`
 * (FSRS's recall stability, solved by bisection: it falls as difficulty rises).
 */
export function difficultyFromEase(scheduler: FSRS, ease: number, stability: number): number {
  const growth = (difficulty: number) => scheduler.next_recall_stability(difficulty, stability, SM2_RETENTION, Rating.Good) / stability
  if (growth(1) <= ease) return 1
  if (growth(10) >= ease) return 10
  let low = 1
  let high = 10
  for (let step = 0; step < 40; step++) {
    const middle = (low + high) / 2
    if (growth(middle) > ease) low = middle
    else high = middle
  }
  return (low + high) / 2
}

/** Anki's ease (permille, at least 1300) of a card with this memory: the inverse of difficultyFromEase. */
export function easeFactorOf(scheduler: FSRS, difficulty: number, stability: number): number {
  if (stability <= 0 || difficulty <= 0) return 0
  const growth = scheduler.next_recall_stability(difficulty, stability, SM2_RETENTION, Rating.Good) / stability
  return Math.max(1300, Math.round(growth * 1000))
}

/** A card Anki schedules but no answer explains: its memory from Anki's interval and ease. */
function withoutHistory(scheduler: FSRS, card: AnkiCard, state: number, due: Date, now: Date): StoredCard {
  const days = card.interval > 0 ? card.interval : 0
  const stability = days > 0 ? days : scheduler.init_stability(Rating.Good)
  const difficulty = days > 0 && card.factor > 0 ? difficultyFromEase(scheduler, card.factor / 1000, stability) : scheduler.init_difficulty(Rating.Good)
  // A review card was last seen its interval before it is due (never after now).
  const seen = state === REVIEW && days > 0 ? new Date(Math.min(due.getTime() - days * DAY_MS, now.getTime())) : null
  return {
    due,
    stability,
    difficulty: Math.min(10, Math.max(1, difficulty)),
    elapsedDays: 0,
    scheduledDays: state === REVIEW ? days : 0,
    learningSteps: 0,
    reps: card.reps,
    lapses: card.lapses,
    state,
    lastReview: seen,
  }
}

/** The answers (and resets) of the card in time order, as ts-fsrs's history; resets before any answer dropped. */
function historyOf(input: ReplayInput): { entries: AnkiReview[]; history: FSRSHistory[] } {
  const own = input.reviews.filter((review) => review.cardId === input.card.id && (isAnswer(review) || isReset(review)))
  const sorted = [...own].sort((a, b) => a.id - b.id)
  const first = sorted.findIndex(isAnswer)
  const entries = first < 0 ? [] : sorted.slice(first)
  const history = entries.map((entry): FSRSHistory => {
    const review = new Date(entry.id)
    return isAnswer(entry) ? { rating: ratingOf(entry, input.schedulerVersion ?? 2), review } : { rating: Rating.Manual, state: State.New, due: review, review }
  })
  return { entries, history }
}

/** Replays an Anki card's answers with ts-fsrs: Lingua's card and review rows (see the module's rules). */
export function replayAnkiCard(input: ReplayInput): ReplayedCard {
  const { card, timeZone, now } = input
  const scheduler = schedulerOf(input.parameters)
  const { entries, history } = historyOf(input)
  const firstAnswer = history[0]?.review
  const { collections } = scheduler.reschedule(createEmptyCard(now), history, {
    skipManual: false,
    now,
    ...(firstAnswer ? { first_card: createEmptyCard(firstAnswer as Date) } : {}),
  })
  const today = dayIn(timeZone, now)
  const reviews: ReplayedReview[] = []
  let before: StoredCard | null = null
  for (const [index, { card: after, log }] of collections.entries()) {
    const entry = entries[index] as AnkiReview
    const stored = toStored(after)
    if (log.rating !== Rating.Manual) {
      const version = reviews.length
      const { elapsed_days, last_elapsed_days, scheduled_days, learning_steps, ...rest } = log
      const day = dayIn(timeZone, log.review)
      reviews.push({
        ...rest,
        clientId: `anki:${card.id}:${entry.id}`,
        rating: log.rating,
        elapsedDays: elapsed_days,
        lastElapsedDays: last_elapsed_days,
        scheduledDays: scheduled_days,
        learningSteps: learning_steps,
        day: day > today ? today : day,
        cardBefore: before && before.state !== NEW ? toLogged(before, version) : null,
        cardAfter: toLogged(stored, version + 1),
      })
    }
    before = stored
  }
  const suspended = card.queue === -1
  const version = Math.max(1, reviews.length)
  if (card.type === NEW || card.type < 0 || card.type > 3) return { card: null, version, suspended, reviews }
  const state = card.type
  const due = ankiDue(card, input.collectionCreated, timeZone)
  const replayed = before
  if (!replayed || replayed.state === NEW) return { card: withoutHistory(scheduler, card, state, due, now), version, suspended, reviews }
  const sameState = replayed.state === state
  const scheduledDays =
    state === REVIEW
      ? card.interval > 0
        ? card.interval
        : Math.max(0, daysBetween(dayIn(timeZone, replayed.lastReview ?? due), dayIn(timeZone, due)))
      : sameState
        ? replayed.scheduledDays
        : 0
  return {
    card: { ...replayed, state, due, scheduledDays, learningSteps: sameState ? replayed.learningSteps : 0 },
    version,
    suspended,
    reviews,
  }
}

/** Anki's schedule columns of a card (`cards`). */
export interface AnkiCardSchedule {
  type: number
  queue: number
  due: number
  interval: number
  factor: number
  reps: number
  lapses: number
  /** Learning steps left (today × 1000 + in all): one, for a card in (re)learning. */
  left: number
}

export interface ToAnkiInput {
  collectionCreated: number
  now: Date
  /** The new card's place among the new ones. */
  position: number
  timeZone: string
  suspended?: boolean
  /** The learner's, for the ease (`factor`) Anki shows; ts-fsrs's defaults when not given. */
  parameters?: FSRSParameters
}

const defaultScheduler = () => schedulerOf(generatorParameters())

/** A Lingua card as Anki's: a word never graded (null) or new is new, at `position`. */
export function toAnkiCard(card: StoredCard | null, input: ToAnkiInput): AnkiCardSchedule {
  const queueOf = (queue: number) => (input.suspended ? -1 : queue)
  if (!card || card.state === NEW) {
    return { type: 0, queue: queueOf(0), due: input.position, interval: 0, factor: 0, reps: card?.reps ?? 0, lapses: card?.lapses ?? 0, left: 0 }
  }
  const scheduler = input.parameters ? schedulerOf(input.parameters) : defaultScheduler()
  const { timeZone } = input
  const created = dayIn(timeZone, new Date(input.collectionCreated * 1000))
  const dueDay = dayIn(timeZone, card.due)
  const daysSinceCreated = daysBetween(created, dueDay)
  const factor = card.state === LEARNING ? 0 : easeFactorOf(scheduler, card.difficulty, card.stability)
  const common = { type: card.state, factor, reps: card.reps, lapses: card.lapses }
  if (card.state === REVIEW) {
    const interval = card.scheduledDays > 0 ? card.scheduledDays : Math.max(1, daysBetween(dayIn(timeZone, card.lastReview ?? input.now), dueDay))
    return { ...common, queue: queueOf(2), due: daysSinceCreated, interval, left: 0 }
  }
  // (Re)learning: due within the day it was last answered, by the second (queue 1); later, by the day (queue 3).
  const sameDay = dueDay <= dayIn(timeZone, card.lastReview ?? input.now)
  const interval = card.state === RELEARNING ? Math.max(1, Math.round(card.stability)) : 0
  return sameDay
    ? { ...common, queue: queueOf(1), due: Math.floor(card.due.getTime() / 1000), interval, left: 1001 }
    : { ...common, queue: queueOf(3), due: daysSinceCreated, interval, left: 1001 }
}

/** review_log's columns read by the export. */
export interface LoggedReview {
  rating: number
  /** The card's state before the answer. */
  state: number
  review: Date
  cardBefore: unknown
  cardAfter: unknown
}

/** Anki's interval of a logged card: days once in review, else minus the seconds to its due. */
function ankiInterval(card: LoggedCard | null, answeredAt: Date): number {
  if (!card) return 0
  if (card.state === REVIEW) {
    if (card.scheduledDays > 0) return card.scheduledDays
    return Math.max(1, Math.round((Date.parse(card.due) - answeredAt.getTime()) / DAY_MS))
  }
  return -Math.max(1, Math.round((Date.parse(card.due) - answeredAt.getTime()) / 1000))
}

/** Anki's revlog type of an answer given to a card in `state`: learn, review or relearn. */
const revlogType = (state: number): number => (state === REVIEW ? 1 : state === RELEARNING ? 2 : 0)

/** A Lingua review as Anki's revlog entry (its id is the time: the export keeps ids unique). */
export function toAnkiReview(review: LoggedReview, cardId: number, parameters?: FSRSParameters): AnkiReview {
  const scheduler = parameters ? schedulerOf(parameters) : defaultScheduler()
  const after = review.cardAfter as LoggedCard
  const before = (review.cardBefore ?? null) as LoggedCard | null
  const lastAnswered = before?.lastReview ? new Date(before.lastReview) : review.review
  return {
    id: review.review.getTime(),
    cardId,
    ease: review.rating,
    interval: ankiInterval(after, review.review),
    lastInterval: ankiInterval(before, lastAnswered),
    factor: after.state === LEARNING ? 0 : easeFactorOf(scheduler, after.difficulty, after.stability),
    time: 0,
    type: revlogType(review.state),
  }
}
