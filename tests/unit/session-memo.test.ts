import { describe, expect, it } from 'vitest'
import {
  ExpiringLru,
  cacheCookieExpiry,
  readSessionCookies,
} from '@/server/auth/session-memo'

describe('the session memo (ExpiringLru)', () => {
  const clock = (start = 1_000_000) => {
    const state = { now: start }
    return { state, now: () => state.now }
  }

  it('answers what was kept, until its expiry and not after', () => {
    const { state, now } = clock()
    const memo = new ExpiringLru<string>({ maxEntries: 10, now })
    memo.set('a', 'Ada', state.now + 60_000)
    expect(memo.get('a')).toBe('Ada')
    state.now += 59_999
    expect(memo.get('a')).toBe('Ada')
    state.now += 1
    expect(memo.get('a')).toBeUndefined()
    // The expired entry is gone, not only hidden.
    expect(memo.size).toBe(0)
    expect(memo.get('b')).toBeUndefined()
  })

  it('keeps nothing whose expiry has passed', () => {
    const { state, now } = clock()
    const memo = new ExpiringLru<string>({ maxEntries: 10, now })
    memo.set('past', 'x', state.now - 1)
    memo.set('now', 'x', state.now)
    memo.set('nan', 'x', Number.NaN)
    expect(memo.size).toBe(0)
  })

  it('replaces an entry and its expiry when set again', () => {
    const { state, now } = clock()
    const memo = new ExpiringLru<string>({ maxEntries: 10, now })
    memo.set('a', 'old', state.now + 60_000)
    memo.set('a', 'new', state.now + 1_000)
    expect(memo.get('a')).toBe('new')
    state.now += 1_000
    expect(memo.get('a')).toBeUndefined()
    // Setting an expired time removes what was there.
    memo.set('b', 'kept', state.now + 10)
    memo.set('b', 'gone', state.now - 10)
    expect(memo.get('b')).toBeUndefined()
  })

  it('holds at most maxEntries, forgetting the least recently used first', () => {
    const { state, now } = clock()
    const memo = new ExpiringLru<number>({ maxEntries: 3, now })
    const until = state.now + 60_000
    memo.set('a', 1, until)
    memo.set('b', 2, until)
    memo.set('c', 3, until)
    expect(memo.get('a')).toBe(1) // a is now the most recently used; b the least
    memo.set('d', 4, until)
    expect(memo.size).toBe(3)
    expect(memo.get('b')).toBeUndefined()
    expect([memo.get('a'), memo.get('c'), memo.get('d')]).toEqual([1, 3, 4])

    for (let i = 0; i < 1000; i++) memo.set(`k${i}`, i, until)
    expect(memo.size).toBe(3)
    expect([memo.get('k997'), memo.get('k998'), memo.get('k999')]).toEqual([997, 998, 999])
  })

  it('refuses a size below one', () => {
    expect(() => new ExpiringLru({ maxEntries: 0 })).toThrow(RangeError)
  })
})

