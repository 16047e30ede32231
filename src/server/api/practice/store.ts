import { type SQL, and, asc, count, desc, eq, gt, isNull, lte, lt, notExists, sql } from 'drizzle-orm'
import type { FSRSParameters } from 'ts-fsrs'
import {
  CALENDAR_DAYS,
  CLIENT_TIME_TRUST_MS,
  DAILY_GOAL_DEFAULT,
  NEW_WORDS_PER_DAY_DEFAULT,
  TIME_ZONE_DEFAULT,
  UNDO_WINDOW_MS,
  type GradeResult,
  type NewWordsSource,
  type NewWordsStatus,
  type PracticeCard,
  type PracticeGrade,
  type PracticeQueue,
  type PracticeSettings,
  type PracticeToday,
  type UndoResult,
} from '@/shared/practice'
import { bridgedByZoneChange, calendar, canonicalTimeZone, dayIn, endOfDay, streaks } from '@/shared/practice-days'
import type { GradeInput, PracticeSettingsInput } from '@/shared/practice-schemas'
import type { PartOfSpeech } from '@/shared/words'
import type { Db } from '@/server/db/client'
import { FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION, violatedConstraint } from '@/server/db/errors'
import { languageLevel, learnerProfile, practiceCard, practiceSettings, reviewLog, word } from '@/server/db/schema'
import { publishEvent } from '@/server/events/bus'
import { ApiError } from '@/server/http/errors'
import { type StoredCard, defaultFsrsParameters, nextIntervals, review, scheduleOf } from './scheduler'

/**
 * One person's practice: the queue, grades and their undo, today's summary and the settings.
 * Every function takes the time (`now`, the server's clock or a test's): nothing here reads it.
 * The rules are docs/decisions/0019-practice.md.
 */

interface Settings {
  newWordsPerDay: number
  dailyGoal: number
  timeZone: string
  fsrsParameters: FSRSParameters
  bridgedDays: string[]
}

const defaults = (): Settings => ({
  newWordsPerDay: NEW_WORDS_PER_DAY_DEFAULT,
  dailyGoal: DAILY_GOAL_DEFAULT,
  timeZone: TIME_ZONE_DEFAULT,
  fsrsParameters: defaultFsrsParameters(),
  bridgedDays: [],
})

/** The person's settings, or the defaults while they have none (a read writes nothing). */
async function readSettings(db: Db, userId: string): Promise<Settings> {
  const [row] = await db.select().from(practiceSettings).where(eq(practiceSettings.userId, userId))
  if (!row) return defaults()
  // Written only by this module, from ts-fsrs's own parameters.
  return { ...row, fsrsParameters: row.fsrsParameters as FSRSParameters }
}

const publicSettings = ({ newWordsPerDay, dailyGoal, timeZone }: Settings): PracticeSettings => ({ newWordsPerDay, dailyGoal, timeZone })

/** A card as kept in the log (JSON): its dates as ISO strings, and its version. */
type LoggedCard = Omit<StoredCard, 'due' | 'lastReview'> & { due: string; lastReview: string | null; version: number }

const toLogged = (card: StoredCard, version: number): LoggedCard => ({
  ...card,
  due: card.due.toISOString(),
  lastReview: card.lastReview?.toISOString() ?? null,
  version,
})

const fromLogged = (card: LoggedCard): StoredCard & { version: number } => ({
  ...card,
  due: new Date(card.due),
  lastReview: card.lastReview === null ? null : new Date(card.lastReview),
})

const cardColumns = (card: StoredCard) => ({
  due: card.due,
  stability: card.stability,
  difficulty: card.difficulty,
  elapsedDays: card.elapsedDays,
  scheduledDays: card.scheduledDays,
  learningSteps: card.learningSteps,
  reps: card.reps,
  lapses: card.lapses,
  state: card.state,
  lastReview: card.lastReview,
})

/** A review that counts: not undone. */
const counted = (userId: string) => and(eq(reviewLog.userId, userId), isNull(reviewLog.undoneAt))

/** The learner's current level (its code) and language, if they have a profile. */
async function learningProfile(db: Db, userId: string) {
  const [profile] = await db
    .select({ levelId: learnerProfile.currentLevelId, levelCode: languageLevel.code, language: learnerProfile.language })
    .from(learnerProfile)
    .leftJoin(languageLevel, eq(languageLevel.id, learnerProfile.currentLevelId))
    .where(eq(learnerProfile.userId, userId))
  return profile
}

