import { type ComponentsJSON, createI18n, formatter } from '@nanostores/i18n'
import { atom } from 'nanostores'
import { LANGUAGE_COOKIE, type Language, detectLanguage } from '@/shared/preferences'
import { keepChoice, readChoice } from './stored-choice'

/**
 * @nanostores/i18n: each module declares its English strings next to the code that shows them
 * (so a page's strings load with that page), and the other languages load on demand as one file.
 */
export { type Language, languages } from '@/shared/preferences'

/** Language names are written in their own language, whatever the interface language. */
export const languageNames: Record<Language, string> = { en: 'English', ru: 'Русский' }

const translations: Record<Exclude<Language, 'en'>, () => Promise<{ default: ComponentsJSON }>> = {
  ru: () => import('@/client/locales/ru'),
}

/** The remembered choice, else the browser's languages: what the server picks from the cookie and Accept-Language. */
export const locale = atom<Language>(
  typeof window === 'undefined' ? 'en' : detectLanguage(readChoice(LANGUAGE_COOKIE), navigator.languages),
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

/** The server's render of one page: its language, with its strings, and nothing kept. */
export async function renderIn(lng: Language): Promise<void> {
  await ensureTranslations(lng)
  locale.set(lng)
}

export async function changeLanguage(lng: Language): Promise<void> {
  await ensureTranslations(lng)
  locale.set(lng)
  document.documentElement.lang = lng
  keepChoice(LANGUAGE_COOKIE, lng)
}