describe('reading the session cookies of a request', () => {
  const names = { token: 'lingua.session_token', cache: 'lingua.session_data' }

  it('reads both and makes a key of their exact values', () => {
    const read = readSessionCookies('lingua.session_token=tok.sig; lingua.session_data=DATA', names)
    expect(read).toMatchObject({ token: 'tok.sig', cache: 'DATA' })
    expect(read?.key).toMatch(/^[\w-]{43}$/)
    // Other cookies, order and spacing do not change the key; either value does.
    const same = readSessionCookies(' theme=dark;lingua.session_data=DATA ;  lingua.session_token=tok.sig', names)
    expect(same?.key).toBe(read?.key)
    expect(readSessionCookies('lingua.session_token=tok.sig; lingua.session_data=DATB', names)?.key).not.toBe(read?.key)
    expect(readSessionCookies('lingua.session_token=tok.sih; lingua.session_data=DATA', names)?.key).not.toBe(read?.key)
    // The values cannot be shifted from one cookie to the other to make the same key.
    const a = readSessionCookies('lingua.session_token=ab; lingua.session_data=c', names)
    const b = readSessionCookies('lingua.session_token=a; lingua.session_data=bc', names)
    expect(a?.key).not.toBe(b?.key)
  })

  it('decodes values as better-auth does (quotes, percent-encoding)', () => {
    const read = readSessionCookies('lingua.session_token="tok%2Bsig%3D"; lingua.session_data=DATA', names)
    expect(read?.token).toBe('tok+sig=')
    expect(readSessionCookies('lingua.session_token=tok+sig=; lingua.session_data=DATA', names)?.key).toBe(read?.key)
  })

  it('gives nothing to remember without both cookies', () => {
    expect(readSessionCookies(undefined, names)).toBeUndefined()
    expect(readSessionCookies('', names)).toBeUndefined()
    expect(readSessionCookies('lingua.session_token=tok.sig', names)).toBeUndefined()
    expect(readSessionCookies('lingua.session_data=DATA', names)).toBeUndefined()
    expect(readSessionCookies('lingua.session_token=; lingua.session_data=DATA', names)).toBeUndefined()
  })

  it('gives nothing to remember when a cookie is sent twice or the cache cookie comes in chunks', () => {
    expect(
      readSessionCookies('lingua.session_token=a; lingua.session_data=D; lingua.session_token=b', names),
    ).toBeUndefined()
    expect(
      readSessionCookies('lingua.session_token=a; lingua.session_data=D; lingua.session_data=E', names),
    ).toBeUndefined()
    expect(
      readSessionCookies('lingua.session_token=a; lingua.session_data=D; lingua.session_data.0=E', names),
    ).toBeUndefined()
  })

  it('uses the names it is given (the __Secure- ones over HTTPS)', () => {
    const secure = { token: '__Secure-lingua.session_token', cache: '__Secure-lingua.session_data' }
    expect(readSessionCookies('lingua.session_token=a; lingua.session_data=D', secure)).toBeUndefined()
    expect(readSessionCookies('__Secure-lingua.session_token=a; __Secure-lingua.session_data=D', secure)).toMatchObject({
      token: 'a',
      cache: 'D',
    })
  })
})

describe('the expiry of a cache cookie better-auth accepted', () => {
  const answer = { session: { id: 's1' }, user: { id: 'u1' } }
  const cookie = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64url')
  const compact = (overrides: { expiresAt?: unknown; sessionExpiresAt?: unknown; sessionId?: string; userId?: string } = {}) =>
    cookie({
      session: {
        session: { id: overrides.sessionId ?? 's1', token: 'tok', expiresAt: overrides.sessionExpiresAt ?? '2040-01-01T00:00:00.000Z' },
        user: { id: overrides.userId ?? 'u1' },
        updatedAt: 1,
        version: '1',
      },
      expiresAt: 'expiresAt' in overrides ? overrides.expiresAt : 1_900_000_000_000,
      signature: 'sig',
    })

  it("is the cookie's expiresAt, or the session's own expiry when sooner", () => {
    expect(cacheCookieExpiry(compact(), answer)).toBe(1_900_000_000_000)
    expect(cacheCookieExpiry(compact({ sessionExpiresAt: '2020-01-01T00:00:00.000Z' }), answer)).toBe(
      Date.parse('2020-01-01T00:00:00.000Z'),
    )
  })

  it('is nothing for a cookie of another session or user', () => {
    expect(cacheCookieExpiry(compact({ sessionId: 'other' }), answer)).toBeUndefined()
    expect(cacheCookieExpiry(compact({ userId: 'u2' }), answer)).toBeUndefined()
  })

  it('is nothing for a malformed cookie', () => {
    for (const value of ['', 'not base64 json', cookie(null), cookie({ session: null }), cookie([1, 2])]) {
      expect(cacheCookieExpiry(value, answer)).toBeUndefined()
    }
    expect(cacheCookieExpiry(compact({ expiresAt: '1900000000000' }), answer)).toBeUndefined()
    expect(cacheCookieExpiry(compact({ expiresAt: undefined }), answer)).toBeUndefined()
    expect(cacheCookieExpiry(compact({ sessionExpiresAt: 'soon' }), answer)).toBeUndefined()
  })
})
