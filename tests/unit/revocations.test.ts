import { describe, expect, it } from 'vitest'
import { Revocations } from '@/server/auth/revocations'
import { untrustedCacheCookieRemover } from '@/server/auth/session-memo'

const cacheOf = (userId: string) =>
  Buffer.from(JSON.stringify({ session: { session: { token: 't' }, user: { id: userId } }, expiresAt: 1, signature: 's' })).toString('base64url')

describe('revocations', () => {
  it('distrusts an account for the window after its change, and every account after missed events', () => {
    let now = 1_000
    const revocations = new Revocations(60_000, () => now)
    revocations.revoke('a')
    expect(revocations.isRevoked('a')).toBe(true)
    expect(revocations.isRevoked('b')).toBe(false)
    now += 60_000
    expect(revocations.isRevoked('a')).toBe(false)
    revocations.revokeAll()
    expect(revocations.isRevoked('b')).toBe(true)
    now += 60_000
    expect(revocations.isRevoked('b')).toBe(false)
  })
})

describe('untrusted session cache cookies', () => {
  const remove = untrustedCacheCookieRemover('lingua', (userId) => userId === 'revoked')

  it('keeps a header whose cache cookie is well formed and trusted', () => {
    expect(remove(`lingua.session_token=x; lingua.session_data=${cacheOf('ok')}`)).toBeUndefined()
    expect(remove('lingua.session_token=x; other=1')).toBeUndefined()
  })

  it('drops the cache cookie of a revoked account, whole or in chunks, and keeps the rest', () => {
    expect(remove(`lingua.session_token=x; lingua.session_data=${cacheOf('revoked')}; theme=dark`)).toBe('lingua.session_token=x; theme=dark')
    const value = cacheOf('revoked')
    const [first, second] = [value.slice(0, 10), value.slice(10)]
    expect(remove(`lingua.session_data.1=${second}; lingua.session_token=x; lingua.session_data.0=${first}`)).toBe('lingua.session_token=x')
    expect(remove(`__Secure-lingua.session_data=${cacheOf('revoked')}`)).toBe('')
  })

  it('drops a malformed cache cookie (better-auth would throw on it)', () => {
    expect(remove('lingua.session_token=x; lingua.session_data=not!base64')).toBe('lingua.session_token=x')
  })
})
