import type { ParseKeys } from 'i18next'
import { useTranslation } from 'react-i18next'
import { Page } from './page'

/** A route whose content arrives with a later release; its guard already applies. */
export function PendingPage({ title, values }: { title: ParseKeys; values?: Record<string, string> }) {
  const { t } = useTranslation()
  return <Page title={t(title, values)} lead={t('common.comingSoon')} />
}
