import { and, desc, eq, isNotNull, sql } from 'drizzle-orm'
import { CLIENT_TIME_TRUST_MS, UNDO_WINDOW_MS, type GradeResult, type PracticeGrade, type UndoResult } from '@/shared/practice'
import { dayIn } from '@/shared/practice-days'
import type { GradeInput } from '@/shared/practice-schemas'
import type { Db } from '@/server/db/client'
import { FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION, violatedConstraint } from '@/server/db/errors'
import { param, preparedOnce } from '@/server/db/prepared'
import { deck, practiceCard, practiceSettings, reviewLog, user, word } from '@/server/db/schema'
import { publishEvent } from '@/server/events/bus'
import { ApiError } from '@/server/http/errors'
import { queueFirstFit } from './memory-model-job'
import { learningProfile, newWordsStarted } from './queue'
import { type StoredCard, review, scheduleOf } from './scheduler'
import { type Settings, lockedSettings, settingsOf } from './settings'

/**
 * A learner's grades and their undo: each counted once however often it is sent, one at a time
 * per person, stamped with its day and kept in the review log with the card before and after.
 * Every function takes the time (`now`, the server's clock or a test's). The rules are
 * docs/decisions/0019-practice.md.
 */

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
type CardRecord = typeof practiceCard.$inferSelect

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
 * Refuses (409 `new_word_not_allowed`) the first grade of a word the queue would not offer: a
 * course word not of the learner's current level (and language, when chosen), a card of someone
 * else's deck (404: it is not there for them), or past the new words of the day it is counted for
 * (an answer queued offline counts for its own day). Not its place in the order: the queue's order
 * is a suggestion that a word added or deleted meanwhile shifts. A card of the learner's own deck
 * is offered whether or not the deck is practised every day (a deck can be practised on its own).
 */
async function assertNewWordOffered(tx: Db, userId: string, wordId: number, settings: Settings, day: string): Promise<{ ofDeck: boolean }> {
  const [found] = await tx
    .select({ levelId: word.levelId, language: word.language, deckOwner: deck.userId })
    .from(word)
    .leftJoin(deck, eq(deck.id, word.deckId))
    .where(eq(word.id, wordId))
  if (!found || (found.levelId === null && found.deckOwner !== userId)) throw wordNotFound()
  if (found.levelId !== null) {
    const profile = await learningProfile(tx, userId)
    if (!profile?.levelId) throw new ApiError('new_word_not_allowed', 'New words come from your current level: choose one first.')
    if (found.levelId !== profile.levelId || (profile.language && found.language !== profile.language)) {
      throw new ApiError('new_word_not_allowed', 'This word is not one of the new words of your current level and language.')
    }
  }
  const perDay = settings.newWordsPerDay
  if ((await newWordsStarted(tx, userId, day)) >= perDay) {
    throw new ApiError('new_word_not_allowed', `No new word is left for ${day} (at most ${perDay} new word${perDay === 1 ? '' : 's'} a day).`)
  }
  return { ofDeck: found.levelId === null }
}

/**
 * Grades a card. The same `clientId` again answers the first result (`replayed`), counted once;
 * a card whose version is not the one the client read is refused (409): two tabs, one review.
 */
export async function gradeCard(db: Db, userId: string, input: GradeInput, now: Date): Promise<{ result: GradeResult; replayed: boolean }> {
  const graded = await gradeOnce(db, userId, input, now)
  // The person's other tabs and devices read their queue and counts again. Told once the grade
  // has committed, in a statement of its own: with the grade's, the live events' lock (which
  // orders every event) would be held until the grade's record is on disk, and every learner's
  // grades would commit one at a time. The event itself need not wait for the disk (`durable`
  // false): the grade it tells of is there already.
  if (!graded.replayed) await publishEvent(db, { type: 'practice', userId, data: { reason: 'review' } }, { durable: false })
  // The first memory model is queued when the reviews reach enough (a bounded count, while there is none).
  if (graded.modelless) await queueFirstFit(db, userId)
  return { result: graded.result, replayed: graded.replayed }
}

type Graded = { result: GradeResult; replayed: boolean; modelless?: boolean }

/** The learner's settings row and their card of the word, if any: one prepared statement. */
function gradeRead(db: Db, userId: string, wordId: number) {
  return preparedOnce(db, 'practice_grade_read', (name) =>
    db
      .select({ settings: practiceSettings, card: practiceCard })
      .from(user)
      .leftJoin(practiceSettings, eq(practiceSettings.userId, user.id))
      .leftJoin(practiceCard, and(eq(practiceCard.userId, user.id), eq(practiceCard.wordId, param('wordId'))))
      .where(eq(user.id, param('userId')))
      .prepare(name),
  ).execute({ userId, wordId })
}

