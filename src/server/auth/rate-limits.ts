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

/** better-auth's rate limits, counted in Redis when there is one (shared by every instance). */
export function authRateLimit(config: Config, withRedis: boolean) {
  return {
    // In every environment, not only in production.
    enabled: true,
    storage: withRedis ? 'secondary-storage' : 'memory',
    window: 60,
    max: Math.ceil(100 * config.authRateLimitScale),
    customRules: Object.fromEntries(
      Object.entries(rateLimits).map(([path, max]) => [
        path,
        { window: 60, max: Math.ceil(max * config.authRateLimitScale) },
      ]),
    ),
  } satisfies BetterAuthOptions['rateLimit']
}
