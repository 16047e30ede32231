import { useStore } from '@nanostores/react'
import { type ComponentProps, useMemo } from 'react'
import { Select } from '@/client/components/ui/select'
import { locale } from '@/client/lib/i18n'
import { learnableLanguageOptions } from '@/client/lib/language-names'

/** The learnable languages by their names in the interface language, in its alphabetical order. */
export function useLanguageOptions() {
  const lang = useStore(locale)
  return useMemo(() => learnableLanguageOptions(lang), [lang])
}

/** A select of the learnable languages (a word's, a deck's), named in the interface language. */
export function LanguageSelect(props: Omit<ComponentProps<'select'>, 'children'>) {
  const languages = useLanguageOptions()
  return (
    <Select {...props}>
      {languages.map(({ code, name }) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </Select>
  )
}
