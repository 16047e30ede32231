import { describe, expect, it } from 'vitest'
import ru from '../../src/client/locales/ru'

/** In development builds each messages store keeps its component name and English strings. */
interface MessagesStore {
  component: string
  base: Record<string, string | { input: string }>
}

const modules = import.meta.glob<Record<string, unknown>>('../../src/client/**/messages.ts', {
  eager: true,
})

const english = new Map<string, Map<string, string>>()
for (const exports of Object.values(modules)) {
  for (const value of Object.values(exports)) {
    const store = value as Partial<MessagesStore>
    if (typeof store.component !== 'string' || !store.base) continue
    const strings = new Map<string, string>()
    for (const [key, text] of Object.entries(store.base)) {
      strings.set(key, typeof text === 'string' ? text : text.input)
    }
    english.set(store.component, strings)
  }
}

const russian: Record<string, Record<string, string>> = ru
const placeholders = (text: string) => [...text.matchAll(/{(\w+)}/g)].map((m) => m[1]).sort()

describe('interface strings', () => {
  it('finds the messages of every component', () => {
    expect(english.size).toBeGreaterThanOrEqual(10)
  })

  it('has every component and key in both languages', () => {
    expect(Object.keys(russian).sort()).toEqual([...english.keys()].sort())
    for (const [component, strings] of english) {
      expect(Object.keys(russian[component] ?? {}).sort(), component).toEqual([...strings.keys()].sort())
    }
  })

  it('has no empty string and the same placeholders in both languages', () => {
    for (const [component, strings] of english) {
      for (const [key, text] of strings) {
        const translated = russian[component]?.[key] ?? ''
        expect(text.trim(), `${component}.${key}`).not.toBe('')
        expect(translated.trim(), `${component}.${key}`).not.toBe('')
        expect(placeholders(translated), `${component}.${key}`).toEqual(placeholders(text))
      }
    }
  })

  it('keeps the seed strings', () => {
    expect(english.get('ui')?.get('noData')).toBe('No data')
    expect(english.get('ui')?.get('noMatch')).toBe('No matching data')
    expect(english.get('ui')?.get('close')).toBe('Close')
    expect(english.get('palette')?.get('placeholder')).toBe('Type a command or search...')
    expect(english.get('errors')?.get('heading')).toBe('Something went wrong.')
    expect(english.get('errors')?.get('unknown')).toBe('An unknown error occurred.')
    expect(russian.errors?.unknown).toBe('Произошла неизвестная ошибка.')
  })
})
