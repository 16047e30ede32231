import type { Logger } from 'pino'

/**
 * Background work an instance does every `everyMs` and whenever kicked: the job workers
 * (lease-worker.ts) and the reminders' sweep (api/reminders/sweep.ts). Never two runs at once in an
 * instance (a kick during a run asks for one more run after it); the timer is unref'd (it never
 * keeps the process alive); `stop` (on shutdown) waits for the run under way.
 */
export interface Periodic {
  /** Runs the work now, or once more after the run under way. */
  kick: () => void
  /** As `kick`, resolving once that run is done (tests, and whoever must know it ran). */
  runNow: () => Promise<void>
  /** Stops the timer and waits for the run under way. */
  stop: () => Promise<void>
  /** Whether `stop` was called: a long run checks it between its steps. */
  readonly stopped: boolean
}

export function startPeriodic(options: {
  /** What the log says failed ("the import worker"). */
  name: string
  logger: Logger
  everyMs: number
  /** One run of the work. */
  run: () => Promise<void>
}): Periodic {
  const { name, logger, everyMs, run } = options
  let stopped = false
  let busy: Promise<void> | null = null
  let again = false

  async function loop(): Promise<void> {
    do {
      again = false
      await run()
    } while (again && !stopped)
  }

  function kick(): void {
    if (stopped) return
    if (busy) {
      again = true
      return
    }
    busy = loop()
      .catch((error: unknown) => logger.error({ err: error }, `${name} failed`))
      .finally(() => {
        busy = null
      })
  }

  const timer = setInterval(kick, everyMs)
  timer.unref()
  kick()
  return {
    kick,
    async runNow() {
      kick()
      await busy
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      await busy
    },
    get stopped() {
      return stopped
    },
  }
}
