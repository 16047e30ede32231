import type { Redis } from 'ioredis'

/**
 * Per-account lock-out of password sign-in: this many failed attempts for one email within the
 * window lock password sign-in for that email for the lock time. The per-address rate limits do
 * not stop an attacker who spreads guesses over many addresses; this does. Counted per email
 * whether or not an account has it, so that the answers tell nothing about which emails exist.
 * A successful sign-in and a password reset clear the count; a code sign-in and a password reset
 * stay open while the password is locked, and the owner's own browser (a "known device",
 * known-device.ts) is not subject to the lock: strangers cannot lock the owner out.
 */
export const SIGN_IN_LOCKOUT = {
  maxFailures: 5,
  windowSeconds: 15 * 60,
  lockSeconds: 15 * 60,
} as const

export interface SignInLockout {
  /** Seconds until password sign-in opens again for this email; 0 when it is open. */
  lockedFor(email: string): Promise<number>
  /** Counts a failed attempt; true when this failure locked the email. */
  recordFailure(email: string): Promise<boolean>
  /** Forgets the failures of this email and lifts its lock. */
  clear(email: string): Promise<void>
}

/** `Ada@Example.com ` and `ada@example.com` are one email (better-auth lowercases it too). */
const normalize = (email: string) => email.trim().toLowerCase()

const windowMs = SIGN_IN_LOCKOUT.windowSeconds * 1000
const lockMs = SIGN_IN_LOCKOUT.lockSeconds * 1000

/** One process's counters: enough for a single instance. */
export function createMemorySignInLockout(now: () => number = Date.now): SignInLockout {
  // Insertion order is write order (an entry is deleted before it is written again), and an entry
  // lives at most max(window, lock) after its last write: pruning from the front until a live
  // entry keeps memory bounded by the emails that failed within that time.
  const entries = new Map<string, { failures: number; expiresAt: number }>()
  const live = (key: string, time: number) => {
    const entry = entries.get(key)
    return entry && entry.expiresAt > time ? entry : undefined
  }
  const prune = (time: number) => {
    for (const [key, entry] of entries) {
      if (entry.expiresAt > time) break
      entries.delete(key)
    }
  }

  return {
    lockedFor(email) {
      const time = now()
      const entry = live(normalize(email), time)
      const locked = entry && entry.failures >= SIGN_IN_LOCKOUT.maxFailures
      return Promise.resolve(locked ? Math.ceil((entry.expiresAt - time) / 1000) : 0)
    },
    recordFailure(email) {
      const time = now()
      prune(time)
      const key = normalize(email)
      const entry = live(key, time) ?? { failures: 0, expiresAt: time + windowMs }
      entry.failures += 1
      const locks = entry.failures === SIGN_IN_LOCKOUT.maxFailures
      if (locks) entry.expiresAt = time + lockMs
      entries.delete(key)
      entries.set(key, entry)
      return Promise.resolve(locks)
    },
    clear(email) {
      entries.delete(normalize(email))
      return Promise.resolve()
    },
  }
}

/**
 * One counter per email, expiring with the window from the first failure; the failure that
 * reaches the limit sets its expiry to the lock time. Atomic, so that instances counting
 * together cannot both miss the limit.
 */
const recordFailureScript = `
local failures = redis.call('INCR', KEYS[1])
if failures == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
if failures == tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return failures`

/** Counters in Redis (REDIS_URL), shared by every instance. */
export function createRedisSignInLockout(redis: Redis, keyPrefix: string): SignInLockout {
  const keyOf = (email: string) => `${keyPrefix}${normalize(email)}`
  return {
    async lockedFor(email) {
      const key = keyOf(email)
      // Not atomic, and need not be: a key that expires in between reads as open (PTTL -2).
      const [failures, remainingMs] = await Promise.all([redis.get(key), redis.pttl(key)])
      const locked = Number(failures ?? 0) >= SIGN_IN_LOCKOUT.maxFailures
      return locked && remainingMs > 0 ? Math.ceil(remainingMs / 1000) : 0
    },
    async recordFailure(email) {
      const failures = await redis.eval(
        recordFailureScript,
        1,
        keyOf(email),
        windowMs,
        lockMs,
        SIGN_IN_LOCKOUT.maxFailures,
      )
      return failures === SIGN_IN_LOCKOUT.maxFailures
    },
    async clear(email) {
      await redis.del(keyOf(email))
    },
  }
}
