import { randomUUID } from 'node:crypto'
import type http from 'node:http'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { importRunner } from './api/imports/run'
import { startImportWorker } from './api/imports/worker'
import { FIT_JOB, fitRunner } from './api/practice/memory-model-job'
import { LevelReadCache, sentKey } from './api/levels/cache'
import { startReminderSweep } from './api/reminders/sweep'
import { reminderTokens } from './api/reminders/token'
import { createApp } from './app'
import { createAuth } from './auth/auth'
import { Revocations, refreshStoredSessions } from './auth/revocations'
import { loadAuthSecret } from './auth/secret'
import type { Config } from './config'
import { type Database, openDatabase } from './db/client'
import { InstanceEvents, latestEventId, subscribeEvents } from './events/bus'
import { LiveHub } from './events/hub'
import { createNodeServer } from './http/node-server'
import { startLearnerJobWorker } from './jobs/learner-jobs'
import type { Periodic } from './jobs/periodic'
import { createMailer, createMemoryMailThrottle, createRedisMailThrottle, type Mailer } from './mail/index'
import { openRedis } from './redis'

/** One instance of the app, made from its configuration, with its HTTP server not yet listening. */
export interface Instance {
  app: ReturnType<typeof createApp>
  server: http.Server
  database: Database
  /** This instance's live streams (ended on shutdown, so that their clients reconnect elsewhere). */
  hub: LiveHub
  /** This instance's sweep of the daily practice reminders (tests run it by hand: `runNow`). */
  reminders: Periodic
  /**
   * Closes what the instance opened — the mailer, the database listener, Redis, the database —
   * once the HTTP server has stopped taking requests.
   */
  close(): Promise<void>
}

/**
 * Opens the database (and migrates it), Redis, the mailer and auth, and wires the app and its HTTP
 * server on them: what `main()` starts, and what the API tests start in their own process.
 * `isDraining` says when the process is shutting down: readiness answers 503 and no answer is
 * sent again from the level cache (each answer then closes its connection, which the app does).
 */
export async function openInstance(options: {
  config: Config
  logger: Logger
  isDraining: () => boolean
  /** The clock of practice (default: the system's); in-process tests move it. */
  now?: () => Date
}): Promise<Instance> {
  const { config, logger, isDraining, now } = options
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger })
  await database.migrate()
  logger.info({ database: database.kind }, 'database migrated')

  const redis: Redis | undefined = config.redisUrl ? openRedis(config.redisUrl, logger) : undefined
  // Several instances send at most one email of a kind per address per window between them.
  const windowMs = config.mailThrottleSeconds * 1000
  const mailThrottle = redis
    ? createRedisMailThrottle(redis, `${config.redisKeyPrefix}mail-throttle:`, windowMs)
    : createMemoryMailThrottle({ windowMs })
  const mailer: Mailer = createMailer({ config, logger, throttle: mailThrottle })
  const auth = await createAuth({ config, database, mailer, mailThrottle, logger, redis })
  // Cached sessions of an account whose role or access just changed, or one of whose sessions
  // ended, are not trusted, on every instance, for as long as a cache cookie lives (plus a margin
  // for one issued meanwhile).
  const revocations = new Revocations((config.sessionCacheSeconds + 5) * 1000)
  const events = new InstanceEvents()
  events.lastId = await latestEventId(database.db)
  events.add({
    event: (event) => {
      if (event.type !== 'account' || event.data.reason === 'profile') return
      revocations.revoke(event.userId)
      if (!redis || event.data.reason !== 'access') return
      refreshStoredSessions(auth, database.db, event.userId).catch((error: unknown) =>
        logger.error({ err: error, userId: event.userId }, 'could not refresh the sessions kept in Redis'),
      )
    },
    lost: () => {},
    resumed: (missed) => {
      if (missed) revocations.revokeAll()
    },
  })
  const hub = new LiveHub({ db: database.db, events, logger })
  const levelCache = new LevelReadCache()
  // Imports run here too, each once across instances (api/imports/worker.ts).
  const runner = importRunner(database.db, now ?? (() => new Date()), { plannerHeapMb: config.importPlannerHeapMb, databaseUrl: config.databaseUrl })
  const instanceId = randomUUID()
  const imports = startImportWorker({ db: database.db, logger, instanceId, leaseSeconds: config.importLeaseSeconds, ...runner })
  // And learners' background jobs (jobs/learner-jobs.ts): their memory models' fits.
  const learnerJobs = startLearnerJobWorker({ db: database.db, logger, instanceId, runners: { [FIT_JOB]: fitRunner(database.db, now ?? (() => new Date())) } })
  // The daily practice reminders, swept every minute by every instance, each sent once (api/reminders/sweep.ts).
  const tokens = reminderTokens(await loadAuthSecret(database.db, config.authSecret))
  const reminders = startReminderSweep({
    db: database.db,
    logger,
    mailer,
    config,
    tokens,
    now: now ?? (() => new Date()),
    everyMs: config.reminderSweepSeconds * 1000,
  })
  const app = createApp({
    config,
    logger,
    database,
    auth,
    redis,
    mailer,
    mailThrottle,
    revocations,
    events,
    hub,
    levelCache,
    isDraining,
    importQueued: imports.kick,
    reminderTokens: tokens,
    fitQueued: learnerJobs.kick,
    ...(now ? { now } : {}),
  })
  const stopListening = await subscribeEvents(database, logger, events)
  const server = createNodeServer({
    fetch: app.fetch,
    hostname: config.host,
    https: config.appUrl.startsWith('https:'),
    trustProxy: config.trustProxy,
    answerAgain: (host, target) => (isDraining() ? undefined : levelCache.sent(sentKey(host, target))),
    logger,
  })
  return {
    app,
    server,
    database,
    hub,
    reminders,
    async close() {
      await Promise.all([imports.stop(), learnerJobs.stop(), reminders.stop()])
      await mailer.close()
      await stopListening()
      await redis?.quit()
      await database.close()
    },
  }
}
