/**
 * Practice (spaced repetition of words, the daily goal and the streak): defaults, bounds and the
 * API's answer types, without a validation library (`practice-schemas.ts` has the schemas). The
 * rules of days and streaks are in `practice-days.ts`; docs/decisions/0019-practice.md says why.
 */
import type { PartOfSpeech } from './words'

export const NEW_WORDS_PER_DAY_DEFAULT = 10
export const NEW_WORDS_PER_DAY_MAX = 100
export const DAILY_GOAL_DEFAULT = 20
export const DAILY_GOAL_MAX = 1000
/** The time zone of a learner who has not sent theirs yet. */
export const TIME_ZONE_DEFAULT = 'UTC'

/**
 * The ways to practise (PRODUCT §13), in the order the account page lists them: each on or off,
 * the queue mixing those on that fit a card. All on by default.
 */
export const practiceWays = ['flashcard', 'type', 'choose', 'listen', 'gap'] as const
export type PracticeWay = (typeof practiceWays)[number]

/** "Reminder time": a whole hour of the learner's day, 0–23; 18:00 until chosen. */
export const REMINDER_HOUR_DEFAULT = 18
/** "Desired retention": the recall FSRS schedules for. */
export const DESIRED_RETENTION_MIN = 0.8
export const DESIRED_RETENTION_MAX = 0.97
export const DESIRED_RETENTION_DEFAULT = 0.9
/** Reviews a learner's own memory model is fitted from, at least. */
export const MEMORY_MODEL_MIN_REVIEWS = 400

/** Cards one queue request answers by default, and at most (fetching ahead for offline use). */
export const QUEUE_SIZE_DEFAULT = 20
export const QUEUE_SIZE_MAX = 200

/** How long after a grade it can be undone (server time), and only the person's latest grade. */
export const UNDO_WINDOW_MS = 10 * 60 * 1000
/**
 * How far back the time a client says it graded is believed (answers queued offline); older, or
 * ahead of the server, and the server's time is used.
 */
export const CLIENT_TIME_TRUST_MS = 24 * 60 * 60 * 1000
/** Days in the calendar of practice: 12 weeks, ending today. */
export const CALENDAR_DAYS = 84

/** The grades, keys 1–4 (FSRS ratings). */
export const grades = [1, 2, 3, 4] as const
export type PracticeGrade = (typeof grades)[number]

/** FSRS card states. */
export const cardStates = ['new', 'learning', 'review', 'relearning'] as const
export type CardState = (typeof cardStates)[number]

/** A time span as a person reads it: "10 min", "3 days", "4 months". */
export interface IntervalLabel {
  value: number
  unit: 'minute' | 'hour' | 'day' | 'month' | 'year'
}

const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * The span of `seconds` in its largest fitting unit, rounded: under an hour in minutes (at least
 * 1), under a day in hours, under a month (30 days) in days, under a year in months, then years
 * with one decimal under 10.
 */
export function intervalLabel(seconds: number): IntervalLabel {
  const s = Math.max(0, seconds)
  if (s < HOUR - 30) return { value: Math.max(1, Math.round(s / MINUTE)), unit: 'minute' }
  if (s < DAY - HOUR / 2) return { value: Math.max(1, Math.round(s / HOUR)), unit: 'hour' }
  if (s < 30 * DAY) return { value: Math.max(1, Math.round(s / DAY)), unit: 'day' }
  if (s < 365 * DAY) return { value: Math.min(11, Math.round(s / (30 * DAY))), unit: 'month' }
  const years = s / (365 * DAY)
  return { value: years < 10 ? Math.round(years * 10) / 10 : Math.round(years), unit: 'year' }
}

/** What one grade would do to a card: when it would be due next, and after how long. */
export interface NextInterval {
  grade: PracticeGrade
  due: string
  seconds: number
  label: IntervalLabel
}

/** A card's schedule as the learner's client sees it; null fields for a word not yet seen. */
export interface CardSchedule {
  state: CardState
  due: string
  reps: number
  lapses: number
  lastReview: string | null
  /**
   * Changes with every grade and undo; sent back with a grade (0 for a new word): a grade of a
   * card that changed since it was read is refused (409).
   */
  version: number
}

