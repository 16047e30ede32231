import { type SQL, and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Db } from '@/server/db/client'
import { learnerJob } from '@/server/db/schema'
import { type JobWorker, startLeaseWorker } from './lease-worker'

/**
 * A learner's background work other than imports (table `learner_job`, one row per learner and
 * kind, due at `run_after`; docs/decisions/0037-memory-model.md): run once across instances by the
 * lease loop imports use (lease-worker.ts). A row stays after its run: the runner says when it is
 * due again (the memory model's weekly fit), and writes that only while the job is still this
 * instance's (`stillMine`). A job that throws is tried again RETRY_SECONDS × its attempts later (a
 * fork refused, a process killed on a busy machine); one that failed MAX_ATTEMPTS times, or was
 * claimed more often than that (each instance that ran it died), is put off a week, its attempts
 * reset.
 */

type LearnerJobRow = typeof learnerJob.$inferSelect

const MAX_ATTEMPTS = 3
/** Long enough for a fit of 50,000 reviews on a loaded machine; renewed every third of it. */
const LEASE_SECONDS = 30
/** When a job that failed is tried again: soon, then (attempts spent) a week later. */
const RETRY_SECONDS = 10
const GIVE_UP_DAYS = 7

export interface LearnerJobContext {
  job: LearnerJobRow
  /** A condition on `learner_job` for the final write: the job is still this instance's. */
  stillMine: SQL
}

/** The values that give a job back (not leased), due again at `runAfter`. */
export const released = (runAfter: SQL) => ({ runAfter, attempts: 0, lockedBy: null, lockedUntil: null, updatedAt: sql`now()` })

/** `now() + days`, on the database's clock (the one leases and `run_after` are compared with). */
export const daysFromNow = (days: number): SQL => sql`now() + make_interval(days => ${days})`

/** The kinds of job the worker runs, and what runs each. */
export type LearnerJobRunners = Record<string, (context: LearnerJobContext) => Promise<void>>

export function startLearnerJobWorker(options: { db: Db; logger: Logger; instanceId: string; runners: LearnerJobRunners; pollMs?: number }): JobWorker {
  const { db, logger, instanceId, runners } = options
  const kinds = Object.keys(runners)
  const mine = (job: LearnerJobRow): SQL =>
    and(eq(learnerJob.userId, job.userId), eq(learnerJob.kind, job.kind), eq(learnerJob.lockedBy, instanceId)) as SQL

  async function claim(lease: SQL): Promise<LearnerJobRow | undefined> {
    // Due, and not held by a live lease (never leased, given back, or its instance gone).
    const due = and(
      inArray(learnerJob.kind, kinds),
      lte(learnerJob.runAfter, sql`now()`),
      or(isNull(learnerJob.lockedUntil), lt(learnerJob.lockedUntil, sql`now()`)),
    )
    // The oldest due first; the primary key is (user, kind), so a learner's job is found by both.
    const [next] = await db.transaction(async (tx) => {
      const [waiting] = await tx
        .select({ userId: learnerJob.userId, kind: learnerJob.kind })
        .from(learnerJob)
        .where(due)
        .orderBy(asc(learnerJob.runAfter))
        .limit(1)
        .for('update', { skipLocked: true })
      if (!waiting) return []
      return tx
        .update(learnerJob)
        .set({ lockedBy: instanceId, lockedUntil: lease, attempts: sql`${learnerJob.attempts} + 1`, updatedAt: sql`now()` })
        .where(and(eq(learnerJob.userId, waiting.userId), eq(learnerJob.kind, waiting.kind)))
        .returning()
    })
    return next
  }

  return startLeaseWorker({
    name: 'learner',
    logger,
    leaseSeconds: LEASE_SECONDS,
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    maxAttempts: MAX_ATTEMPTS,
    claim,
    renew: (job, lease) => db.update(learnerJob).set({ lockedUntil: lease }).where(mine(job)),
    run: async (job) => {
      const run = runners[job.kind]
      if (run) await run({ job, stillMine: mine(job) })
    },
    fail: async (job, error) => {
      const again = job.attempts < MAX_ATTEMPTS
      logger.warn({ err: error, userId: job.userId, kind: job.kind, attempts: job.attempts }, again ? 'a learner job failed: tried again soon' : 'a learner job failed: put off a week')
      const retry = { runAfter: sql`now() + make_interval(secs => ${RETRY_SECONDS * job.attempts})`, lockedBy: null, lockedUntil: null, updatedAt: sql`now()` }
      await db.update(learnerJob).set(again ? retry : released(daysFromNow(GIVE_UP_DAYS))).where(mine(job))
    },
    interrupted: () => new Error('The job was interrupted too many times'),
    idOf: (job) => `${job.kind}:${job.userId}`,
  })
}
