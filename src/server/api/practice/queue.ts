import { and, asc, count, eq, gt, isNull, lte, lt, notExists, or, sql } from 'drizzle-orm'
import type { FSRSParameters } from 'ts-fsrs'
import type { NewWordsSource, NewWordsStatus, PracticeCard, PracticeQueue } from '@/shared/practice'
import { dayIn, endOfDay } from '@/shared/practice-days'
import type { PartOfSpeech } from '@/shared/words'
import type { Db } from '@/server/db/client'
import { param, preparedOnce } from '@/server/db/prepared'
import { deck, languageLevel, learnerProfile, practiceCard, practiceSettings, reviewLog, user, word } from '@/server/db/schema'
import { ApiError } from '@/server/http/errors'
import { type LevelWordPools, choicesOf, htmlOf } from './choices'
import { type StoredCard, nextIntervals, scheduleOf } from './scheduler'
import { type Settings, settingsOf } from './settings'

/**
 * The cards a learner practises now: due ones, then the new words of their current level that the
 * day's allowance leaves, each with what its grades would do. Every function takes the time (`now`,
 * the server's clock or a test's). The rules are docs/decisions/0019-practice.md.
 */

/** A review that counts: not undone. */
export const counted = (userId: string) => and(eq(reviewLog.userId, userId), isNull(reviewLog.undoneAt))

type WordRecord = typeof word.$inferSelect

/** The learner's current level (its code) and language, if they have a profile. */
export async function learningProfile(db: Db, userId: string) {
  const [profile] = await db
    .select({ levelId: learnerProfile.currentLevelId, levelCode: languageLevel.code, language: learnerProfile.language })
    .from(learnerProfile)
    .leftJoin(languageLevel, eq(languageLevel.id, learnerProfile.currentLevelId))
    .where(eq(learnerProfile.userId, userId))
  return profile
}

/** How many new words the learner started on `day`: its first grades, not undone. */
export async function newWordsStarted(db: Db, userId: string, day: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(reviewLog).where(and(counted(userId), eq(reviewLog.day, day), isNull(reviewLog.cardBefore)))
  return row?.n ?? 0
}

/**
 * The queue's statements are prepared (db/prepared.ts), one per shape: the learner and the deck are
 * their values `userId` and `deckId`.
 */
const learner = param('userId')
const oneDeck = param('deckId')

/** The cards the daily practice takes: course words, and the cards of decks practised every day. */
const practisedDecks = sql`${word.deckId} in (select ${deck.id} from ${deck} where ${deck.userId} = ${learner} and ${deck.practiseDaily})`

export const deckNotFound = () => new ApiError('not_found', 'Deck not found')

/** Whether the deck is one of the learner's. */
export async function ownsDeck(db: Db, userId: string, deckId: number): Promise<boolean> {
  const [row] = await db.select({ id: deck.id }).from(deck).where(and(eq(deck.id, deckId), eq(deck.userId, userId)))
  return row !== undefined
}

/** Where the cards come from: the daily practice (course words and practised decks), or one deck. */
export type QueueScope = { deckId?: number }

/** The shape of a scope's statements, and their values. */
const shapeOf = (scope: QueueScope) => (scope.deckId === undefined ? 'daily' : 'deck')
const scopeValues = (userId: string, scope: QueueScope) => ({ userId, deckId: scope.deckId ?? null })

/** A card that is not suspended, of a word in the scope (the join of `word` being there). */
function inScope(shape: 'daily' | 'deck') {
  return and(eq(practiceCard.suspended, false), shape === 'daily' ? or(isNull(word.deckId), practisedDecks) : eq(word.deckId, oneDeck))
}

/**
 * The same scope as `inScope`, as a condition on `practice_card` alone (no join of `word`): the
 * counts read every card due today. A learner who practises all their decks every day (the usual
 * case) has it decided once, by the uncorrelated first test; only one with a deck left out has each
 * card's word looked up.
 */
function cardInScope(shape: 'daily' | 'deck') {
  if (shape === 'deck') return sql`${practiceCard.wordId} in (select ${word.id} from ${word} where ${word.deckId} = ${oneDeck})`
  return sql`(not exists (select 1 from ${deck} where ${deck.userId} = ${learner} and not ${deck.practiseDaily})
    or exists (select 1 from ${word} where ${word.id} = ${practiceCard.wordId} and (${word.deckId} is null or ${practisedDecks})))`
}

/**
 * What the queue, today's summary and the reminders read first of a learner, in one statement:
 * their settings, their current level and language, whether they practise decks every day, and
 * the new words they started on each date their today may be (from the day before the UTC date to
 * the day after: every time zone's today is one of them).
 */
export interface LearnerState {
  settings: Settings
  levelId: number | null
  levelCode: string | null
  language: string | null
  practisesDecks: boolean
  /** New words started (first grades, not undone) by date. */
  started: Record<string, number>
}

