import pg from 'pg'
import type { Logger } from 'pino'
import type { ListenHandlers } from './client'

/** The longest wait between two attempts to make the listening connection again. */
const LISTEN_RETRY_MAX_MS = 10_000

/** LISTEN on a connection of its own (a pooled one is shared), made again while it is lost. */
/**
 * How often the listening connection notifies itself, and how long without hearing anything it is
 * taken for lost: a connection into a black hole (a partition, a host gone) stays open for minutes
 * without an error, and what is kept on the strength of the events (cached reads) must not be
 * trusted meanwhile.
 */
const LISTEN_PING_MS = 400
const LISTEN_SILENCE_MS = 1_000
const PING = 'ping'

export async function listenPostgres(
  databaseUrl: string,
  /** As long as the pool waits for a connection (postgres.ts). */
  connectTimeoutMs: number,
  logger: Logger,
  channel: string,
  { message, lost, resumed }: ListenHandlers,
): Promise<() => Promise<void>> {
  let stopped = false
  let client: pg.Client | undefined
  let retryTimer: NodeJS.Timeout | undefined
  const quoted = `"${channel.replaceAll('"', '""')}"`
  /** Whether the events are heard now, and when the connection last said anything. */
  let hearing = true
  let heardAt = Date.now()
  /** A new connection since the events were last heard: what was sent meanwhile is lost. */
  let reconnected = false
  const heard = () => {
    heardAt = Date.now()
    if (hearing) return
    hearing = true
    resumed?.(reconnected)
    reconnected = false
  }
  const silent = () => {
    if (!hearing) return
    hearing = false
    lost?.()
  }
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true })
    next.on('notification', (notification) => {
      if (notification.channel !== channel) return
      heard()
      if (notification.payload !== PING) message(notification.payload ?? '')
    })
    next.on('error', () => {})
    next.on('end', () => {
      if (stopped || client !== next) return
      logger.warn({ channel }, 'database notifications lost: listening again')
      silent()
      retry(0)
    })
    try {
      await next.connect()
      await next.query(`LISTEN ${quoted}`)
    } catch (error) {
      await next.end().catch(() => {})
      throw error
    }
    if (client !== undefined || retryTimer !== undefined) reconnected = true
    client = next
  }
  const retry = (attempt: number) => {
    client = undefined
    retryTimer = setTimeout(() => {
      // Heard again once its first ping comes back: what was sent meanwhile was missed.
      connect().catch(() => retry(attempt + 1))
    }, Math.min(LISTEN_RETRY_MAX_MS, 250 * 2 ** attempt))
    retryTimer.unref()
  }
  let pinging = false
  const pinger = setInterval(() => {
    if (Date.now() - heardAt > LISTEN_SILENCE_MS) silent()
    if (!client || pinging) return
    pinging = true
    client
      .query(`NOTIFY ${quoted}, '${PING}'`)
      .catch(() => {})
      .finally(() => (pinging = false))
  }, LISTEN_PING_MS)
  pinger.unref()
  await connect()
  return async () => {
    stopped = true
    clearInterval(pinger)
    clearTimeout(retryTimer)
    await client?.end().catch(() => {})
  }
}
