import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { type Language, changeLanguage, languages } from '../../lib/i18n'
import { cn } from '../../lib/cn'

export function LanguageSwitch({ className }: { className?: string }) {
  const { t, i18n } = useTranslation()
  const id = useId()
  return (
    <div className={cn('flex items-center', className)}>
      <label htmlFor={id} className="sr-only">
        {t('language.label')}
      </label>
      <select
        id={id}
        value={i18n.language}
        onChange={(event) => void changeLanguage(event.target.value as Language)}
        className="h-10 rounded-md border border-input bg-background px-2 text-sm"
      >
        {languages.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {t(`language.${lng}`)}
          </option>
        ))}
      </select>
    </div>
  )
}
