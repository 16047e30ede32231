import { useTranslation } from 'react-i18next'
import { runtimeConfig } from '../../lib/runtime-config'
import { Page } from '../pages/page'

const bands = ['basic', 'independent', 'proficient'] as const

export function AboutPage() {
  const { t } = useTranslation()
  return (
    <Page title={t('about.title')} lead={t('about.intro')}>
      <section aria-labelledby="cefr-heading" className="space-y-4">
        <h2 id="cefr-heading" className="text-xl font-semibold">
          {t('about.cefrTitle')}
        </h2>
        <p>{t('about.cefrBody')}</p>
        <ul className="list-disc space-y-2 pl-6">
          {bands.map((band) => (
            <li key={band}>{t(`about.bands.${band}`)}</li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="version-heading" className="mt-10">
        <h2 id="version-heading" className="text-xl font-semibold">
          {t('about.versionTitle')}
        </h2>
        <p className="mt-2 font-mono text-sm" data-testid="app-version">
          {runtimeConfig().version}
        </p>
      </section>
    </Page>
  )
}
