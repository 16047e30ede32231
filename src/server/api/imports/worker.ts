import { type SQL, and, asc, eq, inArray, lt, or, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Db } from '@/server/db/client'
import { importJob } from '@/server/db/schema'
import { type JobWorker, startLeaseWorker } from '@/server/jobs/lease-worker'

/**
 * Runs imports, one at a time per instance, each once across instances (docs/decisions/0033-import-jobs.md):
 * a job is claimed with `FOR UPDATE SKIP LOCKED` and a lease this instance renews while it runs
 * (the loop is jobs/lease-worker.ts, shared with the learners' jobs).
 * An instance that dies leaves its lease to run out; the next instance to look takes the job over
 * and runs it again from the start (an import writes in one transaction at its end, so nothing of
 * the first run is there). A job claimed `MAX_ATTEMPTS` times fails as "interrupted".
 */

export type ImportJobRow = typeof importJob.$inferSelect

const MAX_ATTEMPTS = 3
/** An upload still unfinished after this long was abandoned (300 MB takes minutes, not hours). */
const UPLOAD_ABANDONED_HOURS = 6

/** What the worker needs of the job it runs: to say how far it is, and whether it still holds it. */
export interface JobContext {
  job: ImportJobRow
  /** The instance running it (its claim: `import_job.locked_by`). */
  instanceId: string
  progress: (done: number, total: number) => Promise<void>
  /** A condition on `import_job` for the final write: the job is still this instance's. */
  stillMine: SQL | undefined
}

/** The condition that a job is still claimed by an instance (`JobContext.stillMine`). */
export const claimedBy = (jobId: string, instanceId: string) => and(eq(importJob.id, jobId), eq(importJob.lockedBy, instanceId))

/** `kick` after an upload. */
export type ImportWorker = JobWorker

export function startImportWorker(options: {
  db: Db
  logger: Logger
  instanceId: string
  leaseSeconds: number
  pollMs?: number
  run: (context: JobContext) => Promise<void>
  fail: (job: ImportJobRow, error: unknown) => Promise<void>
}): ImportWorker {
  const { db, instanceId, run } = options
  const mine = (job: ImportJobRow) => claimedBy(job.id, instanceId)

  async function claim(lease: SQL): Promise<ImportJobRow | undefined> {
    const waiting = db
      .select({ id: importJob.id })
      .from(importJob)
      .where(or(eq(importJob.status, 'queued'), and(eq(importJob.status, 'running'), lt(importJob.lockedUntil, sql`now()`))))
      .orderBy(asc(importJob.createdAt))
      .limit(1)
      .for('update', { skipLocked: true })
    const [job] = await db
      .update(importJob)
      .set({ status: 'running', lockedBy: instanceId, lockedUntil: lease, attempts: sql`${importJob.attempts} + 1`, updatedAt: sql`now()` })
      .where(inArray(importJob.id, waiting))
      .returning()
    return job
  }

  /** An upload its instance never finished (it died meanwhile): gone after UPLOAD_ABANDONED_HOURS. */
  let swept = 0
  async function sweepAbandonedUploads(): Promise<void> {
    if (Date.now() - swept < 60_000) return
    swept = Date.now()
    await db
      .delete(importJob)
      .where(and(eq(importJob.status, 'uploading'), lt(importJob.updatedAt, sql`now() - make_interval(hours => ${UPLOAD_ABANDONED_HOURS})`)))
  }

  return startLeaseWorker({
    name: 'import',
    logger: options.logger,
    leaseSeconds: options.leaseSeconds,
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    maxAttempts: MAX_ATTEMPTS,
    claim,
    renew: (job, lease) => db.update(importJob).set({ lockedUntil: lease }).where(mine(job)),
    run: (job) =>
      run({
        job,
        instanceId,
        stillMine: mine(job),
        progress: async (done, total) => {
          await db.update(importJob).set({ done, total, updatedAt: sql`now()` }).where(mine(job))
        },
      }),
    fail: options.fail,
    interrupted: () => new InterruptedImport(),
    idOf: (job) => job.id,
    beforeDrain: sweepAbandonedUploads,
  })
}

/** A job claimed too many times: each instance that ran it died or stopped before it ended. */
export class InterruptedImport extends Error {
  constructor() {
    super('The import was interrupted too many times')
  }
}