/** How many new words the learner started on `day`: its first grades, not undone. */
async function newWordsStarted(db: Db, userId: string, day: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(reviewLog).where(and(counted(userId), eq(reviewLog.day, day), isNull(reviewLog.cardBefore)))
  return row?.n ?? 0
}

/**
 * New words the person may still start today, the condition of the words that are new to them (of
 * their current level, and language when chosen, never graded), and why there are none when there
 * are none. None without a level.
 */
async function newWords(
  db: Db,
  userId: string,
  settings: Settings,
  today: string,
): Promise<{ allowed: number; where: SQL | undefined; source: NewWordsSource }> {
  const [profile, introduced] = await Promise.all([learningProfile(db, userId), newWordsStarted(db, userId, today)])
  const source = { levelCode: profile?.levelCode ?? null, language: profile?.language ?? null }
  if (!profile?.levelId) return { allowed: 0, where: undefined, source: { status: 'noLevel', ...source } }
  const ofLevel = and(eq(word.levelId, profile.levelId), profile.language ? eq(word.language, profile.language) : undefined)
  const unseen = notExists(
    db.select({ one: sql`1` }).from(practiceCard).where(and(eq(practiceCard.userId, userId), eq(practiceCard.wordId, word.id))),
  )
  // Counted no further than today's allowance (at least one, to tell "all started" from "the
  // daily number reached"): the cost does not grow with the level's words.
  const allowance = Math.max(0, settings.newWordsPerDay - introduced)
  const sample = db.select({ one: sql`1` }).from(word).where(and(ofLevel, unseen)).limit(Math.max(allowance, 1)).as('sample')
  const [unseenCount] = await db.select({ n: count() }).from(sample)
  const unseenWords = unseenCount?.n ?? 0
  const anyWord = unseenWords > 0 || (await db.select({ id: word.id }).from(word).where(ofLevel).limit(1)).length > 0
  const allowed = Math.min(allowance, unseenWords)
  const status: NewWordsStatus = !anyWord
    ? 'noWords'
    : unseenWords === 0
      ? 'levelLearned'
      : allowed === 0
        ? 'dailyLimitReached'
        : 'available'
  return { allowed, where: and(ofLevel, unseen), source: { status, ...source } }
}

type WordRecord = typeof word.$inferSelect

function toPracticeCard(
  found: WordRecord,
  card: (StoredCard & { version: number }) | null,
  parameters: FSRSParameters,
  now: Date,
): PracticeCard {
  return {
    wordId: found.id,
    language: found.language,
    text: found.text,
    translationEn: found.translationEn,
    translationRu: found.translationRu,
    example: found.example,
    partOfSpeech: found.partOfSpeech as PartOfSpeech | null,
    kind: card ? 'due' : 'new',
    schedule: scheduleOf(card, card?.version ?? 0, now),
    next: nextIntervals(parameters, card, now),
  }
}

/**
 * The learner's cards due before their day ends, in one range of `practice_card_due_idx`: how many
 * are due now, how many today, and of those not due yet, how many and when the first is.
 */
async function dueCounts(db: Db, userId: string, timeZone: string, now: Date) {
  const notYet = gt(practiceCard.due, now)
  const [row] = await db
    .select({
      dueNow: sql<number>`count(*) filter (where ${lte(practiceCard.due, now)})`.mapWith(Number),
      dueToday: count(),
      later: sql<number>`count(*) filter (where ${notYet})`.mapWith(Number),
      next: sql<Date | null>`min(${practiceCard.due}) filter (where ${notYet})`.mapWith(practiceCard.due),
    })
    .from(practiceCard)
    .where(and(eq(practiceCard.userId, userId), lt(practiceCard.due, endOfDay(timeZone, now))))
  return {
    dueNow: row?.dueNow ?? 0,
    dueToday: row?.dueToday ?? 0,
    laterToday: { count: row?.later ?? 0, next: row?.next?.toISOString() ?? null },
  }
}

/** The cards to practise now: due ones (oldest due first), then new words, `limit` in all. */
export async function practiceQueue(db: Db, userId: string, now: Date, limit: number): Promise<PracticeQueue> {
  const settings = await readSettings(db, userId)
  const today = dayIn(settings.timeZone, now)
  const [due, counts, fresh] = await Promise.all([
    db
      .select({ card: practiceCard, word })
      .from(practiceCard)
      .innerJoin(word, eq(word.id, practiceCard.wordId))
      .where(and(eq(practiceCard.userId, userId), lte(practiceCard.due, now)))
      .orderBy(asc(practiceCard.due), asc(practiceCard.wordId))
      .limit(limit),
    dueCounts(db, userId, settings.timeZone, now),
    newWords(db, userId, settings, today),
  ])
  const room = Math.min(fresh.allowed, limit - due.length)
  const newOnes = room > 0 ? await db.select().from(word).where(fresh.where).orderBy(asc(word.id)).limit(room) : []
  const cards = [
    ...due.map((row) => toPracticeCard(row.word, row.card, settings.fsrsParameters, now)),
    ...newOnes.map((row) => toPracticeCard(row, null, settings.fsrsParameters, now)),
  ]
  return {
    cards,
    dueNow: counts.dueNow,
    newLeft: fresh.allowed,
    newWords: fresh.source,
    laterToday: counts.laterToday,
    at: now.toISOString(),
  }
}

