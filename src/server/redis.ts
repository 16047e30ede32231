import { Redis } from 'ioredis'
import type { Logger } from 'pino'

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
