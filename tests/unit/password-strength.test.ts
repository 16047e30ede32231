import { describe, expect, it } from 'vitest'
import { SCORED_CHARACTERS, isWeakPassword } from '@/server/auth/password-strength'

describe('isWeakPassword', () => {
  it('refuses common passwords and ones built from the user’s own name or email', () => {
    expect(isWeakPassword('password123')).toBe(true)
    expect(isWeakPassword('qwertyuiop')).toBe(true)
    expect(isWeakPassword('lovelace@example.com', ['lovelace@example.com', 'Ada Lovelace'])).toBe(true)
    expect(isWeakPassword('correct horse battery staple')).toBe(false)
  })

  it(`scores only the first ${SCORED_CHARACTERS} characters: what follows neither saves nor spoils them`, () => {
    const weak = 'a'.repeat(SCORED_CHARACTERS)
    const strong = 'correct horse battery staple 42!'.slice(0, SCORED_CHARACTERS)
    expect(isWeakPassword(weak + 'Xk9#mQ2$vL7@pR4&wN8*zT5!')).toBe(true)
    expect(isWeakPassword(strong + 'a'.repeat(96))).toBe(false)
  })
})
