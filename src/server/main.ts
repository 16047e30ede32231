import { readFileSync } from 'node:fs'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { serve } from '@hono/node-server'
import { createApp } from './app.js'
import { createAuth } from './auth/auth.js'
import { ConfigError, loadConfig } from './config.js'
import { openDatabase } from './db/client.js'
import { createLogger, wantsPrettyLogs } from './logger.js'
import { createMailer, createMemoryMailThrottle, createRedisMailThrottle } from './mail/index.js'
import { openRedis } from './redis.js'
import { projectRoot } from './paths.js'

const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
  version: string
}

/** How long an idle keep-alive connection stays open (a load balancer's idle timeout is 60 s). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000

/** On shutdown, how long an idle keep-alive connection may still bring a request. */
const IDLE_CONNECTION_GRACE_MS = 500

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

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    logger,
  })
  await database.migrate()
  logger.info({ database: database.kind }, 'database migrated')

  const redis = config.redisUrl ? openRedis(config.redisUrl, logger) : undefined
  const mailer = createMailer({
    config,
    logger,
    // Several instances send at most one email of a kind per address per window between them.
    throttle: redis
      ? createRedisMailThrottle(redis, `${config.redisKeyPrefix}mail-throttle:`)
      : createMemoryMailThrottle(),
  })
  const auth = await createAuth({ config, database, mailer, logger, redis })
  const app = createApp({ config, logger, database, auth })
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    logger.info(
      { port: info.port, url: config.appUrl, startupMs: Math.round(process.uptime() * 1000) },
      `Lingua ${version} listening`,
    )
  })
  // An idle keep-alive connection is kept longer than the clients in front keep theirs (a load
  // balancer's 60 s, a browser's): with Node's 5 s, a request sent on a connection just as the
  // server closes it is reset (a 502 behind a balancer, ECONNRESET for a script).
  if (server instanceof http.Server) {
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000
  }

  server.on('error', (error: NodeJS.ErrnoException) => {
    logger.fatal(
      { err: error },
      error.code === 'EADDRINUSE'
        ? `port ${config.port} is already in use: set PORT to a free port`
        : 'server failed',
    )
    process.exit(1)
  })

  let stopping = false
  /**
   * The answers being made. On shutdown each tells its client that the connection closes after
   * it (`Connection: close`): a keep-alive connection kept busy by its client would otherwise be
   * served for ever, close() would never finish, and the forced close would cut requests short.
   */
  const answering = new Set<ServerResponse>()
  const closeAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('Connection', 'close')
    // Already under way without it: end the connection once this answer is written.
    else response.once('finish', () => response.socket?.end())
  }
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (stopping) closeAfter(response)
    answering.add(response)
    response.once('close', () => answering.delete(response))
  })

  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down: finishing in-flight requests')
    for (const response of answering) closeAfter(response)
    const force = setTimeout(() => {
      logger.warn('shutdown timeout: closing remaining connections')
      if ('closeAllConnections' in server) server.closeAllConnections()
    }, config.shutdownTimeoutMs)
    force.unref()
    const finish = async (error?: Error) => {
      if (error) logger.error({ err: error }, 'server close failed')
      try {
        await mailer.close()
        await redis?.quit()
        await database.close()
      } catch (closeError) {
        logger.error({ err: closeError }, 'database close failed')
      }
      logger.info('stopped')
      logger.flush()
      process.exit(error ? 1 : 0)
    }
    // Stops accepting connections; done once every open one is closed. net's close, not http's:
    // http's also closes the idle keep-alive connections at once, and "idle" includes one whose
    // next request, sent before the signal, is still unread in the socket: it would be reset.
    net.Server.prototype.close.call(server, (error) => void finish(error))
    // After a moment for such requests to be read (and answered, with Connection: close), the
    // connections still idle are closed: they would otherwise hold close() open.
    setTimeout(() => {
      if ('closeIdleConnections' in server) server.closeIdleConnections()
    }, IDLE_CONNECTION_GRACE_MS).unref()
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

main().catch((error: unknown) => {
  console.error('Lingua failed to start:', error)
  process.exit(1)
})
