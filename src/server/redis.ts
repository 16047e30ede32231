import { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { errorChain } from './error-chain'

/**
 * The shared Redis of several instances (REDIS_URL): session cache, rate-limit counters, sign-in
 * failure counters and the mail throttle.
 */
export function openRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    // A command waits at most this long for a lost connection instead of queueing forever.
    maxRetriesPerRequest: 2,
    connectTimeout: 3000,
    enableOfflineQueue: true,
  })
  redis.on('error', (error) => logger.warn({ err: error }, 'redis error'))
  return redis
}

/**
 * Whether an error means Redis cannot be reached: a command gave up after its retries, or was
 * sent on a closed connection (answer 503, not 500).
 */
export function isRedisUnavailable(error: unknown): boolean {
  for (const { name, message } of errorChain(error)) {
    if (name === 'MaxRetriesPerRequestError') return true
    if (typeof message === 'string' && /^Connection is closed\.|Stream isn't writeable/.test(message)) return true
  }
  return false
}
