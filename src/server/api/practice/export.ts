import { and, asc, eq, gt } from 'drizzle-orm'
import type { Db } from '@/server/db/client'
import { practiceCard, practiceSettings, reviewLog, word } from '@/server/db/schema'
import type { DataExport } from '@/server/api/data-export/docs'
import { stateName } from './scheduler'

/** Review logs are read and written in pages of this many. */
const REVIEW_BATCH = 1000

/** A person's practice settings and cards, for their copy of their data. */
export async function exportedPractice(db: Db, userId: string): Promise<DataExport['practice']> {
  const [[settings], cards] = await Promise.all([
    db.select().from(practiceSettings).where(eq(practiceSettings.userId, userId)),
    db
      .select({ card: practiceCard, text: word.text, language: word.language })
      .from(practiceCard)
      .innerJoin(word, eq(word.id, practiceCard.wordId))
      .where(eq(practiceCard.userId, userId))
      .orderBy(asc(practiceCard.wordId)),
  ])
  return {
    settings: settings
      ? {
          newWordsPerDay: settings.newWordsPerDay,
          dailyGoal: settings.dailyGoal,
          timeZone: settings.timeZone,
          ways: settings.ways,
          reminderEnabled: settings.reminderEnabled,
          reminderHour: settings.reminderHour,
          desiredRetention: settings.desiredRetention,
          fsrsParameters: settings.fsrsParameters,
          memoryModel: settings.memoryModel,
          bridgedDays: settings.bridgedDays,
          updatedAt: settings.updatedAt.toISOString(),
        }
      : null,
    cards: cards.map(({ card, text, language }) => ({
      wordId: card.wordId,
      word: text,
      language,
      state: stateName(card.state),
      due: card.due.toISOString(),
      stability: card.stability,
      difficulty: card.difficulty,
      reps: card.reps,
      lapses: card.lapses,
      lastReview: card.lastReview?.toISOString() ?? null,
      suspended: card.suspended,
    })),
  }
}

/** Every review log row of the person, oldest first, page by page. */
export async function* exportedReviews(db: Db, userId: string): AsyncGenerator<DataExport['practiceReviews']> {
  let after = 0
  for (;;) {
    const rows = await db
      .select()
      .from(reviewLog)
      .where(and(eq(reviewLog.userId, userId), gt(reviewLog.id, after)))
      .orderBy(asc(reviewLog.id))
      .limit(REVIEW_BATCH)
    if (rows.length === 0) return
    yield rows.map((row) => ({
      clientId: row.clientId,
      wordId: row.wordId,
      grade: row.rating,
      stateBefore: stateName(row.state),
      reviewedAt: row.review.toISOString(),
      receivedAt: row.receivedAt.toISOString(),
      day: row.day,
      goal: row.goal,
      undoneAt: row.undoneAt?.toISOString() ?? null,
    }))
    after = rows.at(-1)?.id ?? after
    if (rows.length < REVIEW_BATCH) return
  }
}
