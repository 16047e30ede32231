import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import net from 'node:net'
import type { Logger } from 'pino'

/** On shutdown, how long an idle keep-alive connection may still bring a request. */
const IDLE_CONNECTION_GRACE_MS = 500

export interface GracefulShutdown {
  /** True from the signal on: readiness answers 503, every answer closes its connection. */
  readonly stopping: boolean
  /** Starts the shutdown, once (docs/operations.md, "Shutdown"). */
  shutdown(signal: string): void
}

/**
 * The server's graceful shutdown, in two steps. From the signal on, every answer closes its
 * connection (`stopping` tells readiness to answer 503); for `delayMs` (SIGTERM only: Ctrl-C in a
 * terminal stops at once) new connections are still served, while the balancer notices and stops
 * sending. Then the listener closes and the requests under way finish, for at most `timeoutMs`;
 * `release` closes what the process holds, and `exit` ends it (1 when the server's close failed).
 */
export function gracefulShutdown(
  server: Server,
  options: {
    logger: Logger
    delayMs: number
    timeoutMs: number
    /** Ends what would hold a connection open for ever (the live streams), at the signal and again at the close. */
    endStreams: () => void
    release: () => Promise<void>
    exit: (code: number) => void
    idleGraceMs?: number
  },
): GracefulShutdown {
  const { logger } = options
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
    // Already answered (the HTTP server sent a cached answer again): nothing is under way.
    if (response.writableEnded) return
    if (stopping) closeAfter(response)
    answering.add(response)
    response.once('close', () => answering.delete(response))
  })

  const stopAccepting = () => {
    options.endStreams()
    const force = setTimeout(() => {
      logger.warn('shutdown timeout: closing remaining connections')
      server.closeAllConnections()
    }, options.timeoutMs)
    force.unref()
    const finish = async (error?: Error) => {
      if (error) logger.error({ err: error }, 'server close failed')
      try {
        await options.release()
      } catch (closeError) {
        logger.error({ err: closeError }, 'database close failed')
      }
      logger.info('stopped')
      logger.flush()
      options.exit(error ? 1 : 0)
    }
    // Stops accepting connections; done once every open one is closed. net's close, not http's:
    // http's also closes the idle keep-alive connections at once, and "idle" includes one whose
    // next request, sent before the signal, is still unread in the socket: it would be reset.
    net.Server.prototype.close.call(server, (error) => void finish(error))
    // After a moment for such requests to be read (and answered, with Connection: close), the
    // connections still idle are closed: they would otherwise hold close() open.
    setTimeout(() => {
      server.closeIdleConnections()
    }, options.idleGraceMs ?? IDLE_CONNECTION_GRACE_MS).unref()
  }

  return {
    get stopping() {
      return stopping
    },
    shutdown(signal) {
      if (stopping) return
      stopping = true
      const delayMs = signal === 'SIGTERM' ? options.delayMs : 0
      logger.info({ signal, delayMs }, 'shutting down: not ready, finishing in-flight requests')
      for (const response of answering) closeAfter(response)
      // The streams end now: their clients reconnect, to an instance that stays.
      options.endStreams()
      setTimeout(stopAccepting, delayMs)
    },
  }
}
