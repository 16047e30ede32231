import { LEARNABLE_LANGUAGES } from '@/shared/profile'

/** A language's name in the interface language ("French", "французский"), or its code when unknown. */
export function languageName(language: string, code: string): string {
  return new Intl.DisplayNames([language], { type: 'language' }).of(code) ?? code
}

/**
 * The learnable languages by name in the interface language, in its alphabetical order, for a
 * select. Russian names come in lower case ("французский"): a list item starts with a capital.
 */
export function learnableLanguageOptions(language: string): { code: (typeof LEARNABLE_LANGUAGES)[number]; name: string }[] {
  const capitalized = (name: string) => name.charAt(0).toLocaleUpperCase(language) + name.slice(1)
  return LEARNABLE_LANGUAGES.map((code) => ({ code, name: capitalized(languageName(language, code)) })).sort((one, other) =>
    one.name.localeCompare(other.name, language),
  )
}
