import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { Overview } from '@/shared/people'
import { overviewQuery } from '@/client/api/people'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { PageHeading } from '@/client/components/ui/page-heading'
import { Skeleton } from '@/client/components/ui/skeleton'
import { format } from '@/client/lib/i18n'
import { usePageTitle } from '@/client/lib/page-title'
import { ChartCard } from './chart-card'
import { Figures, FiguresSkeleton } from './figures'
import { overviewMessages } from './messages'

type Messages = ReturnType<typeof overviewMessages.get>
type Formats = ReturnType<typeof format.get>
/** Learners per level: a profile's level, or the overall level of a self-assessment (name null: deleted since). */
type LevelCounts = readonly { code: string; name: string | null; learners: number }[]

/** What a chart of learners per level says, and what its row of learners without a level is called. */
interface LevelWords {
  summary: Messages['levelsSummary']
  summaryNone: string
  noneSummary: Messages['noLevelSummary']
  noneLabel: string
  noneName: string
}

const chosenWords = (t: Messages): LevelWords => ({
  summary: t.levelsSummary,
  summaryNone: t.levelsSummaryNone,
  noneSummary: t.noLevelSummary,
  noneLabel: t.noLevel,
  noneName: t.noLevelName,
})

/** A bar chart of learners per level, in level order; those without a level are a row of the table. */
function levelChart(levels: LevelCounts, none: number, title: string, words: LevelWords, t: Messages, formats: Formats) {
  const withLevel = levels.reduce((sum, level) => sum + level.learners, 0)
  const most = Math.max(0, ...levels.map((level) => level.learners))
  // Levels that tie for the most are all named.
  const code = levels
    .filter((level) => level.learners === most)
    .map((level) => level.code)
    .join(', ')
  const summary =
    levels.length === 0
      ? t.noLevels
      : [
          most > 0 ? words.summary({ count: withLevel, code, top: formats.number(most) }) : words.summaryNone,
          none > 0 ? words.noneSummary({ count: none }) : '',
        ].join(' ')
  return {
    title,
    summary,
    // Bars of zeros would only repeat the sentence.
    empty: withLevel === 0,
    chart: {
      kind: 'bars' as const,
      labels: levels.map((level) => level.code),
      values: levels.map((level) => level.learners),
      formatNumber: (value: number) => formats.number(value),
    },
    table: {
      columns: [t.level, t.name, t.learners],
      rows: [
        ...levels.map((level) => [level.code, level.name ?? t.deletedLevel, formats.number(level.learners)]),
        [words.noneLabel, words.noneName, formats.number(none)],
      ],
    },
  }
}

const weekDate = (weekStart: string) => new Date(`${weekStart}T00:00:00Z`)

/** A line of sign-ups per week, oldest first. */
function signUpChart(weeks: Overview['signUpsPerWeek'], t: Messages, formats: Formats) {
  const total = weeks.reduce((sum, week) => sum + week.count, 0)
  return {
    title: t.signUpsTitle,
    lead: t.signUpsLead,
    // Twelve weeks read better across the page.
    className: 'lg:col-span-2',
    summary: total > 0 ? t.signUpsSummary({ count: total, last: formats.number(weeks.at(-1)?.count ?? 0) }) : t.signUpsNone,
    empty: total === 0,
    chart: {
      kind: 'line' as const,
      labels: weeks.map((week) =>
        formats.time(weekDate(week.weekStart), { day: 'numeric', month: 'short', timeZone: 'UTC' }),
      ),
      values: weeks.map((week) => week.count),
      formatNumber: (value: number) => formats.number(value),
    },
    table: {
      columns: [t.week, t.signUps],
      rows: weeks.map((week) => [
        formats.time(weekDate(week.weekStart), { dateStyle: 'medium', timeZone: 'UTC' }),
        formats.number(week.count),
      ]),
    },
  }
}

function OverviewSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="grid grid-cols-1 gap-8">
      <FiguresSkeleton />
      <div className="grid gap-6 lg:grid-cols-2">
        {[0, 1, 2, 3].map((chart) => (
          <Skeleton key={chart} className="h-96 rounded-xl" />
        ))}
      </div>
    </div>
  )
}

/** `/admin` (admin): the figures of the user base and four charts, each with its data as a table. */
export function OverviewPage() {
  const t = useStore(overviewMessages)
  const formats = useStore(format)
  const query = useQuery(overviewQuery())
  const overview = query.data
  usePageTitle(t.title)

  const charts = useMemo(
    () =>
      overview && [
        levelChart(overview.currentLevels, overview.currentLevelNone, t.currentLevelsTitle, chosenWords(t), t, formats),
        levelChart(overview.targetLevels, overview.targetLevelNone, t.targetLevelsTitle, chosenWords(t), t, formats),
        {
          ...levelChart(
            overview.assessedLevels,
            overview.assessedBelowFirstLevel,
            t.assessedTitle,
            {
              summary: t.assessedSummary,
              summaryNone: t.assessedSummaryNone,
              noneSummary: t.assessedBelowSummary,
              noneLabel: t.assessedBelow,
              noneName: t.assessedBelowName,
            },
            t,
            formats,
          ),
          lead: t.assessedLead,
          className: 'lg:col-span-2',
          // Learners all below the first level are worth the (zero) bars and the table.
          empty: overview.assessedLevels.every((level) => level.learners === 0) && overview.assessedBelowFirstLevel === 0,
        },
        signUpChart(overview.signUpsPerWeek, t, formats),
      ],
    [overview, t, formats],
  )

  return (
    <div className="grid grid-cols-1 gap-8">
      <header>
        <PageHeading className="text-3xl font-bold tracking-tight sm:text-4xl">{t.title}</PageHeading>
        <p className="mt-3 text-lg text-muted-foreground">{t.lead}</p>
        {overview && (
          <p className="mt-2 text-sm text-muted-foreground">
            {/* Figures are kept on the server for up to 30 seconds: say how fresh they are. */}
            <time dateTime={overview.computedAt}>
              {t.asOf({ time: formats.time(new Date(overview.computedAt), { timeStyle: 'medium' }) })}
            </time>
          </p>
        )}
      </header>
      {query.isPending && <OverviewSkeleton label={t.loading} />}
      {query.isError && !overview && <ErrorAlert error={query.error} onRetry={query.refetch} />}
      {overview && charts && (
        <>
          <Figures overview={overview} />
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            {charts.map((chart) => (
              <ChartCard key={chart.title} {...chart} />
            ))}
          </div>
        </>
      )}
    </div>
  )
}
