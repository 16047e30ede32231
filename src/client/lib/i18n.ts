import { type ComponentsJSON, createI18n, formatter } from '@nanostores/i18n'
import { atom } from 'nanostores'

/**
 * @nanostores/i18n: each module declares its English strings next to the code that shows them
 * (so a page's strings load with that page), and the other languages load on demand as one file.
 */
export const languages = ['en', 'ru'] as const
export type Language = (typeof languages)[number]

/** Language names are written in their own language, whatever the interface language. */
export const languageNames: Record<Language, string> = { en: 'English', ru: 'Русский' }

/** Read by the inline script of index.html too: keep the key in step with it. */
const STORAGE_KEY = 'lingua.lang'

const translations: Record<Exclude<Language, 'en'>, () => Promise<{ default: ComponentsJSON }>> = {
  ru: () => import('@/client/locales/ru'),
}

function isLanguage(value: unknown): value is Language {
  return languages.includes(value as Language)
}

/** The remembered choice, else the first supported browser language, else English. */
export function detectLanguage(
  stored: string | null,
  browserLanguages: readonly string[],
): Language {
  if (isLanguage(stored)) return stored
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0]
    if (isLanguage(base)) return base
  }
  return 'en'
}

function readStored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY)
  } catch {
    return null
  }
}

export const locale = atom<Language>(
  typeof window === 'undefined' ? 'en' : detectLanguage(readStored(), navigator.languages),
)

export const i18n = createI18n(locale, {
  baseLocale: 'en',
  get: async (code) => (code === 'en' ? {} : (await translations[code]()).default),
})

/** Dates and numbers in the interface language. */
export const format = formatter(locale)

async function ensureTranslations(lng: Language) {
  if (lng === 'en' || i18n.cache[lng]) return
  // The cache is keyed by language, then by component, as the loaded file is.
  const components = (await translations[lng]()).default
  i18n.cache[lng] = components as unknown as (typeof i18n.cache)[Language]
}

/** Before the first render: the strings of the language in use, so nothing shows in English first. */
export async function initI18n(): Promise<void> {
  await ensureTranslations(locale.get())
  document.documentElement.lang = locale.get()
}

export async function changeLanguage(lng: Language): Promise<void> {
  await ensureTranslations(lng)
  locale.set(lng)
  document.documentElement.lang = lng
  try {
    localStorage.setItem(STORAGE_KEY, lng)
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}
