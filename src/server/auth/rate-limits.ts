import { createRateLimitKey, getIP } from '@better-auth/core/utils/ip'
import type { BetterAuthOptions } from 'better-auth'
import type { Config } from '@/server/config'

/**
 * Requests per client address per minute on the auth endpoints an attacker would hammer, and on
 * the session reads; every other auth endpoint allows 100.
 */
const rateLimits: Record<string, number> = {
  '/sign-in/email': 10,
  '/sign-up/email': 5,
  '/sign-in/email-otp': 10,
  '/email-otp/send-verification-otp': 5,
  '/send-verification-email': 5,
  '/request-password-reset': 5,
  '/reset-password': 10,
  '/two-factor/verify-totp': 10,
  '/two-factor/verify-backup-code': 10,
  // Starting a provider sign-in and signing in with a passkey (better-auth's own rule for
  // `/sign-in/*`, 3 per 10 s, would hold back an office behind one address).
  '/sign-in/social': 20,
  '/passkey/verify-authentication': 20,
  // Every visit of the sign-in page asks for a challenge (passkey autofill).
  '/passkey/generate-authenticate-options': 60,
  // Reads every page load makes: a school or an office behind one address must not share 100.
  '/get-session': 600,
  '/list-sessions': 600,
}

type RateLimitStorage = NonNullable<NonNullable<BetterAuthOptions['rateLimit']>['customStorage']>

/** Counters kept at most; beyond, the expired go, then the oldest (as better-auth's own store). */
const MAX_COUNTERS = 100_000

/**
 * better-auth's counters in this instance's memory, in fixed windows as they are counted in Redis
 * (`@better-auth/redis-storage`: the key expires a window after its first request): `max` requests
 * a window, the window opened by the first of them. Not as better-auth's own `memory` store counts:
 * there a count starts again only after a whole window with no request let through, so a steady
 * pace far under the limit (a school's session reads) reaches it in the end and is refused a
 * minute. Its store is also one for the whole process: two instances in one process — the API tests
 * run the app in theirs — would count each other's requests.
 */
function memoryRateLimitStorage(): RateLimitStorage {
  const counters = new Map<string, { count: number; expires: number }>()
  const prune = (now: number) => {
    for (const [key, counter] of counters) if (now >= counter.expires) counters.delete(key)
    for (const key of counters.keys()) {
      if (counters.size < MAX_COUNTERS) break
      counters.delete(key)
    }
  }
  return {
    consume(key, { window, max }) {
      const now = Date.now()
      if (counters.size >= MAX_COUNTERS) prune(now)
      const windowMs = window * 1000
      const counter = counters.get(key)
      const current = counter && now < counter.expires ? counter : undefined
      if (current && current.count >= max) {
        return Promise.resolve({ allowed: false, retryAfter: Math.ceil((current.expires - now) / 1000) })
      }
      // Set again, so that the Map's order stays the order of last use.
      counters.delete(key)
      counters.set(key, { count: (current?.count ?? 0) + 1, expires: current?.expires ?? now + windowMs })
      return Promise.resolve({ allowed: true, retryAfter: null })
    },
  }
}

/** better-auth's rate limits, counted in Redis when there is one (shared by every instance). */
export function authRateLimit(config: Config, withRedis: boolean): NonNullable<BetterAuthOptions['rateLimit']> {
  return {
    // In every environment, not only in production.
    enabled: true,
    ...(withRedis ? { storage: 'secondary-storage' as const } : { customStorage: memoryRateLimitStorage() }),
    window: 60,
    max: Math.ceil(100 * config.authRateLimitScale),
    customRules: Object.fromEntries(
      Object.entries(rateLimits).map(([path, max]) => [
        path,
        { window: 60, max: Math.ceil(max * config.authRateLimitScale) },
      ]),
    ),
  }
}

/**
 * Counts a request that better-auth will not see (an answer the app kept, session-answer-memo.ts)
 * against the limit better-auth applies to `path` (one of the rules above), in the same counter:
 * the address as better-auth reads it, its key, its store (this instance's memory, or Redis).
 * True while within the limit; false over it, and when the address or the rule is unknown, so that
 * better-auth decides.
 */
export function authRequestCounter(options: BetterAuthOptions, path: string): (request: Request) => Promise<boolean> {
  const rule = options.rateLimit?.customRules?.[path]
  const custom = options.rateLimit?.customStorage
  const increment = options.secondaryStorage?.increment
  return async (request) => {
    const ip = getIP(request, options)
    if (!rule || typeof rule === 'function' || !ip) return false
    const key = createRateLimitKey(ip, path)
    if (custom) return (await custom.consume(key, rule)).allowed
    if (options.rateLimit?.storage === 'secondary-storage' && increment) return (await increment(key, rule.window)) <= rule.max
    return false
  }
}