/** A card of the queue: the word, its schedule, and what each grade would do. */
export interface PracticeCard {
  wordId: number
  language: string
  text: string
  translationEn: string
  translationRu: string
  example: string | null
  partOfSpeech: PartOfSpeech | null
  /**
   * An imported card's sides as cleaned HTML (src/shared/card-field.ts: images and sounds of the
   * learner's media, formatting), drawn without raw HTML; null for a word written as text.
   */
  html: { front: string; back: string } | null
  /**
   * "Choose the answer": four texts, this card's own among them, the others of the same level (and
   * language) or deck, of its part of speech where there are enough, in the order shown (the same
   * for one review). Null when the way is off, the card is not `answerable` (practice-ways.ts) or
   * its level or deck has too few other words.
   */
  choices: string[] | null
  /** Due (`state` not new) or new today. */
  kind: 'due' | 'new'
  schedule: CardSchedule
  next: NextInterval[]
}

/**
 * Why new words are offered today, or not, so that the learner is told what to do:
 * - `available`: some are left today;
 * - `dailyLimitReached`: today's number of new words is reached (more tomorrow);
 * - `noLevel`: no current level is chosen (new words come from it);
 * - `noWords`: the current level has no words in the language learnt (yet);
 * - `levelLearned`: every word of the current level (in that language) has been started.
 */
export const newWordsStatuses = ['available', 'dailyLimitReached', 'noLevel', 'noWords', 'levelLearned'] as const
export type NewWordsStatus = (typeof newWordsStatuses)[number]

/** Where new words come from: the current level's code (null without one) and the language learnt (null: any). */
export interface NewWordsSource {
  status: NewWordsStatus
  levelCode: string | null
  language: string | null
}

export interface PracticeQueue {
  /** Due cards first (oldest due first), then new words of the current level. */
  cards: PracticeCard[]
  /** Cards due now, in all (the queue may hold fewer). */
  dueNow: number
  /** New words still allowed today (at most the daily number), in all. */
  newLeft: number
  newWords: NewWordsSource
  /**
   * Cards not due yet that come due before the learner's day ends (a word graded "Again" comes
   * back in a minute): how many, and when the first of them is due (null: none).
   */
  laterToday: { count: number; next: string | null }
  /** The ways to practise that are on (the settings'): the client picks each card's among them. */
  ways: PracticeWay[]
  /** The server's time the queue was made at. */
  at: string
}

/** The outcome of a grade (also answered again, as it was, to the same `clientId`). */
export interface GradeResult {
  clientId: string
  wordId: number
  grade: PracticeGrade
  /** The time the grade was counted at (the client's, when believed). */
  reviewedAt: string
  /** The learner's day it counts for. */
  day: string
  schedule: CardSchedule
  /** True when this grade was undone since. */
  undone: boolean
}

export interface UndoResult {
  clientId: string
  wordId: number
  /** The card as it was before the grade; state `new` when the word is new again. */
  schedule: CardSchedule
}

export interface PracticeSettings {
  newWordsPerDay: number
  dailyGoal: number
  /** IANA time zone (from the browser): the learner's day. */
  timeZone: string
  /** The ways to practise that are on (at least one), in `practiceWays` order. */
  ways: PracticeWay[]
  /** "Daily reminder by email", off by default, at `reminderHour` (0–23) of the learner's day. */
  reminderEnabled: boolean
  reminderHour: number
  /** 0.80–0.97. */
  desiredRetention: number
}

interface CalendarDay {
  date: string
  reviews: number
  goalMet: boolean
}

export interface PracticeToday {
  /** Today in the learner's time zone (YYYY-MM-DD). */
  day: string
  timeZone: string
  /** Cards due before the end of the learner's day (now or later today). */
  dueToday: number
  dueNow: number
  /** New words still allowed today and available at the current level. */
  newToday: number
  newWords: NewWordsSource
  /** Reviews given today (undone ones not counted). */
  done: number
  goal: number
  goalMet: boolean
  streak: number
  longest: number
  /** The last 84 days, oldest first, ending today. */
  calendar: CalendarDay[]
}
