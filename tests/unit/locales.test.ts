import { describe, expect, it } from 'vitest'
import en from '../../src/client/locales/en'
import ru from '../../src/client/locales/ru'

type Tree = { [key: string]: string | Tree }

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') out.set(path, value)
    else for (const [k, v] of flatten(value, path)) out.set(k, v)
  }
  return out
}

const variables = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort()

describe('interface strings', () => {
  const english = flatten(en)
  const russian = flatten(ru)

  it('has every key in both languages', () => {
    expect([...russian.keys()].sort()).toEqual([...english.keys()].sort())
  })

  it('has no empty string and the same placeholders in both languages', () => {
    for (const [key, text] of english) {
      expect(text.trim(), key).not.toBe('')
      expect(russian.get(key)?.trim(), key).not.toBe('')
      expect(variables(russian.get(key) ?? ''), key).toEqual(variables(text))
    }
  })

  it('keeps the seed strings', () => {
    expect(english.get('table.noData')).toBe('No data')
    expect(english.get('table.noMatch')).toBe('No matching data')
    expect(english.get('toast.close')).toBe('Close')
    expect(english.get('palette.placeholder')).toBe('Type a command or search...')
    expect(english.get('errors.heading')).toBe('Something went wrong.')
    expect(english.get('errors.unknown')).toBe('An unknown error occurred.')
    expect(russian.get('errors.unknown')).toBe('Произошла неизвестная ошибка.')
  })
})
