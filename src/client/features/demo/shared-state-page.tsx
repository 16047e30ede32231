import { Link } from '@tanstack/react-router'
import { useSelector } from '@tanstack/react-store'
import { useTranslation } from 'react-i18next'
import { Button } from '../../components/ui/button'
import { Page } from '../pages/page'
import { counter } from './counter'

export function SharedStatePage({ variant }: { variant: 'home' | 'about' }) {
  const { t, i18n } = useTranslation()
  const count = useSelector(counter)
  return (
    <Page
      title={variant === 'home' ? t('demo.shared.homeTitle') : t('demo.shared.aboutTitle')}
      lead={t('demo.shared.intro')}
    >
      <p className="text-2xl font-semibold" aria-live="polite">
        {t('demo.shared.count', { value: new Intl.NumberFormat(i18n.language).format(count) })}
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button onClick={() => counter.set((n) => n + 1)}>{t('demo.shared.increment')}</Button>
        <Button variant="outline" onClick={() => counter.set((n) => n - 1)}>
          {t('demo.shared.decrement')}
        </Button>
        <Button variant="ghost" onClick={() => counter.set(0)}>
          {t('demo.shared.reset')}
        </Button>
      </div>
      <p className="mt-8">
        {variant === 'home' ? (
          <Link to="/shared-state-about" className="text-primary-text underline underline-offset-4">
            {t('demo.shared.toAbout')}
          </Link>
        ) : (
          <Link to="/shared-state-home" className="text-primary-text underline underline-offset-4">
            {t('demo.shared.toHome')}
          </Link>
        )}
      </p>
    </Page>
  )
}
