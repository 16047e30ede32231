import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { authRateLimit, authRequestCounter } from '@/server/auth/rate-limits'
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

describe('a request counted for better-auth (a session read the app answered itself)', () => {
  const ipHeader = 'x-client'
  const request = (ip?: string) => new Request('http://app.test/api/auth/get-session', ip ? { headers: { [ipHeader]: ip } } : {})
  const options = (withRedis: boolean, increment?: (key: string, ttl: number) => Promise<number>) => ({
    rateLimit: authRateLimit({ authRateLimitScale: 0.005 } as Config, withRedis),
    advanced: { ipAddress: { ipAddressHeaders: [ipHeader] } },
    ...(increment ? { secondaryStorage: { get: () => null, getAndDelete: () => null, set: () => undefined, delete: () => undefined, increment } } : {}),
  })

  it("counts in the instance's counters under better-auth's key: 600 × 0.005 = 3 reads, then refused", async () => {
    const shared = options(false)
    const count = authRequestCounter(shared, '/get-session')
    expect([await count(request('1.2.3.4')), await count(request('1.2.3.4')), await count(request('1.2.3.4'))]).toEqual([true, true, true])
    expect(await count(request('1.2.3.4'))).toBe(false)
    expect(await count(request('5.6.7.8'))).toBe(true)
    // The very counter better-auth consumes for its own answers.
    expect((await shared.rateLimit.customStorage?.consume('5.6.7.8|/get-session', { window: 60, max: 3 }))?.allowed).toBe(true)
    expect((await shared.rateLimit.customStorage?.consume('5.6.7.8|/get-session', { window: 60, max: 3 }))?.allowed).toBe(true)
    expect(await count(request('5.6.7.8'))).toBe(false)
  })

  it("counts in Redis as better-auth does (its key, the rule's window), when there is Redis", async () => {
    const counts = new Map<string, number>()
    const calls: [string, number][] = []
    const increment = (key: string, ttl: number) => {
      calls.push([key, ttl])
      counts.set(key, (counts.get(key) ?? 0) + 1)
      return Promise.resolve(counts.get(key) ?? 0)
    }
    const count = authRequestCounter(options(true, increment), '/get-session')
    for (let i = 0; i < 3; i++) expect(await count(request('1.2.3.4'))).toBe(true)
    expect(await count(request('1.2.3.4'))).toBe(false)
    expect(calls[0]).toEqual(['1.2.3.4|/get-session', 60])
  })

  it('leaves the decision to better-auth for a path without a rule of its own', async () => {
    expect(await authRequestCounter(options(false), '/no-rule-here')(request('1.2.3.4'))).toBe(false)
  })
})
