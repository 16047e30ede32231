import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { LIVE_HEARTBEAT_MS } from '@/shared/live'

/**
 * The open live streams of each client (a session, or a visitor's address), counted so that one
 * client cannot hold any number of them (issue 29): in Redis when there is one, by every instance
 * together; else by this instance alone. A slot is given back when its stream ends; in Redis each
 * is also kept alive by its instance every heartbeat, so the slots of an instance that died
 * (kill -9) lapse by themselves within SLOT_TTL_MS.
 */
export interface StreamSlots {
  /** A slot of `key` if fewer than `max` are held; the function gives it back (once). */
  take(key: string, max: number): Promise<(() => void) | undefined>
}

/** How long a slot in Redis outlives the last sign of life of its instance. */
const SLOT_TTL_MS = 3 * LIVE_HEARTBEAT_MS

/** Counts in this process only (no Redis, and while Redis does not answer). */
export function memoryStreamSlots(): StreamSlots {
  const held = new Map<string, number>()
  return {
    take(key, max) {
      const count = held.get(key) ?? 0
      if (count >= max) return Promise.resolve(undefined)
      held.set(key, count + 1)
      let given = false
      return Promise.resolve(() => {
        if (given) return
        given = true
        const left = (held.get(key) ?? 1) - 1
        if (left > 0) held.set(key, left)
        else held.delete(key)
      })
    },
  }
}

/**
 * Takes a slot atomically: forgets the lapsed ones, counts, adds. KEYS[1] the client's sorted set
 * (member: a slot, score: when it lapses); ARGV: now, max, the new slot, its lapse, the key's TTL.
 */
const TAKE_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`

/** Shared by the instances on one Redis, under `${prefix}live-streams:`. */
export function redisStreamSlots(redis: Redis, prefix: string, logger: Logger): StreamSlots {
  const fallback = memoryStreamSlots()
  /** This instance's slots in Redis: slot → its key. */
  const mine = new Map<string, string>()
  const renew = setInterval(() => {
    if (mine.size === 0) return
    const lapse = Date.now() + SLOT_TTL_MS
    const batch = redis.pipeline()
    for (const [slot, key] of mine) {
      batch.zadd(key, 'XX', lapse, slot)
      batch.pexpire(key, SLOT_TTL_MS)
    }
    batch.exec().catch((error: unknown) => logger.warn({ err: error }, 'the live stream slots could not be renewed in Redis'))
  }, LIVE_HEARTBEAT_MS)
  // Nothing to wait for at shutdown: the slots lapse with the process.
  renew.unref()
  return {
    async take(client, max) {
      const key = `${prefix}live-streams:${client}`
      const slot = randomUUID()
      const now = Date.now()
      let taken: unknown
      try {
        taken = await redis.eval(TAKE_SCRIPT, 1, key, now, max, slot, now + SLOT_TTL_MS, SLOT_TTL_MS)
      } catch (error) {
        // Redis does not answer: the cap holds per instance meanwhile.
        logger.warn({ err: error }, 'the live stream slots could not be counted in Redis: counted by this instance')
        return fallback.take(client, max)
      }
      if (taken !== 1) return undefined
      mine.set(slot, key)
      return () => {
        if (!mine.delete(slot)) return
        redis.zrem(key, slot).catch((error: unknown) => logger.warn({ err: error }, 'a live stream slot could not be given back in Redis'))
      }
    },
  }
}