export async function learnerState(db: Db, userId: string, now: Date): Promise<LearnerState> {
  const statement = preparedOnce(db, 'practice_learner', (name) => {
    const utcDay = param('utcDay')
    return db
      .select({
        settings: practiceSettings,
        levelId: learnerProfile.currentLevelId,
        levelCode: languageLevel.code,
        language: learnerProfile.language,
        practisesDecks: sql<boolean>`exists (select 1 from ${deck} where ${deck.userId} = ${learner} and ${deck.practiseDaily})`,
        // A range of review_log_new_idx (user_id, day where card_before is null).
        started: sql<Record<string, number> | null>`(select json_object_agg(started.day, started.n) from (
          select ${reviewLog.day} as day, count(*) as n from ${reviewLog}
          where ${reviewLog.userId} = ${learner} and ${reviewLog.cardBefore} is null and ${reviewLog.undoneAt} is null
            and ${reviewLog.day} between ${utcDay}::date - 1 and ${utcDay}::date + 1
          group by ${reviewLog.day}) as started)`,
      })
      .from(user)
      .leftJoin(practiceSettings, eq(practiceSettings.userId, user.id))
      .leftJoin(learnerProfile, eq(learnerProfile.userId, user.id))
      .leftJoin(languageLevel, eq(languageLevel.id, learnerProfile.currentLevelId))
      .where(eq(user.id, learner))
      .prepare(name)
  })
  const [row] = await statement.execute({ userId, utcDay: dayIn('UTC', now) })
  return {
    settings: settingsOf(row?.settings),
    levelId: row?.levelId ?? null,
    levelCode: row?.levelCode ?? null,
    language: row?.language ?? null,
    practisesDecks: row?.practisesDecks ?? false,
    started: row?.started ?? {},
  }
}

/**
 * New words the person may still start today: the one daily allowance, course words first (of
 * their current level, and language when chosen), then the new cards of their practised decks (or
 * of the one deck practised); the first of each, as many as the allowance at most; and why there
 * are none when there are none.
 */
export async function newWords(
  db: Db,
  userId: string,
  state: LearnerState,
  today: string,
  scope: QueueScope = {},
): Promise<{ allowed: number; course: WordRecord[]; decks: WordRecord[]; source: NewWordsSource }> {
  const { settings, levelId, language } = state
  const introduced = state.started[today] ?? 0
  const source = { levelCode: state.levelCode, language }
  const shape = shapeOf(scope)
  // Read no further than today's allowance (at least one, to tell "all started" from "the daily
  // number reached"): the cost does not grow with the level's words or the decks' cards. What is
  // read is also what is counted.
  const allowance = Math.max(0, settings.newWordsPerDay - introduced)
  const first = Math.max(allowance, 1)
  const ofLevel = levelId && shape === 'daily' ? and(eq(word.levelId, levelId), language ? eq(word.language, language) : undefined) : undefined
  const courseWords = () =>
    // A course word is new while the learner has no practice card of it.
    preparedOnce(db, `practice_new_course${language ? '_language' : ''}`, (name) =>
      db
        .select()
        .from(word)
        .where(
          and(
            eq(word.levelId, param('levelId')),
            language ? eq(word.language, param('language')) : undefined,
            notExists(db.select({ one: sql`1` }).from(practiceCard).where(and(eq(practiceCard.userId, learner), eq(practiceCard.wordId, word.id)))),
          ),
        )
        .orderBy(asc(word.id))
        .limit(param('limit'))
        .prepare(name),
    ).execute({ userId, levelId, language, limit: first })
  const deckCards = () =>
    // A deck's card is new while it is not `practised` (the deck's new cards are one index range).
    preparedOnce(db, `practice_new_cards_${shape}`, (name) =>
      db
        .select()
        .from(word)
        .where(and(shape === 'daily' ? practisedDecks : eq(word.deckId, oneDeck), eq(word.practised, false)))
        .orderBy(asc(word.deckId), asc(word.id))
        .limit(param('limit'))
        .prepare(name),
    ).execute({ ...scopeValues(userId, scope), limit: first })
  const [course, cards] = await Promise.all([ofLevel ? courseWords() : [], shape === 'deck' || state.practisesDecks ? deckCards() : []])
  const allowed = Math.min(allowance, course.length + cards.length)
  const result = { allowed, course, decks: cards }
  if (!ofLevel) {
    // One deck practised, or no level but decks: the decks' new cards say what is left.
    const status: NewWordsStatus =
      cards.length === 0 ? (shape === 'daily' ? 'noLevel' : 'levelLearned') : allowed === 0 ? 'dailyLimitReached' : 'available'
    return { ...result, source: { status, ...source } }
  }
  const anyWord = course.length > 0 || (await db.select({ id: word.id }).from(word).where(ofLevel).limit(1)).length > 0
  const status: NewWordsStatus = !anyWord
    ? 'noWords'
    : course.length + cards.length === 0
      ? 'levelLearned'
      : allowed === 0
        ? 'dailyLimitReached'
        : 'available'
  return { ...result, source: { status, ...source } }
}