/**
 * When a grade counts: the client's time when it is within the last CLIENT_TIME_TRUST_MS (an
 * answer queued offline), else the server's; never before the card's previous review.
 */
function countedTime(claimed: Date | undefined, now: Date, lastReview: Date | null): Date {
  const believed = claimed && claimed.getTime() <= now.getTime() && now.getTime() - claimed.getTime() <= CLIENT_TIME_TRUST_MS
  const time = believed ? claimed : now
  return lastReview && time < lastReview ? lastReview : time
}

/**
 * The learner's date of a review counted at `at`: never after their today by the server's clock,
 * which no date on Earth is after (a card last reviewed by an instance whose clock is ahead).
 */
function reviewDay(timeZone: string, at: Date, now: Date): string {
  const day = dayIn(timeZone, at)
  const today = dayIn(timeZone, now)
  return day > today ? today : day
}

type LogRecord = typeof reviewLog.$inferSelect

/** The result of the grade `log` records, of the word `wordId` (its log keeps no word once deleted). */
function gradeResultOf(log: LogRecord, wordId: number): GradeResult {
  const after = fromLogged(log.cardAfter as LoggedCard)
  return {
    clientId: log.clientId,
    wordId,
    grade: log.rating as PracticeGrade,
    reviewedAt: log.review.toISOString(),
    day: log.day,
    schedule: scheduleOf(after, after.version, log.review),
    undone: log.undoneAt !== null,
  }
}

const wordNotFound = () => new ApiError('not_found', 'Word not found')

/** The grade already counted with `clientId`, if any; 404 when its word has been deleted since. */
async function loggedGrade(db: Db, userId: string, clientId: string): Promise<GradeResult | undefined> {
  const [log] = await db.select().from(reviewLog).where(and(eq(reviewLog.userId, userId), eq(reviewLog.clientId, clientId)))
  if (!log) return undefined
  if (log.wordId === null) throw wordNotFound()
  return gradeResultOf(log, log.wordId)
}

const stale = () => new ApiError('conflict', 'This card was graded meanwhile (in another tab?): read the queue again.')

/**
 * Refuses (409 `new_word_not_allowed`) the first grade of a word the queue would not offer: one not
 * of the learner's current level (and language, when chosen), or past the new words of the day it
 * is counted for (an answer queued offline counts for its own day). Not its place in the level's
 * order: the queue's order is a suggestion that a word added or deleted meanwhile shifts.
 */
async function assertNewWordOffered(tx: Db, userId: string, wordId: number, settings: Settings, day: string): Promise<void> {
  const [found] = await tx.select({ levelId: word.levelId, language: word.language }).from(word).where(eq(word.id, wordId))
  if (!found) throw wordNotFound()
  const profile = await learningProfile(tx, userId)
  if (!profile?.levelId) throw new ApiError('new_word_not_allowed', 'New words come from your current level: choose one first.')
  if (found.levelId !== profile.levelId || (profile.language && found.language !== profile.language)) {
    throw new ApiError('new_word_not_allowed', 'This word is not one of the new words of your current level and language.')
  }
  const perDay = settings.newWordsPerDay
  if ((await newWordsStarted(tx, userId, day)) >= perDay) {
    throw new ApiError('new_word_not_allowed', `No new word is left for ${day} (at most ${perDay} new word${perDay === 1 ? '' : 's'} a day).`)
  }
}

/** The settings row, made with the defaults if missing, locked until the transaction ends. */
async function lockedSettings(tx: Db, userId: string): Promise<Settings> {
  const locked = () => tx.select().from(practiceSettings).where(eq(practiceSettings.userId, userId)).for('update')
  let [row] = await locked()
  if (!row) {
    await tx
      .insert(practiceSettings)
      .values({ userId, ...defaults() })
      .onConflictDoNothing()
    ;[row] = await locked()
  }
  return { ...(row as typeof practiceSettings.$inferSelect), fsrsParameters: row?.fsrsParameters as FSRSParameters }
}

