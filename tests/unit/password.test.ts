import { webcrypto } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { hashPassword, verifyPassword } from '@/server/auth/password'

describe('password hashing', () => {
  it('verifies the password it hashed, and no other', async () => {
    const hash = await hashPassword('correct horse battery staple')
    expect(hash).toMatch(/^scrypt\$16384\$16\$1\$/)
    expect(await verifyPassword({ hash, password: 'correct horse battery staple' })).toBe(true)
    expect(await verifyPassword({ hash, password: 'correct horse battery stable' })).toBe(false)
  })

  it(
    'leaves threads of the pool to other work during a burst of sign-ins',
    async () => {
      // What a session read waits for: better-auth checks the cookie's HMAC with WebCrypto, which
      // runs in libuv's thread pool, like scrypt.
      const key = await webcrypto.subtle.importKey('raw', new Uint8Array(32), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
      let hashed = 0
      const burst = Array.from({ length: 6 }, () => hashPassword('correct horse battery staple').then(() => hashed++))
      await webcrypto.subtle.sign('HMAC', key, new Uint8Array([1]))
      // With every thread taken by a hash, the signature would come after at least one of them.
      expect(hashed).toBe(0)
      await Promise.all(burst)
    },
    60_000,
  )
})
