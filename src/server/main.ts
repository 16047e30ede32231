import { readFileSync } from 'node:fs'
import path from 'node:path'
import { LevelReadCache, sentKey } from './api/levels/cache'
import { createApp } from './app'
import { createAuth } from './auth/auth'
import { Revocations, refreshStoredSessions } from './auth/revocations'
import { ConfigError, loadConfig } from './config'
import { openDatabase } from './db/client'
import { FolderInUseError } from './db/folder-lock'
import { createNodeServer } from './http/node-server'
import { gracefulShutdown } from './http/shutdown'
import { createLogger, wantsPrettyLogs } from './logger'
import { createMailer, createMemoryMailThrottle, createRedisMailThrottle } from './mail/index'
import { openRedis } from './redis'
import { InstanceEvents, latestEventId, subscribeEvents } from './events/bus'
import { LiveHub } from './events/hub'
import { projectRoot } from './paths'

const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
  version: string
}

async function main() {
  let config
  try {
    config = loadConfig(process.env, version)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }

  const logger = createLogger({
    level: config.logLevel,
    pretty: await wantsPrettyLogs(config.nodeEnv),
  })
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'))

  let database
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger })
  } catch (error) {
    if (error instanceof FolderInUseError) {
      logger.fatal({ holder: error.holder }, error.message)
      logger.flush()
      process.exit(1)
    }
    throw error
  }
  await database.migrate()
  logger.info({ database: database.kind }, 'database migrated')

  const redis = config.redisUrl ? openRedis(config.redisUrl, logger) : undefined
  // Several instances send at most one email of a kind per address per window between them.
  const mailThrottle = redis
    ? createRedisMailThrottle(redis, `${config.redisKeyPrefix}mail-throttle:`)
    : createMemoryMailThrottle()
  const mailer = createMailer({ config, logger, throttle: mailThrottle })
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
  const app = createApp({ config, logger, database, auth, redis, mailer, mailThrottle, revocations, events, hub, levelCache, isDraining: () => lifecycle.stopping })
  const stopListening = await subscribeEvents(database, logger, events)
  const server = createNodeServer({
    fetch: app.fetch,
    hostname: config.host,
    https: config.appUrl.startsWith('https:'),
    trustProxy: config.trustProxy,
    // Not while shutting down: each answer then closes its connection (below), which the app does.
    answerAgain: (host, target) => (lifecycle.stopping ? undefined : levelCache.sent(sentKey(host, target))),
    logger,
  })
  server.listen(config.port, config.host, () => {
    const address = server.address()
    logger.info(
      {
        port: typeof address === 'object' && address ? address.port : config.port,
        url: config.appUrl,
        startupMs: Math.round(process.uptime() * 1000),
      },
      `Lingua ${version} listening`,
    )
  })

  server.on('error', (error: NodeJS.ErrnoException) => {
    logger.fatal(
      { err: error },
      error.code === 'EADDRINUSE'
        ? `port ${config.port} is already in use: set PORT to a free port`
        : 'server failed',
    )
    process.exit(1)
  })

  const lifecycle = gracefulShutdown(server, {
    logger,
    delayMs: config.shutdownDelayMs,
    timeoutMs: config.shutdownTimeoutMs,
    endStreams: () => hub.closeAll(),
    release: async () => {
      await mailer.close()
      await stopListening()
      await redis?.quit()
      await database.close()
    },
    exit: (code) => process.exit(code),
  })
  process.on('SIGTERM', () => lifecycle.shutdown('SIGTERM'))
  process.on('SIGINT', () => lifecycle.shutdown('SIGINT'))
}

main().catch((error: unknown) => {
  console.error('Lingua failed to start:', error)
  process.exit(1)
})