/**
 * The grade of a card the learner has (most grades), written by one statement with no transaction
 * held while it is computed: the card as read, its version checked by the update (nothing written
 * when another grade came first: 409, or the answer sent again); the settings row locked before
 * the card, as every write of a person's practice does (a person's grades are counted one at a
 * time), and the log stamped with the goal as locked.
 */
async function gradeKnownCard(db: Db, userId: string, input: GradeInput, now: Date, settings: Settings, current: CardRecord): Promise<Graded> {
  const { version } = current
  if (input.version !== version) throw stale()
  const at = countedTime(input.reviewedAt ? new Date(input.reviewedAt) : undefined, now, current.lastReview)
  const day = reviewDay(settings.timeZone, at, now)
  const { card, log } = review(settings.fsrsParameters, current, at, input.grade)
  const time = (date: Date | null) => (date === null ? null : date.toISOString())
  const answer: unknown = await db.execute(sql`
    with settings_locked as (select ${practiceSettings.dailyGoal} as goal from ${practiceSettings} where ${practiceSettings.userId} = ${userId} for update),
    updated as (
      update ${practiceCard} set due = ${time(card.due)}::timestamptz, stability = ${card.stability}::float8,
        difficulty = ${card.difficulty}::float8, elapsed_days = ${card.elapsedDays}::int, scheduled_days = ${card.scheduledDays}::int,
        learning_steps = ${card.learningSteps}::int, reps = ${card.reps}::int, lapses = ${card.lapses}::int, state = ${card.state}::smallint,
        last_review = ${time(card.lastReview)}::timestamptz, version = ${version + 1}::int
      where user_id = ${userId} and word_id = ${input.wordId}::int and version = ${version}::int and exists (select 1 from settings_locked)
      returning 1),
    logged as (insert into ${reviewLog} (user_id, word_id, client_id, rating, state, due, stability, difficulty, elapsed_days, last_elapsed_days,
      scheduled_days, learning_steps, review, received_at, day, goal, card_before, card_after)
    select ${userId}::text, ${input.wordId}::int, ${input.clientId}::text, ${input.grade}::smallint, ${log.state}::smallint,
      ${time(log.due)}::timestamptz, ${log.stability}::float8, ${log.difficulty}::float8, ${log.elapsed_days}::int,
      ${log.last_elapsed_days}::int, ${log.scheduled_days}::int, ${log.learning_steps}::int, ${time(at)}::timestamptz,
      ${time(now)}::timestamptz, ${day}::date, settings_locked.goal, ${JSON.stringify(toLogged(current, version))}::jsonb,
      ${JSON.stringify(toLogged(card, version + 1))}::jsonb
    from settings_locked, updated
    returning 1)
    select 1 from logged`)
  // Both drivers (pg, PGlite) answer `rows`.
  if ((answer as { rows: unknown[] }).rows.length === 0) throw stale()
  const result: GradeResult = {
    clientId: input.clientId,
    wordId: input.wordId,
    grade: input.grade,
    reviewedAt: at.toISOString(),
    day,
    schedule: scheduleOf(card, version + 1, at),
    undone: false,
  }
  return { result, replayed: false, modelless: settings.memoryModel === null }
}

async function gradeOnce(db: Db, userId: string, input: GradeInput, now: Date): Promise<Graded> {
  try {
    // A grade sent again is found by the catch below: its card has moved on (409), or its log's
    // client id is taken (a unique violation).
    const [known] = await gradeRead(db, userId, input.wordId)
    if (known?.settings && known.card) return await gradeKnownCard(db, userId, input, now, settingsOf(known.settings), known.card)
    // A word's first grade (or the first grade of a learner with no settings yet): in a transaction.
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
      const offered = current ? undefined : await assertNewWordOffered(tx, userId, input.wordId, settings, day)
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
        // A deck's card is no longer one of its new cards.
        if (offered?.ofDeck) await tx.update(word).set({ practised: true }).where(eq(word.id, input.wordId))
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
      return { result: gradeResultOf(row as LogRecord, input.wordId), replayed: false, modelless: settings.memoryModel === null }
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
      } else {
        await tx.delete(practiceCard).where(where)
        // A deck's card new again is one of its new cards again (a course word's flag stays false).
        await tx.update(word).set({ practised: false }).where(and(eq(word.id, latest.wordId), isNotNull(word.deckId)))
      }
    }
    await tx.update(reviewLog).set({ undoneAt: now }).where(eq(reviewLog.id, latest.id))
    await publishEvent(tx, { type: 'practice', userId, data: { reason: 'undo' } })
    return { clientId, wordId: latest.wordId ?? 0, schedule: scheduleOf(before, version, now) }
  })
}
