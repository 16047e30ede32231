import { useStore } from '@nanostores/react'
import type { Overview } from '@/shared/people'
import { Skeleton } from '@/client/components/ui/skeleton'
import { format } from '@/client/lib/i18n'
import { overviewMessages } from './messages'

type Messages = ReturnType<typeof overviewMessages.get>

/** The figures, in the order they are read; `share`: also given as a share of all accounts. */
const figures = [
  { key: 'accounts', share: false },
  { key: 'confirmed', share: true },
  { key: 'twoFactor', share: true },
  { key: 'activeLast7Days', share: true },
  { key: 'activeLast30Days', share: true },
  { key: 'newThisWeek', share: false },
  { key: 'disabled', share: false },
  { key: 'admins', share: false },
] as const satisfies readonly { key: keyof Overview & keyof Messages; share: boolean }[]

const gridClass = 'grid grid-cols-2 gap-3 sm:grid-cols-4 sm:gap-4'

/** The figures of the user base, each a term and its number in the interface language. */
export function Figures({ overview }: { overview: Overview }) {
  const t = useStore(overviewMessages)
  const formats = useStore(format)
  return (
    <section aria-labelledby="overview-figures">
      <h2 id="overview-figures" className="sr-only">
        {t.figures}
      </h2>
      <dl className={gridClass}>
      {figures.map(({ key, share }) => (
        <div key={key} className="flex flex-col rounded-xl border bg-card p-4">
          <dt className="text-sm text-muted-foreground">{t[key]}</dt>
          <dd className="order-first text-2xl font-semibold tabular-nums sm:text-3xl">
            {formats.number(overview[key])}
          </dd>
          {share && overview.accounts > 0 && (
            <dd className="mt-1 text-xs text-muted-foreground">
              {t.shareOfAccounts({
                share: formats.number(overview[key] / overview.accounts, { style: 'percent', maximumFractionDigits: 0 }),
              })}
            </dd>
          )}
        </div>
      ))}
      </dl>
    </section>
  )
}

/** The figures' places while they load. */
export function FiguresSkeleton() {
  return (
    <div className={gridClass}>
      {Array.from({ length: 8 }, (_, index) => (
        <Skeleton key={index} className="h-24 rounded-xl" />
      ))}
    </div>
  )
}
