import { type SQL, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import { startPeriodic } from './periodic'

/**
 * The loop that runs jobs kept in a table, each once across instances (docs/decisions/0033-import-jobs.md,
 * 0037-memory-model.md): a job is claimed with `FOR UPDATE SKIP LOCKED` and a lease (the table's own
 * claim, given the lease's end as SQL), which this instance renews every third of it while the job
 * runs. An instance that dies leaves its lease to run out; the next instance to look takes the job
 * over. A job claimed more than `maxAttempts` times is not run again: `fail` is given `interrupted()`.
 * Jobs run one at a time per instance.
 */

export interface LeasedJob {
  /** Claims so far, this one included. */
  attempts: number
}

export interface JobWorker {
  /** Looks for work now (after a job was queued here), besides every `pollMs`. */
  kick: () => void
  /** Stops taking jobs and waits for the one running (its lease is left to run out if it hangs). */
  stop: () => Promise<void>
}

/** The end of a lease taken or renewed now, as the database's clock says (every instance's). */
const leaseEnd = (seconds: number): SQL => sql`now() + make_interval(secs => ${seconds})`

export function startLeaseWorker<Job extends LeasedJob>(options: {
  /** What the jobs are, for the log ("import", "memory model"). */
  name: string
  logger: Logger
  leaseSeconds: number
  pollMs?: number
  maxAttempts: number
  /** Claims one job for this instance with its lease ending at `lease`, or none. */
  claim: (lease: SQL) => Promise<Job | undefined>
  /** Moves the lease of a job this instance holds to `lease` (nothing when it is not its any more). */
  renew: (job: Job, lease: SQL) => Promise<unknown>
  run: (job: Job) => Promise<void>
  /** Ends a job that threw, or was claimed too many times (`interrupted()`). */
  fail: (job: Job, error: unknown) => Promise<void>
  interrupted: () => Error
  /** The job as the log names it. */
  idOf: (job: Job) => unknown
  /** Housekeeping before each look for work (e.g. abandoned uploads). */
  beforeDrain?: () => Promise<void>
}): JobWorker {
  const { name, logger, leaseSeconds, maxAttempts, claim, renew, run, fail, interrupted, idOf } = options
  const pollMs = options.pollMs ?? 1000
  const lease = leaseEnd(leaseSeconds)

  async function runOne(job: Job): Promise<void> {
    if (job.attempts > maxAttempts) {
      await fail(job, interrupted())
      return
    }
    const renewal = setInterval(() => {
      renew(job, lease).catch((error: unknown) => logger.warn({ err: error, job: idOf(job) }, `could not renew the lease of a ${name} job`))
    }, (leaseSeconds * 1000) / 3)
    try {
      await run(job)
    } catch (error) {
      logger.info({ err: error, job: idOf(job) }, `a ${name} job failed`)
      await fail(job, error)
    } finally {
      clearInterval(renewal)
    }
  }

  async function drain(): Promise<void> {
    await options.beforeDrain?.()
    while (!worker.stopped) {
      const job = await claim(lease)
      if (!job) break
      await runOne(job)
    }
  }

  // The loop itself (one drain at a time, a kick during one drains again after it) is periodic.ts's.
  const worker = startPeriodic({ name: `the ${name} worker`, logger, everyMs: pollMs, run: drain })
  return { kick: worker.kick, stop: worker.stop }
}
