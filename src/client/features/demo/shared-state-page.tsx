import { Link } from '@tanstack/react-router'
import { useStore } from '@nanostores/react'
import { Button } from '@/client/components/ui/button'
import { format } from '@/client/lib/i18n'
import { Page } from '@/client/components/page'
import { counter } from './counter'
import { sharedStateMessages } from './messages'

export function SharedStatePage({ variant }: { variant: 'home' | 'about' }) {
  const t = useStore(sharedStateMessages)
  const formats = useStore(format)
  const count = useStore(counter)
  return (
    <Page
      title={variant === 'home' ? t.homeTitle : t.aboutTitle}
      lead={t.intro}
    >
      <p className="text-2xl font-semibold" aria-live="polite">
        {t.count({ value: formats.number(count) })}
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button onClick={() => counter.set(count + 1)}>{t.increment}</Button>
        <Button variant="outline" onClick={() => counter.set(count - 1)}>
          {t.decrement}
        </Button>
        <Button variant="ghost" onClick={() => counter.set(0)}>
          {t.reset}
        </Button>
      </div>
      <p className="mt-8">
        {variant === 'home' ? (
          <Link to="/shared-state-about" className="text-primary-text underline underline-offset-4">
            {t.toAbout}
          </Link>
        ) : (
          <Link to="/shared-state-home" className="text-primary-text underline underline-offset-4">
            {t.toHome}
          </Link>
        )}
      </p>
    </Page>
  )
}