function toPracticeCard(
  found: WordRecord,
  card: (StoredCard & { version: number }) | null,
  parameters: FSRSParameters,
  now: Date,
  choices: string[] | null,
): PracticeCard {
  return {
    wordId: found.id,
    language: found.language,
    text: found.text,
    translationEn: found.translationEn,
    translationRu: found.translationRu,
    example: found.example,
    partOfSpeech: found.partOfSpeech as PartOfSpeech | null,
    html: htmlOf(found),
    choices,
    kind: card ? 'due' : 'new',
    schedule: scheduleOf(card, card?.version ?? 0, now),
    next: nextIntervals(parameters, card, now),
  }
}

/**
 * The learner's cards due before their day ends, in one range of `practice_card_due_idx`: how many
 * are due now, how many today, and of those not due yet, how many and when the first is.
 */
export async function dueCounts(db: Db, userId: string, timeZone: string, now: Date, scope: QueueScope = {}) {
  const shape = shapeOf(scope)
  const statement = preparedOnce(db, `practice_due_counts_${shape}`, (name) => {
    const notYet = gt(practiceCard.due, param('now'))
    return db
      .select({
        dueNow: sql<number>`count(*) filter (where ${lte(practiceCard.due, param('now'))})`.mapWith(Number),
        dueToday: count(),
        later: sql<number>`count(*) filter (where ${notYet})`.mapWith(Number),
        next: sql<Date | null>`min(${practiceCard.due}) filter (where ${notYet})`.mapWith(practiceCard.due),
      })
      .from(practiceCard)
      .where(
        and(
          eq(practiceCard.userId, learner),
          lt(practiceCard.due, param('endOfDay')),
          gt(practiceCard.state, 0),
          eq(practiceCard.suspended, false),
          cardInScope(shape),
        ),
      )
      .prepare(name)
  })
  const [row] = await statement.execute({ ...scopeValues(userId, scope), now: now.toISOString(), endOfDay: endOfDay(timeZone, now).toISOString() })
  return {
    dueNow: row?.dueNow ?? 0,
    dueToday: row?.dueToday ?? 0,
    laterToday: { count: row?.later ?? 0, next: row?.next?.toISOString() ?? null },
  }
}

/**
 * The cards to practise now: due ones (oldest due first), then new words, `limit` in all; `pools`,
 * the words of levels kept for the choices.
 */
export async function practiceQueue(db: Db, pools: LevelWordPools, userId: string, now: Date, limit: number, scope: QueueScope = {}): Promise<PracticeQueue> {
  const state = await learnerState(db, userId, now)
  const { settings } = state
  const today = dayIn(settings.timeZone, now)
  const shape = shapeOf(scope)
  const duePage = preparedOnce(db, `practice_due_${shape}`, (name) =>
    db
      .select({ card: practiceCard, word })
      .from(practiceCard)
      .innerJoin(word, eq(word.id, practiceCard.wordId))
      .where(and(eq(practiceCard.userId, learner), lte(practiceCard.due, param('now')), gt(practiceCard.state, 0), inScope(shape)))
      .orderBy(asc(practiceCard.due), asc(practiceCard.wordId))
      .limit(param('limit'))
      .prepare(name),
  )
  const [due, counts, fresh] = await Promise.all([
    duePage.execute({ ...scopeValues(userId, scope), now: now.toISOString(), limit }),
    dueCounts(db, userId, settings.timeZone, now, scope),
    newWords(db, userId, state, today, scope),
  ])
  const room = Math.max(0, Math.min(fresh.allowed, limit - due.length))
  const fromCourse = fresh.course.slice(0, room)
  const newOnes = [...fromCourse, ...fresh.decks.slice(0, room - fromCourse.length)]
  // "Choose the answer" costs the queue at most one statement (none for course words), and only while that way is on.
  const asked = [...due.map((row) => ({ word: row.word, reps: row.card.reps })), ...newOnes.map((row) => ({ word: row, reps: 0 }))]
  const choices = settings.ways.includes('choose') ? await choicesOf(db, pools, asked) : new Map<number, string[]>()
  const cards = [
    ...due.map((row) => toPracticeCard(row.word, row.card, settings.fsrsParameters, now, choices.get(row.word.id) ?? null)),
    ...newOnes.map((row) => toPracticeCard(row, null, settings.fsrsParameters, now, choices.get(row.id) ?? null)),
  ]
  return {
    cards,
    dueNow: counts.dueNow,
    newLeft: fresh.allowed,
    newWords: fresh.source,
    laterToday: counts.laterToday,
    ways: settings.ways,
    at: now.toISOString(),
  }
}
