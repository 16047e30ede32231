import type { MiddlewareHandler } from 'hono'
import type { Redis } from 'ioredis'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'
import type { AppEnv } from './context'
import { ApiError } from './errors'

/**
 * A limit on the app's own endpoints (better-auth counts its own) per `key` of the request (the
 * client's address, or the signed-in account): `points` requests per `seconds`, then 429 with
 * Retry-After. Counted in Redis when there is one, so that
 * instances count together; in this process while Redis is unreachable (the limit still holds
 * per instance) and without Redis. With `acceptedOnly`, a request refused (any answer but a 2xx)
 * is given its point back: it is taken first, so that requests at once cannot pass the limit.
 */
export function rateLimit(options: {
  name: string
  points: number
  seconds: number
  key: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => string
  redis?: Redis
  redisKeyPrefix?: string
  acceptedOnly?: boolean
}): MiddlewareHandler<AppEnv> {
  const limits = { points: options.points, duration: options.seconds }
  const memory = new RateLimiterMemory({ ...limits, keyPrefix: options.name })
  const limiter = options.redis
    ? new RateLimiterRedis({
        ...limits,
        storeClient: options.redis,
        keyPrefix: `${options.redisKeyPrefix ?? ''}rate-limit:${options.name}`,
        insuranceLimiter: memory,
      })
    : memory
  return async (c, next) => {
    const key = options.key(c)
    try {
      await limiter.consume(key)
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal
      const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))
      throw new ApiError('rate_limited', `Too many requests. Try again in ${seconds} s.`, undefined, {
        'Retry-After': String(seconds),
      })
    }
    await next()
    if (options.acceptedOnly && (c.res.status < 200 || c.res.status > 299)) await limiter.reward(key, 1)
  }
}
