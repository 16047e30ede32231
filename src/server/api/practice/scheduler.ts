import {
  type Card,
  type FSRS,
  type FSRSParameters,
  type Grade,
  type ReviewLog,
  State,
  createEmptyCard,
  fsrs,
  generatorParameters,
} from 'ts-fsrs'
import {
  type CardSchedule,
  type CardState,
  type NextInterval,
  type PracticeGrade,
  cardStates,
  grades,
  intervalLabel,
} from '@/shared/practice'
import { LruCache } from '@/shared/lru'

/**
 * The FSRS scheduler (ts-fsrs) behind one small interface: what each grade would do to a card,
 * and what one does. Pure: the time is given, never read. A card is stored as ts-fsrs's Card,
 * field by field (`StoredCard`, the columns of `practice_card`); a word not yet seen has none.
 */

/** The library's defaults, which every person starts with (kept with their settings). */
export const defaultFsrsParameters = (): FSRSParameters => generatorParameters()

/** ts-fsrs's Card as the database keeps it. */
export interface StoredCard {
  due: Date
  stability: number
  difficulty: number
  elapsedDays: number
  scheduledDays: number
  learningSteps: number
  reps: number
  lapses: number
  state: number
  lastReview: Date | null
}

/** One scheduler per set of parameters (most people share the defaults; an optimizer will not). */
const schedulers = new LruCache<string, FSRS>(1000)
/** And per parameters object: the twenty cards of a queue share their learner's, read once. */
const schedulerOfObject = new WeakMap<FSRSParameters, FSRS>()

function schedulerOf(parameters: FSRSParameters): FSRS {
  let scheduler = schedulerOfObject.get(parameters)
  if (!scheduler) {
    scheduler = schedulers.get(JSON.stringify(parameters), () => fsrs(parameters))
    schedulerOfObject.set(parameters, scheduler)
  }
  return scheduler
}

function toCard(stored: StoredCard | null, now: Date): Card {
  if (!stored) return createEmptyCard(now)
  return {
    due: stored.due,
    stability: stored.stability,
    difficulty: stored.difficulty,
    elapsed_days: stored.elapsedDays,
    scheduled_days: stored.scheduledDays,
    learning_steps: stored.learningSteps,
    reps: stored.reps,
    lapses: stored.lapses,
    state: stored.state,
    // Never after `now` (ts-fsrs refuses a negative elapsed time): a review stamped by a clock
    // ahead of this one counts as just now.
    ...(stored.lastReview ? { last_review: stored.lastReview > now ? now : stored.lastReview } : {}),
  }
}

function toStored(card: Card): StoredCard {
  return {
    due: card.due,
    stability: card.stability,
    difficulty: card.difficulty,
    elapsedDays: card.elapsed_days,
    scheduledDays: card.scheduled_days,
    learningSteps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    state: card.state,
    lastReview: card.last_review ?? null,
  }
}

export const stateName = (state: number): CardState => cardStates[state] ?? 'new'

/** The client's view of a card's schedule; `version` 0 and due `now` for a word not yet seen. */
export function scheduleOf(stored: StoredCard | null, version: number, now: Date): CardSchedule {
  return {
    state: stateName(stored?.state ?? State.New),
    due: (stored?.due ?? now).toISOString(),
    reps: stored?.reps ?? 0,
    lapses: stored?.lapses ?? 0,
    lastReview: stored?.lastReview?.toISOString() ?? null,
    version,
  }
}

/** What each of the four grades, given `now`, would make of the card: its next due time. */
export function nextIntervals(parameters: FSRSParameters, stored: StoredCard | null, now: Date): NextInterval[] {
  const preview = schedulerOf(parameters).repeat(toCard(stored, now), now)
  return grades.map((grade) => {
    const due = preview[grade as Grade].card.due
    const seconds = Math.max(0, Math.round((due.getTime() - now.getTime()) / 1000))
    return { grade, due: due.toISOString(), seconds, label: intervalLabel(seconds) }
  })
}

/** The card after `grade` at `now`, and ts-fsrs's log of it (the card's state before). */
export function review(
  parameters: FSRSParameters,
  stored: StoredCard | null,
  now: Date,
  grade: PracticeGrade,
): { card: StoredCard; log: ReviewLog } {
  const { card, log } = schedulerOf(parameters).next(toCard(stored, now), now, grade)
  return { card: toStored(card), log }
}
