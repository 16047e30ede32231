import { and, eq, gt, gte, lt, lte, notExists, sql } from 'drizzle-orm'
import { FORECAST_DAYS, PROGRESS_REVIEW_DAYS, type Progress, type ProgressDay, RETENTION_DAYS } from '@/shared/progress'
import { addDays, dayIn, endOfDay } from '@/shared/practice-days'
import type { Db } from '@/server/db/client'
import { deck, practiceCard, reviewLog, word } from '@/server/db/schema'
import { counted, learningProfile } from '@/server/api/practice/queue'
import { readSettings } from '@/server/api/practice/settings'

/**
 * The learner's progress (docs/decisions/0034-progress.md): a few aggregates, each over one
 * indexed range of theirs — the reviews of the last 90 days (`review_log_day_idx`), the cards due
 * before the 30th day ends (`practice_card_due_idx`), their cards (the primary key's user range),
 * and their decks' new cards (`word_deck_new_idx`).
 */

/** ts-fsrs's states, as `practice_card.state` and `review_log.state` keep them. */
const REVIEW_STATE = 2
/** The grade "Again". */
const AGAIN = 1

/** Reviews a day over the last 90 days, and the last 30 days' reviews of cards in review state. */
async function reviewDays(db: Db, userId: string, today: string) {
  const first = addDays(today, 1 - PROGRESS_REVIEW_DAYS)
  const rows = await db
    .select({
      date: reviewLog.day,
      count: sql<number>`count(*)`.mapWith(Number),
      mature: sql<number>`count(*) filter (where ${reviewLog.state} = ${REVIEW_STATE})`.mapWith(Number),
      passed: sql<number>`count(*) filter (where ${reviewLog.state} = ${REVIEW_STATE} and ${reviewLog.rating} > ${AGAIN})`.mapWith(Number),
    })
    .from(reviewLog)
    // Not after today: a date ahead of it (a move west) is not one of the days shown.
    .where(and(counted(userId), gte(reviewLog.day, first), lte(reviewLog.day, today)))
    .groupBy(reviewLog.day)
  const byDate = new Map(rows.map((row) => [row.date, row]))
  const reviews: ProgressDay[] = Array.from({ length: PROGRESS_REVIEW_DAYS }, (_, index) => {
    const date = addDays(first, index)
    return { date, count: byDate.get(date)?.count ?? 0 }
  })
  const since = addDays(today, 1 - RETENTION_DAYS)
  const recent = rows.filter((row) => row.date >= since)
  const mature = recent.reduce((sum, row) => sum + row.mature, 0)
  const passed = recent.reduce((sum, row) => sum + row.passed, 0)
  return { reviews, retention: { reviews: mature, passed, rate: mature > 0 ? passed / mature : null } }
}

/**
 * The ends of the next 30 days in the learner's zone, each the first instant of the day after
 * (searched as "due today" is: days of 23 or 25 hours end where the zone says).
 */
function dayEnds(timeZone: string, now: Date): Date[] {
  const ends: Date[] = []
  let end = endOfDay(timeZone, now)
  for (let day = 0; day < FORECAST_DAYS; day++) {
    ends.push(end)
    end = endOfDay(timeZone, end)
  }
  return ends
}

/** Cards due on each of the next 30 days, today first; cards overdue count on today. */
async function forecast(db: Db, userId: string, timeZone: string, today: string, now: Date): Promise<ProgressDay[]> {
  const ends = dayEnds(timeZone, now)
  const last = ends.at(-1) as Date
  // width_bucket: 0 before the first end (today, and overdue), n between the n-th end and the next.
  const thresholds = `{${ends.map((end) => end.toISOString()).join(',')}}`
  const bucket = sql<number>`width_bucket(${practiceCard.due}, ${thresholds}::timestamptz[])`.mapWith(Number)
  const rows = await db
    .select({ bucket, count: sql<number>`count(*)`.mapWith(Number) })
    .from(practiceCard)
    .where(and(eq(practiceCard.userId, userId), lt(practiceCard.due, last), gt(practiceCard.state, 0), eq(practiceCard.suspended, false)))
    // By position: the expression written twice would be two parameters, not the same expression.
    .groupBy(sql`1`)
  const byBucket = new Map(rows.map((row) => [row.bucket, row.count]))
  // Each day's date as the zone names it (a date a zone skipped is not one of them).
  return ends.map((_, index) => ({ date: index === 0 ? today : dayIn(timeZone, ends[index - 1] as Date), count: byBucket.get(index) ?? 0 }))
}

/**
 * The learner's cards by state. New: their decks' cards never answered (`practised` false: one
 * index range), the words of their current level (and language) they have no card of yet, and a
 * card kept new (none is written today but a suspended one, counted as suspended).
 */
async function cardStates(db: Db, userId: string): Promise<Progress['states']> {
  const profile = await learningProfile(db, userId)
  const state = (value: number) =>
    sql<number>`count(*) filter (where not ${practiceCard.suspended} and ${practiceCard.state} = ${value})`.mapWith(Number)
  const [[cards], [deckNew], [courseNew]] = await Promise.all([
    db
      .select({
        new: state(0),
        learning: state(1),
        review: state(2),
        relearning: state(3),
        suspended: sql<number>`count(*) filter (where ${practiceCard.suspended})`.mapWith(Number),
      })
      .from(practiceCard)
      .where(eq(practiceCard.userId, userId)),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(word)
      .where(and(sql`${word.deckId} in (select ${deck.id} from ${deck} where ${deck.userId} = ${userId})`, eq(word.practised, false))),
    profile?.levelId
      ? db
          .select({ n: sql<number>`count(*)`.mapWith(Number) })
          .from(word)
          .where(
            and(
              eq(word.levelId, profile.levelId),
              profile.language ? eq(word.language, profile.language) : undefined,
              notExists(
                db.select({ one: sql`1` }).from(practiceCard).where(and(eq(practiceCard.userId, userId), eq(practiceCard.wordId, word.id))),
              ),
            ),
          )
      : [{ n: 0 }],
  ])
  return {
    new: (cards?.new ?? 0) + (deckNew?.n ?? 0) + (courseNew?.n ?? 0),
    learning: cards?.learning ?? 0,
    review: cards?.review ?? 0,
    relearning: cards?.relearning ?? 0,
    suspended: cards?.suspended ?? 0,
  }
}

/** The signed-in learner's progress at `now` (the server's clock), in their time zone. */
export async function learnerProgress(db: Db, userId: string, now: Date): Promise<Progress> {
  const { timeZone } = await readSettings(db, userId)
  const today = dayIn(timeZone, now)
  const [days, ahead, states] = await Promise.all([reviewDays(db, userId, today), forecast(db, userId, timeZone, today, now), cardStates(db, userId)])
  return { day: today, timeZone, reviews: days.reviews, retention: days.retention, forecast: ahead, states }
}
