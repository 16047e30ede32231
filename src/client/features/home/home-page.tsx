import { useStore } from '@nanostores/react'
import { Link } from '@tanstack/react-router'
import type { LanguageLevel } from '@/shared/levels'
import { buttonClass } from '@/client/components/ui/button'
import { PageHeading } from '@/client/components/ui/page-heading'
import { currentUser } from '@/client/lib/auth'
import { usePageTitle } from '@/client/lib/page-title'
import { LevelList } from './level-list'
import { homeMessages } from './messages'

const features = ['levels', 'progress', 'privacy'] as const

export function HomePage({ levels }: { levels: Promise<LanguageLevel[]> }) {
  const t = useStore(homeMessages)
  const user = useStore(currentUser)
  usePageTitle(undefined)
  return (
    <div className="flex flex-col gap-16">
      <section className="mx-auto max-w-3xl pt-6 text-center sm:pt-12">
        <p className="text-sm font-semibold tracking-wide text-secondary-text uppercase">
          A1 · A2 · B1 · B2 · C1 · C2
        </p>
        <PageHeading className="mt-4 text-4xl font-bold tracking-tight text-balance sm:text-5xl">
          {t.title}
        </PageHeading>
        <p className="mt-6 text-lg text-pretty text-muted-foreground">{t.lead}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {user ? (
            <Link to="/dashboard" className={buttonClass({ size: 'lg' })}>
              {t.dashboard}
            </Link>
          ) : (
            <Link to="/register" className={buttonClass({ size: 'lg' })}>
              {t.getStarted}
            </Link>
          )}
          <Link to="/about" className={buttonClass({ size: 'lg', variant: 'outline' })}>{t.learnMore}</Link>
        </div>
      </section>
      <LevelList levels={levels} />
      <section aria-labelledby="features-heading">
        <h2 id="features-heading" className="text-center text-2xl font-semibold">
          {t.featuresTitle}
        </h2>
        <ul className="mt-8 grid gap-4 sm:grid-cols-3">
          {features.map((key) => (
            <li key={key} className="rounded-xl border bg-card p-6">
              <h3 className="font-semibold">{t[`${key}Title`]}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{t[`${key}Body`]}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}
