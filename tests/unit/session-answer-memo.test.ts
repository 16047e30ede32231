import { describe, expect, it } from 'vitest'
import { sessionAnswerMemo } from '@/server/auth/session-answer-memo'

const names = { token: 'lingua.session_token', cache: 'lingua.session_data' }
const answerBody = JSON.stringify({ session: { id: 's1', userId: 'u1' }, user: { id: 'u1', name: 'Ada' } })

/** A compact cache cookie of session s1 and user u1 (only what the memo reads of it). */
const cacheCookie = (expiresAt: number, sessionExpiresAt = '2040-01-01T00:00:00.000Z') =>
  Buffer.from(
    JSON.stringify({
      session: { session: { id: 's1', expiresAt: sessionExpiresAt }, user: { id: 'u1' } },
      expiresAt,
      signature: 'sig',
    }),
  ).toString('base64url')

const request = (cookie?: string) =>
  new Request('http://app.test/api/auth/get-session', cookie ? { headers: { cookie } } : {})

/** better-auth's endpoint as the memo sees it: every call counted, its answer chosen by the test. */
function endpoint(respond: () => Response = () => json(answerBody)) {
  const calls: Request[] = []
  return {
    calls,
    answer: (sent: Request) => {
      calls.push(sent)
      return Promise.resolve(respond())
    },
  }
}
const json = (body: string, init: ResponseInit = {}) =>
  new Response(body, {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...init.headers },
  })

function setup(options: { now?: () => number; count?: () => boolean; cacheMs?: number } = {}) {
  const counted: Request[] = []
  const memo = sessionAnswerMemo({
    cookieNames: () => Promise.resolve(names),
    cacheMs: options.cacheMs ?? 60_000,
    count: (sent) => {
      counted.push(sent)
      return Promise.resolve(options.count?.() ?? true)
    },
    now: options.now,
  })
  return { memo, counted }
}

describe('the memo of get-session answers', () => {
  const now = 1_800_000_000_000
  const cookies = `${names.token}=tok.sig; ${names.cache}=${cacheCookie(now + 30_000)}`

  it('answers the same cookies again as better-auth answered them, without asking it, and counts each such request', async () => {
    const { memo, counted } = setup({ now: () => now })
    const { calls, answer } = endpoint()
    const first = await memo(request(cookies), answer)
    expect(await first.text()).toBe(answerBody)
    for (let i = 0; i < 3; i++) {
      const again = await memo(request(cookies), answer)
      expect(again.status).toBe(200)
      expect(await again.text()).toBe(answerBody)
      expect(again.headers.get('content-type')).toBe('application/json')
      expect(again.headers.get('cache-control')).toBe('no-store')
    }
    expect(calls).toHaveLength(1)
    expect(counted).toHaveLength(3)
  })

  it('keeps nothing better-auth set a cookie with, refused, or answered null', async () => {
    for (const respond of [
      () => json(answerBody, { headers: { 'set-cookie': 'lingua.session_data=; Max-Age=0' } }),
      () => json('{"message":"Too many requests"}', { status: 429 }),
      () => json('null'),
      () => json('not json'),
    ]) {
      const { memo } = setup({ now: () => now })
      const { calls, answer } = endpoint(respond)
      await memo(request(cookies), answer)
      await memo(request(cookies), answer)
      expect(calls).toHaveLength(2)
    }
  })

  it('asks better-auth for a request without both cookies, and for other cookies', async () => {
    const { memo } = setup({ now: () => now })
    const { calls, answer } = endpoint()
    await memo(request(cookies), answer)
    await memo(request(), answer)
    await memo(request(`${names.token}=tok.sig`), answer)
    await memo(request(`${names.token}=tok.other; ${names.cache}=${cacheCookie(now + 30_000)}`), answer)
    expect(calls).toHaveLength(4)
  })

  it('asks better-auth once the address is over its limit (which better-auth then refuses)', async () => {
    let within = true
    const { memo } = setup({ now: () => now, count: () => within })
    const { calls, answer } = endpoint()
    await memo(request(cookies), answer)
    await memo(request(cookies), answer)
    within = false
    await memo(request(cookies), answer)
    expect(calls).toHaveLength(2)
  })

  it("keeps an answer until the cache cookie's expiry, the session's if sooner, and never beyond cacheMs", async () => {
    let clock = now
    const { memo } = setup({ now: () => clock, cacheMs: 10_000 })
    const cases = [
      // The cookie's expiry, within cacheMs.
      { cookie: cacheCookie(now + 5_000), keptFor: 5_000 },
      // The session ends first.
      { cookie: cacheCookie(now + 9_000, new Date(now + 2_000).toISOString()), keptFor: 2_000 },
      // A cookie that claims longer than a cache cookie lives.
      { cookie: cacheCookie(now + 600_000), keptFor: 10_000 },
    ]
    for (const { cookie, keptFor } of cases) {
      clock = now
      const sent = `${names.token}=tok.sig; ${names.cache}=${cookie}`
      const { calls, answer } = endpoint()
      await memo(request(sent), answer)
      clock = now + keptFor - 1
      await memo(request(sent), answer)
      expect(calls).toHaveLength(1)
      clock = now + keptFor
      await memo(request(sent), answer)
      expect(calls).toHaveLength(2)
    }
  })

  it('keeps nothing for a cache cookie of another session or user than the answer', async () => {
    const { memo } = setup({ now: () => now })
    const other = JSON.stringify({ session: { id: 's2' }, user: { id: 'u1' } })
    const { calls, answer } = endpoint(() => json(other))
    await memo(request(cookies), answer)
    await memo(request(cookies), answer)
    expect(calls).toHaveLength(2)
  })
})
