import type { Redis } from 'ioredis'
import type { MailKind } from './types'

/**
 * Decides whether an email of a kind may go to an address now. `allow` claims the slot when it
 * answers true, so two concurrent requests cannot both pass; a shared implementation (Redis:
 * `SET key 1 NX PX window`) must keep that property.
 */
export interface MailThrottle {
  allow(kind: MailKind, email: string): Promise<boolean>
  /** How long until the slot is free again: 0 when it is free now. */
  retryAfterMs(kind: MailKind, email: string): Promise<number>
  /** Gives the slot back, e.g. when the delivery failed, so that the user may ask again at once. */
  release?(kind: MailKind, email: string): Promise<void>
}

const mailThrottleWindowMs = 60_000

export interface MemoryMailThrottleOptions {
  /** Length of the window in milliseconds (default 60 s). */
  windowMs?: number
  /** The clock, in milliseconds (default `Date.now`). */
  now?: () => number
}

/** The address as the throttle counts it: `A@Example.com ` and `a@example.com` are one address. */
function throttleKey(kind: MailKind, email: string): string {
  return `${kind}:${email.trim().toLowerCase()}`
}

/** One process's throttle: enough for a single instance; several share `createRedisMailThrottle`. */
export function createMemoryMailThrottle(options: MemoryMailThrottleOptions = {}): MailThrottle {
  const windowMs = options.windowMs ?? mailThrottleWindowMs
  const now = options.now ?? Date.now
  // Insertion order is claim order (a key is deleted before it is set again), so expired entries
  // are always at the front and pruning stops at the first live one: memory stays bounded by the
  // number of addresses mailed within one window.
  const claimedAt = new Map<string, number>()

  const prune = (time: number) => {
    for (const [key, at] of claimedAt) {
      if (time - at < windowMs) break
      claimedAt.delete(key)
    }
  }

  return {
    allow(kind, email) {
      const time = now()
      prune(time)
      const key = throttleKey(kind, email)
      const at = claimedAt.get(key)
      // `at > time` only when the clock went back; treat the slot as taken until it passes.
      if (at !== undefined && time - at < windowMs) return Promise.resolve(false)
      claimedAt.delete(key)
      claimedAt.set(key, time)
      return Promise.resolve(true)
    },
    retryAfterMs(kind, email) {
      const at = claimedAt.get(throttleKey(kind, email))
      return Promise.resolve(at === undefined ? 0 : Math.max(0, windowMs - (now() - at)))
    },
    release(kind, email) {
      claimedAt.delete(throttleKey(kind, email))
      return Promise.resolve()
    },
  }
}

/**
 * The throttle of several instances (REDIS_URL): a key per kind and address, claimed with
 * `SET NX PX`, so that of two instances asked at once only one sends.
 */
export function createRedisMailThrottle(redis: Redis, keyPrefix: string, windowMs = mailThrottleWindowMs): MailThrottle {
  const keyOf = (kind: MailKind, email: string) => `${keyPrefix}${throttleKey(kind, email)}`
  return {
    async allow(kind, email) {
      return (await redis.set(keyOf(kind, email), '1', 'PX', windowMs, 'NX')) === 'OK'
    },
    async retryAfterMs(kind, email) {
      // -2: no such key (free); -1 cannot happen (every key is set with an expiry).
      return Math.max(0, await redis.pttl(keyOf(kind, email)))
    },
    async release(kind, email) {
      // Deletes the key whoever holds it: only a delivery failing after its window ended (a very
      // slow SMTP server) can free a newer claim, which lets one more email through at worst.
      await redis.del(keyOf(kind, email))
    },
  }
}