/**
 * Grades a card. The same `clientId` again answers the first result (`replayed`), counted once;
 * a card whose version is not the one the client read is refused (409): two tabs, one review.
 */
export async function gradeCard(db: Db, userId: string, input: GradeInput, now: Date): Promise<{ result: GradeResult; replayed: boolean }> {
  const graded = await gradeOnce(db, userId, input, now)
  // The person's other tabs and devices read their queue and counts again. Told once the grade
  // has committed, in a transaction of its own: inside the grade's, the live events' lock (which
  // orders every event) would be held across the grade's round trips, and every learner's grades
  // would commit one at a time.
  if (!graded.replayed) await publishEvent(db, { type: 'practice', userId, data: { reason: 'review' } })
  return graded
}

async function gradeOnce(db: Db, userId: string, input: GradeInput, now: Date): Promise<{ result: GradeResult; replayed: boolean }> {
  try {
    // A grade sent again is found by the catch below: its card has moved on (409), or its log's
    // client id is taken (a unique violation).
    return await db.transaction(async (tx) => {
      // Locked: a person's grades are counted one at a time (the day's goal, the new words).
      const settings = await lockedSettings(tx, userId)
      const [current] = await tx
        .select()
        .from(practiceCard)
        .where(and(eq(practiceCard.userId, userId), eq(practiceCard.wordId, input.wordId)))
        .for('update')
      const version = current?.version ?? 0
      if (input.version !== version) throw stale()
      const at = countedTime(input.reviewedAt ? new Date(input.reviewedAt) : undefined, now, current?.lastReview ?? null)
      const day = reviewDay(settings.timeZone, at, now)
      if (!current) await assertNewWordOffered(tx, userId, input.wordId, settings, day)
      const { card, log } = review(settings.fsrsParameters, current ?? null, at, input.grade)
      if (current) {
        await tx
          .update(practiceCard)
          .set({ ...cardColumns(card), version: version + 1 })
          .where(and(eq(practiceCard.userId, userId), eq(practiceCard.wordId, input.wordId)))
      } else {
        // A word's first grade: a word that does not exist is found by its foreign key (a card
        // of a word exists only while the word does).
        const inserted = await tx
          .insert(practiceCard)
          .values({ userId, wordId: input.wordId, ...cardColumns(card), version: 1 })
          .onConflictDoNothing()
          .returning({ version: practiceCard.version })
          .catch((error: unknown) => {
            throw violatedConstraint(error, FOREIGN_KEY_VIOLATION) === 'practice_card_word_id_word_id_fk' ? wordNotFound() : error
          })
        if (inserted.length === 0) throw stale()
      }
      const [row] = await tx
        .insert(reviewLog)
        .values({
          userId,
          wordId: input.wordId,
          clientId: input.clientId,
          rating: input.grade,
          state: log.state,
          due: log.due,
          stability: log.stability,
          difficulty: log.difficulty,
          elapsedDays: log.elapsed_days,
          lastElapsedDays: log.last_elapsed_days,
          scheduledDays: log.scheduled_days,
          learningSteps: log.learning_steps,
          review: at,
          receivedAt: now,
          day,
          goal: settings.dailyGoal,
          cardBefore: current ? toLogged(current, version) : null,
          cardAfter: toLogged(card, version + 1),
        })
        .returning()
      return { result: gradeResultOf(row as LogRecord, input.wordId), replayed: false }
    })
  } catch (error) {
    // The same answer sent again, or twice at once: the first answer is given again (a 404 once
    // its word has been deleted: the grade stays counted; an undone new word's grade, whose
    // allowance may be spent since, answers as it was).
    const raced =
      error instanceof ApiError
        ? error.code === 'conflict' || error.code === 'not_found' || error.code === 'new_word_not_allowed'
        : violatedConstraint(error, UNIQUE_VIOLATION) !== undefined
    if (!raced) throw error
    const earlier = await loggedGrade(db, userId, input.clientId)
    if (earlier) return { result: earlier, replayed: true }
    throw error instanceof ApiError ? error : stale()
  }
}

/**
 * Undoes the person's latest grade, named by its `clientId`, within UNDO_WINDOW_MS of its arrival:
 * the card is as it was before (a new word is new again), the grade no longer counts.
 */
