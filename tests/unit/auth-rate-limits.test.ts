import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { authRateLimit } from '@/server/auth/rate-limits'
import type { Config } from '@/server/config'

const config = { authRateLimitScale: 1 } as Config
const rule = { window: 60, max: 3 }

function storage() {
  const { customStorage } = authRateLimit(config, false)
  if (!customStorage) throw new Error('without Redis, the counters are the instance’s own')
  return customStorage
}

describe('the auth rate limits without Redis', () => {
  it('let `max` requests of a key through in a window, then refuse it with the seconds left', async () => {
    const counters = storage()
    for (let i = 0; i < rule.max; i++) expect(await counters.consume('1.2.3.4|/sign-in/email', rule)).toEqual({ allowed: true, retryAfter: null })
    const refused = await counters.consume('1.2.3.4|/sign-in/email', rule)
    expect(refused.allowed).toBe(false)
    expect(refused.retryAfter).toBeGreaterThan(0)
    expect(refused.retryAfter).toBeLessThanOrEqual(rule.window)
    // Another key, another count.
    expect((await counters.consume('5.6.7.8|/sign-in/email', rule)).allowed).toBe(true)
  })

  it('count again once the window opened by the first request has passed', async () => {
    const counters = storage()
    const short = { window: 0.05, max: 1 }
    expect((await counters.consume('key', short)).allowed).toBe(true)
    expect((await counters.consume('key', short)).allowed).toBe(false)
    await expect.poll(async () => (await counters.consume('key', short)).allowed, { interval: 20 }).toBe(true)
  })

  it('never refuse a steady pace under the limit, however long it goes on without a pause', async () => {
    const counters = storage()
    // At most 4 requests in any 200 ms window, of 6 allowed; no gap as long as a window.
    const short = { window: 0.2, max: 6 }
    for (let request = 1; request <= 20; request++) {
      expect((await counters.consume('key', short)).allowed, `request ${request}`).toBe(true)
      await sleep(50)
    }
  })

  it('are counted per instance: two instances in one process do not count each other’s requests', async () => {
    const [one, other] = [storage(), storage()]
    for (let i = 0; i < rule.max; i++) await one.consume('key', rule)
    expect((await one.consume('key', rule)).allowed).toBe(false)
    expect((await other.consume('key', rule)).allowed).toBe(true)
  })

  it('are counted in Redis when there is one', () => {
    expect(authRateLimit(config, true)).toMatchObject({ storage: 'secondary-storage' })
    expect(authRateLimit(config, true)).not.toHaveProperty('customStorage')
  })
})
