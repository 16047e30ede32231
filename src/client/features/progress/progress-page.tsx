import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import type { Progress, ProgressDay } from '@/shared/progress'
import { useSyncTimeZone } from '@/client/api/practice-progress'
import { Card } from '@/client/components/ui/card'
import { EmptyState } from '@/client/components/ui/empty-state'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { PageHeading } from '@/client/components/ui/page-heading'
import { Skeleton } from '@/client/components/ui/skeleton'
import { format } from '@/client/lib/i18n'
import { usePageTitle } from '@/client/lib/page-title'
import { progressQuery } from './api'
import { DaysChart } from './days-chart'
import { progressMessages } from './messages'
import { PeriodSwitch, type Span } from './period-switch'
import { CardStates } from './card-states'

/** `/progress` (auth guard): reviews a day, true retention, the next 30 days, the cards by state; then `memoryModel` (the route composes it). */
export function ProgressPage({ memoryModel }: { memoryModel?: ReactNode }) {
  const t = useStore(progressMessages)
  const query = useQuery(progressQuery())
  usePageTitle(t.title)
  // The days are the learner's own: the browser's zone, as the dashboard keeps it.
  useSyncTimeZone()
  const progress = query.data
  return (
    <article className="mx-auto grid max-w-5xl gap-8">
      <header>
        <PageHeading className="text-3xl font-bold tracking-tight sm:text-4xl">{t.title}</PageHeading>
        <p className="mt-3 text-lg text-muted-foreground">{t.lead}</p>
        {progress && <p className="mt-2 text-sm text-muted-foreground">{t.timeZone({ zone: progress.timeZone })}</p>}
      </header>
      {query.isPending && (
        <div role="status" aria-label={t.loading} className="grid gap-6 lg:grid-cols-2">
          {[0, 1, 2, 3].map((index) => (
            <Skeleton key={index} className="h-80 rounded-xl" />
          ))}
        </div>
      )}
      {query.isError && !progress && <ErrorAlert error={query.error} onRetry={query.refetch} />}
      {progress && <Figures progress={progress} />}
      {memoryModel}
    </article>
  )
}

const sum = (days: readonly ProgressDay[]) => days.reduce((total, day) => total + day.count, 0)

function Figures({ progress }: { progress: Progress }) {
  const t = useStore(progressMessages)
  const formats = useStore(format)
  const [span, setSpan] = useState<Span>(30)
  const number = (value: number) => formats.number(value)
  const shown = progress.reviews.slice(-span)
  const reviews = sum(shown)
  const practised = shown.filter((day) => day.count > 0).length
  const dueAhead = sum(progress.forecast)
  const { retention } = progress
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <Card
        title={t.reviewsTitle}
        lead={t.reviewsLead}
        className="lg:col-span-2"
        actions={<PeriodSwitch span={span} onChange={setSpan} />}
      >
        <DaysChart
          title={`${t.reviewsTitle}: ${span === 30 ? t.last30 : t.last90}`}
          summary={
            reviews > 0
              ? t.reviewsSummary({ count: reviews, span, days: number(practised), today: number(progress.reviews.at(-1)?.count ?? 0) })
              : t.reviewsNone({ span })
          }
          empty={reviews === 0}
          days={shown}
          column={t.reviews}
        />
      </Card>
      <Card title={t.retentionTitle} lead={t.retentionLead}>
        {retention.rate === null ? (
          <EmptyState title={t.retentionNone} hint={t.retentionNoneHint} className="rounded-md border border-dashed" />
        ) : (
          <div className="grid gap-3">
            <p className="grid gap-1">
              <span className="text-4xl font-semibold tabular-nums">
                {formats.number(retention.rate, { style: 'percent', maximumFractionDigits: 1 })}
              </span>
              <span className="text-sm text-muted-foreground">
                {t.retentionOf({ count: retention.reviews, passed: number(retention.passed) })}
              </span>
            </p>
            {/* The share drawn: the sentence above says it. */}
            <div aria-hidden="true" className="h-2.5 w-full overflow-hidden rounded-full bg-muted-foreground/20">
              <div className="h-full rounded-full bg-primary" style={{ width: `${retention.rate * 100}%` }} />
            </div>
          </div>
        )}
      </Card>
      <Card title={t.statesTitle} lead={t.statesLead}>
        <CardStates states={progress.states} />
      </Card>
      <Card title={t.forecastTitle} lead={t.forecastLead} className="lg:col-span-2">
        <DaysChart
          title={t.forecastTitle}
          summary={dueAhead > 0 ? t.forecastSummary({ count: dueAhead, today: number(progress.forecast[0]?.count ?? 0) }) : t.forecastNone}
          empty={dueAhead === 0}
          days={progress.forecast}
          column={t.cardsDue}
        />
      </Card>
    </div>
  )
}
