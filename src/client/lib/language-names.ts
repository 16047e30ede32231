import { LEARNABLE_LANGUAGES } from '@/shared/profile'

/** A language's name in the interface language ("French", "французский"), or its code when unknown. */
export function languageName(language: string, code: string): string {
  return new Intl.DisplayNames([language], { type: 'language' }).of(code) ?? code
}

/**
 * A language's name as a list item or a line starts: Russian names come in lower case
 * ("французский"), this one with a capital ("Французский").
 */
export function languageTitle(language: string, code: string): string {
  const name = languageName(language, code)
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1)
}

/** The learnable languages by name in the interface language, in its alphabetical order, for a select. */
export function learnableLanguageOptions(language: string): { code: (typeof LEARNABLE_LANGUAGES)[number]; name: string }[] {
  return LEARNABLE_LANGUAGES.map((code) => ({ code, name: languageTitle(language, code) })).sort((one, other) =>
    one.name.localeCompare(other.name, language),
  )
}
