import { and, asc, count, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm'
import { MEMORY_MODEL_MIN_REVIEWS } from '@/shared/practice'
import type { Db } from '@/server/db/client'
import { learnerJob, practiceSettings, reviewLog } from '@/server/db/schema'
import { publishEvent } from '@/server/events/bus'
import { type LearnerJobContext, daysFromNow, released } from '@/server/jobs/learner-jobs'
import { type PackedHistory, fitInChild } from './memory-model-fitter'
import { lockedSettings, readSettings } from './settings'

/**
 * The memory model's background job (`learner_job` kind `fit`; docs/decisions/0037-memory-model.md):
 * queued by "Personalise now", when a learner's counted reviews first reach MEMORY_MODEL_MIN_REVIEWS
 * (a grade, an import), and weekly after each fit. It reads the learner's counted reviews, fits
 * FSRS parameters to them and measures the log loss of the default and the fitted parameters on the
 * same history in a process of its own (memory-model-fitter.ts), keeps the fitted weights only when
 * they predict better, and records the figures either way.
 */

export const FIT_JOB = 'fit'
/** A fit is done again this long after the last, when the learner has reviewed since. */
const REFIT_DAYS = 7
/** Rows read from the review log at a time, the event loop let go between them. */
const READ_BATCH = 5000

const counted = (userId: string) => and(eq(reviewLog.userId, userId), isNull(reviewLog.undoneAt))

/** The learner's counted reviews (not undone), or `cap` when there are at least that many (a bounded count). */
export async function countedReviews(db: Db, userId: string, cap?: number): Promise<number> {
  if (cap === undefined) {
    const [row] = await db.select({ n: count() }).from(reviewLog).where(counted(userId))
    return row?.n ?? 0
  }
  const some = db.select({ one: sql`1`.as('one') }).from(reviewLog).where(counted(userId)).limit(cap).as('some')
  const [row] = await db.select({ n: count() }).from(some)
  return row?.n ?? 0
}

/**
 * Queues a first fit once the learner has enough reviews: called while they have no model yet (by
 * the grade path and the end of an import, which know it), so it is cheap — a count of at most
 * MEMORY_MODEL_MIN_REVIEWS index entries, and an insert that does nothing when the job is there.
 */
export async function queueFirstFit(db: Db, userId: string): Promise<void> {
  // One statement: the count, and the insert when it is enough.
  await db.execute(sql`insert into ${learnerJob} (user_id, kind)
    select ${userId}::text, ${FIT_JOB}::text
    where (select count(*) from (select 1 from ${reviewLog} where ${counted(userId)} limit ${MEMORY_MODEL_MIN_REVIEWS}) as counted_reviews) >= ${MEMORY_MODEL_MIN_REVIEWS}
    on conflict do nothing`)
}

/** "Personalise now": the fit is due now (a fit running goes on; a weekly one comes forward). */
export async function requestFit(db: Db, userId: string): Promise<void> {
  await db
    .insert(learnerJob)
    .values({ userId, kind: FIT_JOB })
    .onConflictDoUpdate({ target: [learnerJob.userId, learnerJob.kind], set: { runAfter: sql`now()`, updatedAt: sql`now()` } })
}

/**
 * The learner's counted reviews of words that still exist (a card is its word), read in batches by
 * log order (the event loop let go between them), packed for the fitting process.
 */
async function readHistory(db: Db, userId: string): Promise<PackedHistory> {
  const cards: number[] = []
  const times: number[] = []
  const ratings: number[] = []
  let after = 0
  for (;;) {
    const rows = await db
      .select({ id: reviewLog.id, wordId: reviewLog.wordId, review: reviewLog.review, rating: reviewLog.rating })
      .from(reviewLog)
      .where(and(counted(userId), isNotNull(reviewLog.wordId), gt(reviewLog.id, after)))
      .orderBy(asc(reviewLog.id))
      .limit(READ_BATCH)
    for (const row of rows) {
      cards.push(row.wordId ?? 0)
      times.push(row.review.getTime())
      ratings.push(row.rating)
    }
    const last = rows.at(-1)
    if (!last || rows.length < READ_BATCH) break
    after = last.id
  }
  return { cards: Int32Array.from(cards), times: Float64Array.from(times), ratings: Uint8Array.from(ratings) }
}

const reviewedSince = async (db: Db, userId: string, since: Date) =>
  (await db.select({ id: reviewLog.id }).from(reviewLog).where(and(counted(userId), gt(reviewLog.receivedAt, since))).limit(1)).length > 0

/** Runs a learner's `fit` job; `now` is the app's clock (the reviews' `received_at` are on it). */
export function fitRunner(db: Db, now: () => Date) {
  /**
   * Gives the job back, due in a week, with nothing fitted. Kept even without a model, so that the
   * grades that follow do not queue a fit again each time (their insert finds the row).
   */
  async function putOff({ job, stillMine }: LearnerJobContext): Promise<void> {
    await db.update(learnerJob).set(released(daysFromNow(REFIT_DAYS))).where(stillMine)
    await publishEvent(db, { type: 'practice', userId: job.userId, data: { reason: 'model' } })
  }

  return async function runFit(context: LearnerJobContext): Promise<void> {
    const { userId } = context.job
    const { memoryModel } = await readSettings(db, userId)
    // Weekly while there is something new to learn from; the same history would fit the same.
    if (memoryModel && !(await reviewedSince(db, userId, new Date(memoryModel.fittedAt)))) return putOff(context)
    const history = await readHistory(db, userId)
    const reviews = history.cards.length
    if (reviews < MEMORY_MODEL_MIN_REVIEWS) return putOff(context)
    const { parameters, before, after } = await fitInChild(history)
    // Nothing to predict (every review on a card's first day): no figures to show.
    if (!Number.isFinite(before) || !Number.isFinite(after)) return putOff(context)
    await db.transaction(async (tx) => {
      // Written only while the job is this instance's: one that lost its lease writes nothing.
      const held = await tx.update(learnerJob).set(released(daysFromNow(REFIT_DAYS))).where(context.stillMine).returning({ userId: learnerJob.userId })
      if (held.length === 0) return
      const settings = await lockedSettings(tx, userId)
      const better = after < before
      await tx
        .update(practiceSettings)
        .set({
          ...(better ? { fsrsParameters: { ...settings.fsrsParameters, w: parameters } } : {}),
          memoryModel: { reviews, logLossBefore: before, logLossAfter: after, fittedAt: now().toISOString() },
        })
        .where(eq(practiceSettings.userId, userId))
      await publishEvent(tx, { type: 'practice', userId, data: { reason: 'model' } })
    })
  }
}
