import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'

/** Sets the document title: "Page · Lingua". */
export function usePageTitle(title: string | undefined) {
  const { t } = useTranslation()
  const appName = t('app.name')
  useEffect(() => {
    document.title = title ? `${title} · ${appName}` : appName
  }, [title, appName])
}
