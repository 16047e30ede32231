import { and, eq, sql } from 'drizzle-orm'
import { FSRSAlgorithm, State } from 'ts-fsrs'
import { ESTIMATED_RETENTIONS, type MemoryModelState, type MemoryModelStatus, type RetentionEstimate } from '@/shared/memory-model'
import { MEMORY_MODEL_MIN_REVIEWS } from '@/shared/practice'
import type { Db } from '@/server/db/client'
import { learnerJob, practiceCard } from '@/server/db/schema'
import { FIT_JOB, countedReviews } from './memory-model-job'
import { type Settings, readSettings } from './settings'

/**
 * What `GET /api/me/practice/memory-model` answers: the model's status, the learner's counted
 * reviews, the latest fit, the desired retention, and what each retention would cost.
 */

/**
 * Where the fit job is, by the database's clock (the one its lease and due time are on): running
 * while a lease is live; queued while due, or due within QUEUED_WITHIN (a failed fit tried again
 * soon), not the weekly refit days away.
 */
async function fitJobStatus(db: Db, userId: string): Promise<'queued' | 'running' | undefined> {
  const [job] = await db
    .select({
      running: sql<boolean>`coalesce(${learnerJob.lockedUntil} > now(), false)`,
      due: sql<boolean>`${learnerJob.runAfter} <= now() + interval '5 minutes'`,
    })
    .from(learnerJob)
    .where(and(eq(learnerJob.userId, userId), eq(learnerJob.kind, FIT_JOB)))
  if (job?.running) return 'running'
  if (job?.due) return 'queued'
  return undefined
}

const round1 = (n: number) => Math.round(n * 10) / 10

/**
 * Reviews a day each retention would cost: Σ, over the learner's cards in review (not suspended),
 * of 1 / the interval ts-fsrs would give the card's stability at that retention with the learner's
 * parameters — round(S × modifier(r)), at least a day, at most the maximum interval
 * (`FSRSAlgorithm.next_interval`). The steady rate of the cards learnt so far, each reviewed every
 * interval at its stability now: stabilities grow with each review, so the load falls later, and
 * cards still in learning and new words to come are not in it. One aggregate in the database, one
 * sum per retention (no card is read out).
 */
async function estimates(db: Db, userId: string, settings: Settings): Promise<RetentionEstimate[]> {
  const retentions = [...new Set<number>([...ESTIMATED_RETENTIONS, settings.desiredRetention])].sort((a, b) => a - b)
  const algorithm = new FSRSAlgorithm(settings.fsrsParameters)
  const maximum = settings.fsrsParameters.maximum_interval
  const sums = retentions.map(
    (retention) =>
      sql<number>`coalesce(sum(1.0 / least(greatest(1, round(${practiceCard.stability} * ${algorithm.calculate_interval_modifier(retention)}::float8)), ${maximum}::float8)), 0)::float8`,
  )
  const [row] = await db
    .select({ sums: sql<number[]>`array[${sql.join(sums, sql`, `)}]` })
    .from(practiceCard)
    .where(and(eq(practiceCard.userId, userId), eq(practiceCard.state, State.Review), eq(practiceCard.suspended, false)))
  return retentions.map((retention, i) => ({ retention, reviewsPerDay: round1(Number(row?.sums[i] ?? 0)) }))
}

export async function memoryModelState(db: Db, userId: string): Promise<MemoryModelState> {
  // The job first, then the model: a fit writes both in one transaction, so a job seen done has its
  // model seen too. Read side by side (separate connections, separate snapshots), a fit committed
  // between them showed neither the job nor its model: "default" for a moment.
  const job = await fitJobStatus(db, userId)
  const [settings, reviews] = await Promise.all([readSettings(db, userId), countedReviews(db, userId)])
  const model = settings.memoryModel
  const personalised = model !== null && model.logLossAfter < model.logLossBefore
  const status: MemoryModelStatus = job ?? (personalised ? 'personalised' : 'default')
  return {
    status,
    reviews,
    minReviews: MEMORY_MODEL_MIN_REVIEWS,
    model,
    desiredRetention: settings.desiredRetention,
    estimates: await estimates(db, userId, settings),
  }
}
