import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { ConfigError, loadConfig } from './config'
import { FolderInUseError } from './db/folder-lock'
import { openInstance } from './instance'
import { createLogger, wantsPrettyLogs } from './logger'
import { projectRoot } from './paths'

const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
  version: string
}

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

  let stopping = false
  let instance
  try {
    instance = await openInstance({ config, logger, isDraining: () => stopping })
  } catch (error) {
    if (error instanceof FolderInUseError) {
      logger.fatal({ holder: error.holder }, error.message)
      logger.flush()
      process.exit(1)
    }
    throw error
  }
  const { server, hub } = instance
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
    // Already answered (the HTTP server sent a cached answer again): nothing is under way.
    if (response.writableEnded) return
    if (stopping) closeAfter(response)
    answering.add(response)
    response.once('close', () => answering.delete(response))
  })

  /**
   * Shutdown in two steps. From the signal on, `/api/ready` answers 503 and every answer closes its
   * connection; for SHUTDOWN_DELAY_MS (SIGTERM only: Ctrl-C in a terminal stops at once) new
   * connections are still served, while the balancer notices and stops sending. Then the listener
   * closes and the requests under way finish, for at most SHUTDOWN_TIMEOUT_MS.
   */
  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    const delayMs = signal === 'SIGTERM' ? config.shutdownDelayMs : 0
    logger.info({ signal, delayMs }, 'shutting down: not ready, finishing in-flight requests')
    for (const response of answering) closeAfter(response)
    // The streams end now: their clients reconnect, to an instance that stays.
    hub.closeAll()
    setTimeout(stopAccepting, delayMs)
  }

  const stopAccepting = () => {
    hub.closeAll()
    const force = setTimeout(() => {
      logger.warn('shutdown timeout: closing remaining connections')
      server.closeAllConnections()
    }, config.shutdownTimeoutMs)
    force.unref()
    const finish = async (error?: Error) => {
      if (error) logger.error({ err: error }, 'server close failed')
      try {
        await instance.close()
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
      server.closeIdleConnections()
    }, IDLE_CONNECTION_GRACE_MS).unref()
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

main().catch((error: unknown) => {
  console.error('Lingua failed to start:', error)
  process.exit(1)
})