export async function undoGrade(db: Db, userId: string, clientId: string, now: Date): Promise<UndoResult> {
  return db.transaction(async (tx) => {
    await lockedSettings(tx, userId)
    const [latest] = await tx.select().from(reviewLog).where(eq(reviewLog.userId, userId)).orderBy(desc(reviewLog.id)).limit(1)
    if (!latest || latest.clientId !== clientId) throw new ApiError('conflict', 'Only your latest grade can be undone.')
    if (latest.undoneAt) throw new ApiError('conflict', 'This grade was undone already.')
    if (now.getTime() - latest.receivedAt.getTime() > UNDO_WINDOW_MS) {
      throw new ApiError('conflict', `A grade can be undone for ${UNDO_WINDOW_MS / 60_000} minutes only.`)
    }
    const before = latest.cardBefore ? fromLogged(latest.cardBefore as LoggedCard) : null
    let version = 0
    if (latest.wordId !== null) {
      const where = and(eq(practiceCard.userId, userId), eq(practiceCard.wordId, latest.wordId))
      if (before) {
        const [restored] = await tx
          .update(practiceCard)
          .set({ ...cardColumns(before), version: sql`${practiceCard.version} + 1` })
          .where(where)
          .returning({ version: practiceCard.version })
        version = restored?.version ?? 0
      } else await tx.delete(practiceCard).where(where)
    }
    await tx.update(reviewLog).set({ undoneAt: now }).where(eq(reviewLog.id, latest.id))
    await publishEvent(tx, { type: 'practice', userId, data: { reason: 'undo' } })
    return { clientId, wordId: latest.wordId ?? 0, schedule: scheduleOf(before, version, now) }
  })
}

/** Today in the learner's time zone: what is due, what is new, the goal, the streak, the calendar. */
export async function practiceToday(db: Db, userId: string, now: Date): Promise<PracticeToday> {
  const settings = await readSettings(db, userId)
  const today = dayIn(settings.timeZone, now)
  const [counts, days, fresh] = await Promise.all([
    dueCounts(db, userId, settings.timeZone, now),
    db
      .select({
        date: reviewLog.day,
        reviews: count(),
        // The day's goal: its last review's (a change later that day is written onto its reviews).
        goal: sql<number>`(array_agg(${reviewLog.goal} order by ${reviewLog.id} desc))[1]`.mapWith(Number),
      })
      .from(reviewLog)
      .where(counted(userId))
      .groupBy(reviewLog.day),
    newWords(db, userId, settings, today),
  ])
  const input = { days, today, bridged: settings.bridgedDays }
  const { current, longest } = streaks(input)
  const todays = days.find((day) => day.date === today)
  const done = todays?.reviews ?? 0
  // The current goal, unless today is a date that came again (a move west) with its own.
  const goal = todays?.goal ?? settings.dailyGoal
  return {
    day: today,
    timeZone: settings.timeZone,
    dueToday: counts.dueToday,
    dueNow: counts.dueNow,
    newToday: fresh.allowed,
    newWords: fresh.source,
    done,
    goal,
    goalMet: done >= goal,
    streak: current,
    longest,
    calendar: calendar(input, CALENDAR_DAYS),
  }
}

export async function readPracticeSettings(db: Db, userId: string): Promise<PracticeSettings> {
  return publicSettings(await readSettings(db, userId))
}

/**
 * Saves the settings, the time zone by its canonical name (validated, so it has one); a new zone
 * may bridge the dates it leaves behind (practice-days.ts). A new goal is today's at once: it is
 * written onto today's reviews, so that today is judged by it when it has ended too.
 */
export async function savePracticeSettings(db: Db, userId: string, input: PracticeSettingsInput, now: Date): Promise<PracticeSettings> {
  const timeZone = canonicalTimeZone(input.timeZone) ?? input.timeZone
  return db.transaction(async (tx) => {
    const settings = await lockedSettings(tx, userId)
    const bridged = settings.timeZone === timeZone ? [] : bridgedByZoneChange(settings.timeZone, timeZone, now, settings.bridgedDays)
    const [row] = await tx
      .update(practiceSettings)
      .set({ ...input, timeZone, bridgedDays: [...settings.bridgedDays, ...bridged], updatedAt: now })
      .where(eq(practiceSettings.userId, userId))
      .returning()
    if (input.dailyGoal !== settings.dailyGoal) {
      await tx
        .update(reviewLog)
        .set({ goal: input.dailyGoal })
        .where(and(eq(reviewLog.userId, userId), eq(reviewLog.day, dayIn(timeZone, now))))
    }
    await publishEvent(tx, { type: 'practice', userId, data: { reason: 'settings' } })
    return publicSettings({ ...(row as typeof practiceSettings.$inferSelect), fsrsParameters: settings.fsrsParameters })
  })
}
