import { describe, expect, it } from 'vitest'
import { nameProblem, readableName } from '@/shared/auth'
import { nameSchema } from '@/shared/auth-schemas'

describe('names are text people can read', () => {
  it.each([
    ['a bell', 'Ada\u0007', 'control'],
    ['an ANSI escape', '\u001b[2JAda', 'control'],
    ['a C1 control', 'Ada\u009b', 'control'],
    ['a right-to-left override', 'Ada\u202Etxt.exe', 'control'],
    ['a left-to-right mark', '\u200EAda', 'control'],
    ['an isolate', '\u2066Ada\u2069', 'control'],
    ['zero-width joiners', '\u200D\u200C\u200D', 'blank'],
    ['a Hangul filler', '\u3164', 'blank'],
    ['Hangul choseong and jungseong fillers', '\u115F\u1160', 'blank'],
    ['a Braille blank and a word joiner', '\u2800\u2060', 'blank'],
    ['no-break and ideographic spaces', '\u00A0\u3000', 'blank'],
  ])('refuses %s', (_why, name, problem) => {
    expect(nameProblem(name)).toBe(problem)
    expect(nameSchema.safeParse(name).success).toBe(false)
  })

  it.each(['Ada Lovelace', 'Zoë Ångström', '李小龙', 'محمد علي', 'नमस्ते', '👩‍💻 Ada', 'Ana-María O’Brien'])('takes %s', (name) => {
    expect(nameProblem(name)).toBeUndefined()
    expect(nameSchema.safeParse(name).success).toBe(true)
  })

  it('makes a name from elsewhere (a provider) readable, or says there is none', () => {
    expect(readableName('\u001b[31mAda\u001b[0m \u202ELovelace')).toBe('[31mAda[0m Lovelace')
    expect(readableName('  Grace\u0000 Hopper ')).toBe('Grace Hopper')
    expect(readableName('\u3164\u200D')).toBeUndefined()
    expect(readableName('x'.repeat(150))).toHaveLength(100)
  })
})
