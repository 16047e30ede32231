/**
 * The language and colour mode a person chose, kept in cookies so that the server renders the
 * first HTML in them (docs/decisions/0014-pages-that-paint-before-javascript.md); the client keeps
 * a copy in localStorage too. The inline script of index.html reads the same names.
 */
export const LANGUAGE_COOKIE = 'lingua.lang'
export const THEME_COOKIE = 'lingua.theme'

export const languages = ['en', 'ru'] as const
export type Language = (typeof languages)[number]

export const themePreferences = ['light', 'dark', 'system'] as const
export type ThemePreference = (typeof themePreferences)[number]

function isLanguage(value: unknown): value is Language {
  return languages.includes(value as Language)
}

export function themePreferenceOf(value: string | null | undefined): ThemePreference {
  return value === 'light' || value === 'dark' ? value : 'system'
}

/** The remembered choice, else the first supported language of the browser's list, else English. */
export function detectLanguage(stored: string | null | undefined, browserLanguages: readonly string[]): Language {
  if (isLanguage(stored)) return stored
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0]
    if (isLanguage(base)) return base
  }
  return 'en'
}

/** The language tags of an `Accept-Language` header, most wanted first (`q=0` left out). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return []
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined)
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index }
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag)
}
