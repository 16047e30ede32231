import { describe, expect, it } from 'vitest'
import ru from '@/client/locales/ru'

/** A message: one text, or one text per plural category (`plural(…)` in the base strings). */
type Text = string | Record<string, string>

/** In development builds each messages store keeps its component name and English strings. */
interface MessagesStore {
  component: string
  base: Record<string, string | { input: Text }>
}

const modules = import.meta.glob<Record<string, unknown>>('../../src/client/**/messages.ts', {
  eager: true,
})

const english = new Map<string, Map<string, Text>>()
for (const exports of Object.values(modules)) {
  for (const value of Object.values(exports)) {
    const store = value as Partial<MessagesStore>
    if (typeof store.component !== 'string' || !store.base) continue
    const strings = new Map<string, Text>()
    for (const [key, text] of Object.entries(store.base)) {
      strings.set(key, typeof text === 'string' ? text : text.input)
    }
    english.set(store.component, strings)
  }
}

const russian: Record<string, Record<string, Text>> = ru
const forms = (text: Text | undefined): string[] =>
  text === undefined ? [] : typeof text === 'string' ? [text] : Object.values(text)
const placeholders = (text: Text | undefined) =>
  [...new Set(forms(text).flatMap((form) => [...form.matchAll(/{(\w+)}/g)].map((m) => m[1])))].sort()

/**
 * Words that stay as they are in Russian: the product's name and Anki's, the framework's name and level
 * codes, acronyms (API, QR, IP, UTC), file formats and encodings (JPEG, PNG, WebP, AVIF, GIF, JSON, CSV,
 * .csv, UTF-8), key names, and what is typed literally (the https:// prefix).
 */
const sameInEveryLanguage =
  /\{\w+\}|Lingua|Anki|CEFR|\b[A-C][12]\b|\bAPI\b|\bQR\b|\bIP\b|\bUTC\b|Ctrl\+K|\bF8\b|\bEnter\b|\bEscape\b|\bShift\b|\b(?:JPEG|PNG|WebP|AVIF|GIF|JSON|CSV|UTF-8)\b|\.csv\b|https:\/\/\S*/g
const latin = /[a-z]/i
const cyrillic = /[а-яё]/i

/** Problems of one Russian text against its English original; none when it is a translation. */
function translationProblems(englishText: string, russianText: string): string[] {
  const problems: string[] = []
  if (!russianText.trim()) return ['is empty']
  const englishWords = englishText.replace(sameInEveryLanguage, '')
  const russianWords = russianText.replace(sameInEveryLanguage, '')
  if (latin.test(englishWords)) {
    if (russianText === englishText) return ['is the English text']
    if (!cyrillic.test(russianWords)) problems.push('has no Russian words')
  }
  const leftover = russianWords.match(/[a-z]{2,}/gi)
  if (leftover) problems.push(`keeps English words: ${leftover.join(', ')}`)
  return problems
}

const categories = (language: string) => new Intl.PluralRules(language).resolvedOptions().pluralCategories

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
        const translated = russian[component]?.[key]
        const where = `${component}.${key}`
        for (const form of forms(text)) expect(form.trim(), where).not.toBe('')
        expect(forms(translated).length, `${where} is missing in Russian`).toBeGreaterThan(0)
        for (const form of forms(translated)) expect(form.trim(), where).not.toBe('')
        expect(placeholders(translated), where).toEqual(placeholders(text))
      }
    }
  })

  it('gives plural messages every form each language needs, and others one text', () => {
    for (const [component, strings] of english) {
      for (const [key, text] of strings) {
        const translated = russian[component]?.[key]
        const where = `${component}.${key}`
        if (typeof text === 'string') {
          expect(typeof translated, `${where} is one text in English`).toBe('string')
          continue
        }
        expect(Object.keys(text).sort(), `${where} in English`).toEqual(expect.arrayContaining(categories('en')))
        expect(typeof translated, `${where} has plural forms in English`).toBe('object')
        expect(Object.keys(translated ?? {}).sort(), `${where} in Russian`).toEqual(
          expect.arrayContaining(categories('ru')),
        )
      }
    }
  })

  it('translates every text that has words (names, codes and key names may stay)', () => {
    const untranslated: string[] = []
    for (const [component, strings] of english) {
      for (const [key, text] of strings) {
        const translated = russian[component]?.[key]
        const englishForms = forms(text)
        forms(translated).forEach((form, index) => {
          const original = englishForms[Math.min(index, englishForms.length - 1)] ?? ''
          for (const problem of translationProblems(original, form)) {
            untranslated.push(`${component}.${key}: ${JSON.stringify(form)} ${problem}`)
          }
        })
      }
    }
    expect(untranslated).toEqual([])
  })

  it('tells a translation from a copy', () => {
    expect(translationProblems('Save changes', 'Save changes')).toEqual(['is the English text'])
    expect(translationProblems('Save changes', '')).toEqual(['is empty'])
    expect(translationProblems('Save changes', 'Сохранить changes')).toEqual(['keeps English words: changes'])
    expect(translationProblems('© {year} Lingua', '© {year} Lingua')).toEqual([])
    expect(translationProblems('Level {code}', 'Уровень {code}')).toEqual([])
    expect(translationProblems('Press Enter', 'Нажмите Enter')).toEqual([])
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
