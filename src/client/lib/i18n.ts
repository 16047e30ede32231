import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import type { Messages } from '../locales/en'

export const languages = ['en', 'ru'] as const
export type Language = (typeof languages)[number]

const STORAGE_KEY = 'lingua.lang'

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Messages }
  }
}

const loaders: Record<Language, () => Promise<{ default: Messages }>> = {
  en: () => import('../locales/en'),
  ru: () => import('../locales/ru'),
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

/** Loads only the detected language's strings, then starts i18next. */
export async function initI18n(): Promise<void> {
  const lng = detectLanguage(readStored(), navigator.languages)
  const messages = await loaders[lng]()
  await i18next.use(initReactI18next).init({
    lng,
    fallbackLng: false,
    resources: { [lng]: { translation: messages.default } },
    interpolation: { escapeValue: false },
  })
  document.documentElement.lang = lng
}

export async function changeLanguage(lng: Language): Promise<void> {
  if (!i18next.hasResourceBundle(lng, 'translation')) {
    const messages = await loaders[lng]()
    i18next.addResourceBundle(lng, 'translation', messages.default)
  }
  await i18next.changeLanguage(lng)
  document.documentElement.lang = lng
  try {
    localStorage.setItem(STORAGE_KEY, lng)
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : 'en'
}
