import { useStore } from '@nanostores/react'
import { useId } from 'react'
import { cn } from '@/client/lib/cn'
import { type Language, changeLanguage, languageNames, languages, locale } from '@/client/lib/i18n'
import { layoutMessages } from './messages'

export function LanguageSwitch({ className }: { className?: string }) {
  const t = useStore(layoutMessages)
  const current = useStore(locale)
  const id = useId()
  return (
    <div className={cn('flex items-center', className)}>
      <label htmlFor={id} className="sr-only">
        {t.language}
      </label>
      <select
        id={id}
        value={current}
        onChange={(event) => void changeLanguage(event.target.value as Language)}
        className="h-10 rounded-md border border-input bg-background px-2 text-sm"
      >
        {languages.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {languageNames[lng]}
          </option>
        ))}
      </select>
    </div>
  )
}
